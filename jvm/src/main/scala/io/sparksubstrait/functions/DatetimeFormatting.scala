package io.sparksubstrait.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.functions.FunctionCatalog.ScalarEntry

/**
 * strftime and strptime_date / strptime_timestamp: Spark's date_format and to_date /
 * to_timestamp with the C format translated ([[StrftimePattern]]). A date or
 * precision_timestamp is formatted as its wall clock (in UTC, where every wall-clock time
 * exists); a precision_timestamp_tz in the zone argument. Text that does not match the format
 * is an error, as Spark's ANSI parsing gives.
 */
private[functions] object DatetimeFormatting {
  private val Datetime = Set("functions_datetime")
  private val Utc = Some("UTC")

  val entries: Seq[ScalarEntry] = Seq(
    ScalarEntry("strftime", Datetime, c => {
      if (c.args.size != 2 && c.args.size != 3) c.wrongArguments("a date or timestamp, a format (and a time zone)")
      val pattern = sparkPattern(c, 1, parsing = false)
      c.arg(0).dataType match {
        case DateType if c.args.size == 2 => DateFormatClass(Cast(Cast(c.arg(0), TimestampNTZType), TimestampType, Utc), pattern, Utc)
        case TimestampNTZType if c.args.size == 2 => DateFormatClass(Cast(c.arg(0), TimestampType, Utc), pattern, Utc)
        case TimestampType if c.args.size == 3 => DateFormatClass(c.arg(0), pattern, Some(DatetimeFunctions.zone(c, 2)))
        case _ => c.wrongArguments("a date or precision_timestamp and a format, or a precision_timestamp_tz, a format and a time zone")
      }
    }),
    ScalarEntry("strptime_date", Datetime, c => {
      c.expectArity(2)
      Cast(parse(c, TimestampNTZType, Utc), DateType)
    }),
    // strptime_timestamp(text, format[, zone], precision): an offset in the text wins over the zone.
    ScalarEntry("strptime_timestamp", Datetime, c => {
      if (c.args.size != 3 && c.args.size != 4) c.wrongArguments("text, a format, (a time zone,) a precision")
      val zone = if (c.args.size == 4) DatetimeFunctions.zone(c, 2) else "UTC"
      truncated(c, c.args.size - 1, parse(c, TimestampType, Some(zone)))
    })
  )

  private def parse(c: FunctionCall, to: DataType, zone: Option[String]): Expression = {
    if (!c.arg(0).dataType.isInstanceOf[StringType]) c.wrongArguments("the text to parse as a string")
    GetTimestamp(left = c.arg(0), right = sparkPattern(c, 1, parsing = true), dataType = to, timeZoneId = zone, failOnError = true)
  }

  /** The literal format argument `i` as a Spark pattern literal. */
  private def sparkPattern(c: FunctionCall, i: Int, parsing: Boolean): Expression = c.arg(i) match {
    case Literal(f, _: StringType) if f != null =>
      StrftimePattern.toSpark(f.toString, parsing) match {
        case scala.util.Right(p) => Literal(p)
        case scala.util.Left(directive) => throw SubstraitErrors.unsupported(c.at, s"${c.name} format directive $directive",
          "one of %Y %m %d %H %M %S %f %j %b %h %B %a %A %p %I %z %F %T %R %% (and %y %D when formatting)")
      }
    case _ => c.wrongArguments("a literal format")
  }

  /** The parsed instant at the precision argument `i`: 6 (microseconds), 3 or 0; Spark holds no finer. */
  private def truncated(c: FunctionCall, i: Int, ts: Expression): Expression = c.arg(i) match {
    case Literal(p: Number, _) if p.intValue == 6 => ts
    case Literal(p: Number, _) if p.intValue == 3 => TruncTimestamp(Literal("MILLISECOND"), ts, Utc)
    case Literal(p: Number, _) if p.intValue == 0 => TruncTimestamp(Literal("SECOND"), ts, Utc)
    case other => throw SubstraitErrors.unsupported(c.at, s"${c.name} with precision ${other.sql}",
      "precision 0, 3 or 6 (Spark holds microseconds)")
  }
}
