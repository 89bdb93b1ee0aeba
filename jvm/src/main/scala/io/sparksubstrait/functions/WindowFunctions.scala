package io.sparksubstrait.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, AggregateFunction, Complete, First, Last}
import org.apache.spark.sql.types.IntegerType

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.functions.FunctionCatalog.WindowEntry

/** The window functions of functions_arithmetic (part of the catalog's table). */
private[functions] object WindowFunctions {
  private val Window = Set("functions_arithmetic")

  val entries: Seq[WindowEntry] = Seq(
    WindowEntry("row_number", Window, framed = false, c => { c.expectArity(0); RowNumber() }),
    WindowEntry("rank", Window, framed = false, c => { c.expectArity(0); new Rank() }),
    WindowEntry("dense_rank", Window, framed = false, c => { c.expectArity(0); new DenseRank() }),
    WindowEntry("percent_rank", Window, framed = false, c => { c.expectArity(0); new PercentRank() }),
    WindowEntry("cume_dist", Window, framed = false, c => { c.expectArity(0); CumeDist() }),
    // Spark's ntile takes an int: an i64 bucket count that does not fit is an error, not wrapped.
    WindowEntry("ntile", Window, framed = false, c => {
      c.expectArity(1)
      val n = constant(c, 0, "a bucket count")
      NTile(if (n.dataType == IntegerType) n else Cast(n, IntegerType, None, EvalMode.ANSI))
    }),
    // NULLs are values here (respect nulls), as in the spec and Spark's default.
    WindowEntry("first_value", Window, framed = true, c => { c.expectArity(1); overWindow(First(c.arg(0), false)) }),
    WindowEntry("last_value", Window, framed = true, c => { c.expectArity(1); overWindow(Last(c.arg(0), false)) }),
    WindowEntry("nth_value", Window, framed = true, c => {
      c.expectArity(2)
      c.option("on_domain_error", Map("NAN" -> ()))
      NthValue(c.arg(0), constant(c, 1, "a position"), false)
    }),
    WindowEntry("lead", Window, framed = false, c => offsetFunction(c)(Lead(_, _, _, false))),
    WindowEntry("lag", Window, framed = false, c => offsetFunction(c)(Lag(_, _, _, false)))
  )

  /** An aggregate function computed over the window frame. */
  private def overWindow(f: AggregateFunction): Expression = AggregateExpression(f, Complete, isDistinct = false)

  /** lead / lag (value [, offset [, default]]): offset 1 and default NULL when absent. */
  private def offsetFunction(c: FunctionCall)(f: (Expression, Expression, Expression) => Expression): Expression = {
    if (c.args.isEmpty || c.args.size > 3) c.wrongArguments("1 to 3 arguments")
    val value = c.arg(0)
    val offset = if (c.args.size > 1) constant(c, 1, "an offset") else Literal(1)
    val default = c.args.lift(2).map(d => if (d.dataType == value.dataType) d else Cast(d, value.dataType)).getOrElse(Literal(null, value.dataType))
    f(value, offset, default)
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
