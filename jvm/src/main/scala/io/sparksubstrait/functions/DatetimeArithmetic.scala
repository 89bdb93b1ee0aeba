package io.sparksubstrait.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

/**
 * Date-time plus or minus an interval (functions_datetime `add` / `subtract`), built the
 * way Spark SQL builds `d + INTERVAL …`, so the optimizer sees the same expressions.
 */
private[functions] object DatetimeArithmetic {
  private val MicrosPerDay = 86400L * 1000000L

  def shift(c: FunctionCall, negate: Boolean): Expression = {
    val Seq(x, interval) = c.args
    val signed = if (negate) UnaryMinus(interval, failOnError = true) else interval
    val zone = Option(c.ctx.conf.sessionLocalTimeZone)
    (x.dataType, interval.dataType) match {
      case (DateType, _: YearMonthIntervalType) => DateAddYMInterval(x, signed)
      case (DateType, _: DayTimeIntervalType) =>
        wholeDays(interval) match {
          // A whole number of days keeps a date, as in Spark SQL (and as producers declare).
          case Some(days) => DateAdd(x, Literal(if (negate) -days else days))
          // Otherwise the spec's result is a timestamp without zone.
          case None => SparkShim.timestampAddInterval(Cast(x, TimestampNTZType), signed, zone)
        }
      case (_: TimestampType | TimestampNTZType, _: YearMonthIntervalType) => TimestampAddYMInterval(x, signed, zone)
      case (_: TimestampType | TimestampNTZType, _: DayTimeIntervalType) => SparkShim.timestampAddInterval(x, signed, zone)
      case _ => c.wrongArguments("a date or timestamp and an interval")
    }
  }

  private def wholeDays(interval: Expression): Option[Int] =
    if (!interval.foldable) None
    else Option(interval.eval()).map(_.asInstanceOf[Long]).collect {
      case micros if micros % MicrosPerDay == 0 && math.abs(micros / MicrosPerDay) <= Int.MaxValue => (micros / MicrosPerDay).toInt
    }
}
