package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{
  AggregateExpression, AggregateFunction, Complete, First, Last
}
import org.apache.spark.sql.types.{DoubleType, FloatType, IntegerType}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.FunctionCatalog.WindowEntry

/** The window functions of functions_arithmetic (part of the catalog's table). */
private[functions] object WindowFunctions {
  private val Window = Set("functions_arithmetic")

  val entries: Seq[WindowEntry] = Seq(
    WindowEntry("row_number", Window, framed = false, c => { c.expectArity(0); RowNumber() }),
    WindowEntry("rank", Window, framed = false, c => { c.expectArity(0); new Rank() }),
    WindowEntry("dense_rank", Window, framed = false, c => { c.expectArity(0); new DenseRank() }),
    WindowEntry("percent_rank", Window, framed = false, c => { c.expectArity(0); new PercentRank() }),
    WindowEntry("cume_dist", Window, framed = false, c => { c.expectArity(0); CumeDist() }),
    // Spark's ntile takes an int constant. The YAML's result is nullable (i32?, i64?) and a NULL
    // count is the one way to get NULL. A partition holds at most Int.MaxValue rows (Spark's
    // window buffers count rows in an int), so a larger i64 count puts every row in a bucket of
    // its own, exactly as Int.MaxValue does.
    WindowEntry("ntile", Window, framed = false,
      c => {
        c.expectArity(1)
        val n = constant(c, 0, "a bucket count")
        n.eval() match {
          case null => Literal(null, IntegerType)
          case count: Number => NTile(Literal(math.max(math.min(count.longValue, Int.MaxValue.toLong), 0L).toInt))
        }
      }),
    // NULLs are values here (respect nulls), as in the spec and Spark's default.
    WindowEntry("first_value", Window, framed = true, c => { c.expectArity(1); overWindow(First(c.arg(0), false)) }),
    WindowEntry("last_value", Window, framed = true, c => { c.expectArity(1); overWindow(Last(c.arg(0), false)) }),
    // "on_domain_error governs behavior in cases where window_offset is not a positive integer
    // or null": the position is a constant, so which case applies is known here. ERROR (and an
    // unset option) raises on every row; NAN gives NaN where the value can be one, and NULL,
    // the YAML naming no other value, where it cannot.
    WindowEntry("nth_value", Window, framed = true,
      c => {
        c.expectArity(2)
        val onDomainError = c.option("on_domain_error", Map("NAN" -> "NAN", "ERROR" -> "ERROR")).getOrElse("ERROR")
        val position = constant(c, 1, "a position")
        val t = c.arg(0).dataType
        position.eval() match {
          // A frame holds at most Int.MaxValue rows: a larger position is beyond every frame, as that one is.
          case n: Number if n.longValue >= 1 =>
            NthValue(c.arg(0), Literal(math.min(n.longValue, Int.MaxValue.toLong).toInt), false)
          case n if onDomainError == "ERROR" =>
            FunctionErrors.domain(c, s"the position ${if (n == null) "NULL" else n} is not a positive integer", t)
          case _ => t match {
              case DoubleType => Literal(Double.NaN)
              case FloatType => Literal(Float.NaN)
              case _ => Literal(null, t)
            }
        }
      }),
    WindowEntry("lead", Window, framed = false, c => offsetFunction(c)(Lead(_, _, _, false))),
    WindowEntry("lag", Window, framed = false, c => offsetFunction(c)(Lag(_, _, _, false)))
  )

  /** An aggregate function computed over the window frame. */
  private def overWindow(f: AggregateFunction): Expression = AggregateExpression(f, Complete, isDistinct = false)

  /**
   * lead / lag (value [, offset [, default]]): offset 1 and default NULL when absent. "A
   * row_offset of null will return null": the offset is a constant, so that NULL is known
   * here (Spark's Lag and Lead cannot take a NULL offset).
   */
  private def offsetFunction(c: FunctionCall)(f: (Expression, Expression, Expression) => Expression): Expression = {
    if (c.args.isEmpty || c.args.size > 3) c.wrongArguments("1 to 3 arguments")
    val value = c.arg(0)
    val offset = if (c.args.size > 1) constant(c, 1, "an offset") else Literal(1)
    val default = c.args.lift(2).map(d => if (d.dataType == value.dataType) d else Cast(d, value.dataType)).getOrElse(
      Literal(null, value.dataType))
    if (offset.eval() == null) Literal(null, value.dataType) else f(value, offset, default)
  }

  /** Argument `i` (`what`, with its article), which Spark's window function takes only as a constant. */
  private def constant(c: FunctionCall, i: Int, what: String): Expression = {
    if (!c.arg(i).foldable) {
      throw SubstraitErrors.unsupported(c.at.at("arguments", i), s"$what of ${c.name} that is not a constant",
        s"a constant (Spark's ${c.name} takes no other)")
    }
    c.arg(i)
  }
}
