package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.catalyst.expressions.aggregate.{Max, Min}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.convert.types.UnsignedTypes
import io.sparksubstrait.convert.types.UnsignedTypes.Unsigned
import io.sparksubstrait.convert.functions.FunctionCatalog.{AggregateEntry, ScalarEntry}

/**
 * unsigned_integers: u8/u16/u32/u64 are held in wider signed types (see [[UnsignedTypes]]),
 * so arithmetic is computed exactly in DECIMAL(38,0) and brought back into the unsigned
 * range as the overflow option says: ERROR (the default) fails, SATURATE clamps, SILENT
 * wraps modulo 2^bits.
 */
private[functions] object UnsignedFunctions {
  private val Ext = Set(UnsignedTypes.Extension)
  private val Wide = DecimalType(38, 0)

  val scalarEntries: Seq[ScalarEntry] = Seq(
    arithmetic("add")(Add(_, _)),
    arithmetic("subtract")(Subtract(_, _)),
    // The exact product of two u64 values overflows DECIMAL(38,0): computed and brought into
    // range at run time, for every width alike.
    ScalarEntry("multiply", Ext,
      c => {
        val (t, Seq(l, r)) = operands(c)
        val max = Literal(Decimal(BigDecimal(t.max), 38, 0), Wide)
        Cast(StaticInvoke(classOf[io.sparksubstrait.runtime.ExactMath], Wide, "unsignedProduct",
            Seq(l, r, max, Literal(overflowMode(c)), Literal(c.at.toString))), t.sparkType)
      }),
    ScalarEntry("divide", Ext,
      c => {
        val (t, Seq(l, r)) = operands(c)
        val byZero = c.option("on_division_by_zero", Map("NULL" -> false, "ERROR" -> true)).getOrElse(true)
        // on_domain_error governs "x or y out of range", which no value of an unsigned type is.
        c.option("on_domain_error", Map("NULL" -> (), "ERROR" -> ()))
        // Unsigned division truncates; the quotient always fits. (x - x mod y) / y is exact in
        // decimals: Spark's integral division of decimals returns a long, too narrow for a u64.
        val legacy = EvalMode.LEGACY
        val conf = c.ctx.conf
        val quotient =
          Cast(SparkShim.divide(SparkShim.subtract(l, SparkShim.remainder(l, r, legacy, conf), legacy, conf), r, legacy,
              conf),
            t.sparkType)
        val zero = EqualTo(r, Literal(Decimal(0), Wide))
        // A NULL operand gives NULL before a zero divisor is looked at.
        CaseWhen(Seq(Or(IsNull(l), IsNull(r)) -> Literal(null, t.sparkType),
            zero ->
              (if (byZero) FunctionErrors.divisionByZero(c, "the divisor is 0", t.sparkType)
               else Literal(null, t.sparkType))),
          Some(quotient))
      })
  )

  val aggregateEntries: Seq[AggregateEntry] = Seq(
    AggregateEntry("min", Ext, c => { c.expectArity(1); unsignedArg(c, c.arg(0)); Min(c.arg(0)) }),
    AggregateEntry("max", Ext, c => { c.expectArity(1); unsignedArg(c, c.arg(0)); Max(c.arg(0)) }),
    // The sum is a u64: exact in DECIMAL(38,0), then brought into u64 by the overflow option.
    AggregateEntry("sum", Ext,
      c => {
        c.expectArity(1)
        unsignedArg(c, c.arg(0))
        overflowMode(c)
        SparkShim.sum(Cast(c.arg(0), Wide), EvalMode.ANSI, c.ctx.conf)
      },
      finish = (c, total) => {
        val u64 = UnsignedTypes.holding(DecimalType(20, 0)).get
        val max = Literal(Decimal(BigDecimal(u64.max), 38, 0), Wide)
        val inRange = overflowMode(c) match {
          case "error" =>
            If(GreaterThan(total, max), FunctionErrors.overflow(c, "the sum exceeds u64", total.dataType), total)
          // least skips NULLs: the sum of no values must stay NULL.
          case "saturate" => If(IsNull(total), Literal(null, total.dataType), Least(Seq(total, max)))
          case _ => Pmod(total, Literal(Decimal(BigDecimal(u64.max + 1), 38, 0), Wide))
        }
        Cast(inRange, u64.sparkType)
      })
  )

  private def overflowMode(c: FunctionCall): String =
    c.option("overflow", Map("ERROR" -> "error", "SATURATE" -> "saturate", "SILENT" -> "wrap")).getOrElse("error")

  private def arithmetic(name: String)(f: (Expression, Expression) => Expression): ScalarEntry = ScalarEntry(name, Ext,
    c => {
      val (t, Seq(l, r)) = operands(c)
      intoRange(c, t, f(l, r))
    })

  /** Both arguments of one unsigned type, widened to DECIMAL(38,0). */
  private def operands(c: FunctionCall): (Unsigned, Seq[Expression]) = {
    c.expectArity(2)
    val types = c.args.map(a => unsignedArg(c, a))
    if (types.distinct.size != 1) c.wrongArguments("two unsigned integers of one width")
    (types.head, c.args.map(Cast(_, Wide)))
  }

  private def unsignedArg(c: FunctionCall, e: Expression): Unsigned =
    UnsignedTypes.holding(e.dataType).getOrElse(c.wrongArguments("unsigned integers (u8, u16, u32, u64)"))

  /** An exact result brought into [0, 2^bits - 1] by the overflow option. */
  private def intoRange(c: FunctionCall, t: Unsigned, exact: Expression): Expression = {
    val max = Literal(Decimal(BigDecimal(t.max), 38, 0), Wide)
    val zero = Literal(Decimal(0), Wide)
    val outside = Or(LessThan(exact, zero), GreaterThan(exact, max))
    val inRange = overflowMode(c) match {
      case "error" => If(outside, FunctionErrors.overflow(c, s"the result is outside ${t.name}", Wide), exact)
      // least/greatest skip NULLs: a NULL result must stay NULL.
      case "saturate" => If(IsNull(exact), Literal(null, Wide), Least(Seq(Greatest(Seq(exact, zero)), max)))
      case _ => Pmod(exact, Literal(Decimal(BigDecimal(t.max + 1), 38, 0), Wide))
    }
    Cast(inRange, t.sparkType)
  }
}
