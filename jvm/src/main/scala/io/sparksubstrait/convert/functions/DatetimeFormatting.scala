package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.FunctionCatalog.ScalarEntry

/**
 * strftime and strptime_date / strptime_timestamp: C's strftime(3) and strptime(3), the YAML's
 * references, as glibc reads them ([[io.sparksubstrait.runtime.CStrftime]],
 * [[io.sparksubstrait.runtime.CStrptime]]); Spark's datetime patterns have fixed widths. A date,
 * precision_time or precision_timestamp is formatted as its wall clock; a
 * precision_timestamp_tz on the zone argument's. Text that does not match the format
 * is SUBSTRAIT_DOMAIN_ERROR.
 */
private[functions] object DatetimeFormatting {
  private val Datetime = Set("functions_datetime")
  private val Utc = Some("UTC")

  val entries: Seq[ScalarEntry] = Seq(
    ScalarEntry("strftime", Datetime,
      c => {
        if (c.args.size != 2 && c.args.size != 3)
          c.wrongArguments("a date, time or timestamp, a format (and a time zone)")
        val format = literalFormat(c, 1, "strftime", io.sparksubstrait.runtime.CStrftime.unsupportedDirective,
          io.sparksubstrait.runtime.CStrftime.Directives.map(d => s"%$d").mkString(" "))
        val value = c.arg(0)
        def call(method: String, micros: Expression, more: Expression*) =
          StaticInvoke(classOf[io.sparksubstrait.runtime.CStrftime], StringType, method, Seq(micros, format) ++ more)
        value.dataType match {
          case DateType if c.args.size == 2 =>
            call("formatWall", Multiply(Cast(UnixDate(value), LongType), Literal(86400000000L)))
          case TimestampNTZType if c.args.size == 2 => call("formatWall", UnixMicros(Cast(value, TimestampType, Utc)))
          case TimestampType if c.args.size == 3 => call("formatZoned", UnixMicros(value), TimeZoneArgument(c, 2).name)
          case t if c.args.size == 2 && SparkShim.timePrecision(t).isDefined =>
            call("formatWall", IntegralDivide(SparkShim.timeNanos(value), Literal(1000L)))
          case _ => c.wrongArguments(
              "a date, precision_time or precision_timestamp and a format, or a precision_timestamp_tz, a format and a time zone")
        }
      }),
    ScalarEntry("strptime_date", Datetime,
      c => {
        c.expectArity(2)
        strptime(c, DateType, "date")
      }),
    // strptime_timestamp(text, format[, zone], precision): an offset in the text wins over the zone.
    ScalarEntry("strptime_timestamp", Datetime,
      c => {
        if (c.args.size != 3 && c.args.size != 4) c.wrongArguments("text, a format, (a time zone,) a precision")
        val zone = if (c.args.size == 4) TimeZoneArgument(c, 2).name else Literal("UTC")
        strptime(c, TimestampType, "timestamp", zone, Literal(precisionStep(c, c.args.size - 1)))
      })
  )

  /** C's strptime ([[io.sparksubstrait.runtime.CStrptime]]): Spark's patterns read fixed widths only. */
  private def strptime(c: FunctionCall, to: DataType, method: String, more: Expression*): Expression = {
    if (!c.arg(0).dataType.isInstanceOf[StringType]) c.wrongArguments("the text to parse as a string")
    val format = literalFormat(c, 1, c.name, io.sparksubstrait.runtime.CStrptime.unsupportedDirective,
      "one of %Y %y %m %d %e %j %H %I %M %S %f %p %b %B %h %a %A %n %t %z %F %T %R %D %%")
    StaticInvoke(classOf[io.sparksubstrait.runtime.CStrptime], to, method,
      Seq(c.arg(0), format) ++ more :+ Literal(c.at.toString))
  }

  /** The literal format argument `i`, its directives checked now rather than per row. */
  private def literalFormat(c: FunctionCall, i: Int, what: String, unsupported: String => Option[String],
    expected: String): Expression = c.arg(i) match {
    case l @ Literal(f, _: StringType) =>
      Option(f).flatMap(f => unsupported(f.toString)).foreach { d =>
        throw SubstraitErrors.unsupported(c.at, s"$what format directive $d", expected)
      }
      l
    case _ => c.wrongArguments("a literal format")
  }

  /** The step (in microseconds) of the precision argument `i`: 0 to 6 digits; Spark holds no finer. */
  private def precisionStep(c: FunctionCall, i: Int): Long = c.arg(i) match {
    case Literal(p: Number, _) if p.intValue >= 0 && p.intValue <= 6 => math.pow(10, 6 - p.intValue).toLong
    case other => throw SubstraitErrors.unsupported(c.at, s"${c.name} with precision ${other.sql}",
        "a precision of 0 to 6 (Spark holds microseconds)")
  }
}
