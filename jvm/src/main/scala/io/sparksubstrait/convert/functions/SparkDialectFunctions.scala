package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.types._

import io.sparksubstrait.convert.functions.FunctionCatalog.ScalarEntry
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.ExtensionUrns

/**
 * substrait-java's Spark dialect (its `spark.yml`, URN `extension:substrait:spark`, URI
 * `/spark.yml` before 0.66): functions its Spark module writes from Spark's own Catalyst
 * expressions where the standard YAMLs have none. They are Spark's functions, so the Catalyst
 * expression the module wrote them from is their exact reading; each builder takes exactly the
 * argument types the YAML declares (any other is refused, never coerced).
 *
 * What each release's YAML declares (docs/producers.md, "substrait-java's Spark module"):
 * `year(date) -> i32` and `unscaled(DECIMAL<P,S>) -> i64` (0.35 to 0.53), `make_decimal(i64)
 * -> DECIMAL<P,S>` (0.42 to 0.53), `shift_right(i64, i32) -> i64` and `(i32, i32) -> i32`
 * (0.45 to 0.60), `add(date, i32) -> date` (0.54 on). A name is read the same in every
 * release that declares it, so one table serves them all.
 */
private[functions] object SparkDialectFunctions {
  private val Dialect = Set(ExtensionUrns.SparkDialect)

  /** The largest precision whose unscaled values always fit a long (Spark's MAX_LONG_DIGITS). */
  private val LongDigits = 18

  val entries: Seq[ScalarEntry] = Seq(
    // Spark's DateAdd (`date_add(d, n)`, `d + n`: TPC-DS q72's `d_date + 5`).
    ScalarEntry("add", Dialect,
      c => {
        c.expectArity(2)
        if (c.argTypes != Seq(DateType, IntegerType)) c.wrongArguments("(date, i32), as the dialect's add:date_i32")
        DateAdd(c.arg(0), c.arg(1))
      }),
    // Spark's Year, of a date only (the YAML's one signature).
    ScalarEntry("year", Dialect,
      c => {
        c.expectArity(1)
        if (c.argTypes != Seq(DateType)) c.wrongArguments("a date, as the dialect's year:date")
        Year(c.arg(0))
      }),
    // Spark's ShiftRight: Java's arithmetic shift, whose count is taken modulo the width
    // (an i32 shifted by 33 is shifted by 1), as the module's Spark computed it.
    ScalarEntry("shift_right", Dialect,
      c => {
        c.expectArity(2)
        c.argTypes match {
          case Seq(IntegerType | LongType, IntegerType) => ShiftRight(c.arg(0), c.arg(1))
          case _ => c.wrongArguments("(i64, i32) or (i32, i32), as the dialect's shift_right")
        }
      }),
    // Spark's UnscaledValue, which Spark's optimizer (DecimalAggregates) writes only for
    // decimals of at most 18 digits. Beyond that the unscaled value may not fit the i64 the
    // YAML returns, and Spark would truncate it silently: refused.
    ScalarEntry("unscaled", Dialect,
      c => {
        c.expectArity(1)
        c.arg(0).dataType match {
          case d: DecimalType if d.precision <= LongDigits => UnscaledValue(c.arg(0))
          case d: DecimalType =>
            throw SubstraitErrors.unsupported(c.at, s"unscaled of DECIMAL(${d.precision},${d.scale})",
              s"a decimal of at most $LongDigits digits, whose unscaled value fits an i64")
          case _ => c.wrongArguments("a decimal, as the dialect's unscaled:dec")
        }
      }),
    // Spark's MakeDecimal: an unscaled i64 as DECIMAL<P,S>, whose P and S only the call's
    // declared output type gives. Spark's optimizer writes it over a sum of unscaled values;
    // an unscaled value beyond P digits is NULL in Spark's legacy mode and an error in ANSI
    // mode, and the plan does not say which mode wrote it: always the error here, which is
    // never a wrong answer.
    ScalarEntry("make_decimal", Dialect,
      c => {
        c.expectArity(1)
        if (c.argTypes != Seq(LongType)) c.wrongArguments("an i64, as the dialect's make_decimal:i64")
        c.declaredType match {
          case Some(d: DecimalType) => MakeDecimal(c.arg(0), d.precision, d.scale, nullOnOverflow = false)
          case other =>
            throw SubstraitErrors.invalidPlan(c.at / "output_type",
              other.fold("no output type")(t => s"output type ${t.simpleString}"),
              "the decimal type make_decimal returns (its DECIMAL<P,S>)")
        }
      })
  )
}
