package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

/**
 * Date-time plus or minus an interval (functions_datetime `add` / `subtract`), built the
 * way Spark SQL builds `d + INTERVAL …`, so the optimizer sees the same expressions.
 */
private[functions] object DatetimeArithmetic {
  private val MicrosPerDay = 86400L * 1000000L

  /**
   * x plus or minus an interval; precision_timestamp_tz plus a year-month interval takes the
   * time zone whose calendar the months are counted in (the two-argument form, removed in
   * spec 0.108, counts in the session's zone).
   */
  def shift(c: FunctionCall, negate: Boolean): Expression = {
    if (c.args.size != 2 && c.args.size != 3) c.wrongArguments("a date-time, an interval (and a time zone)")
    val Seq(x, interval) = c.args.take(2)
    val signed = if (negate) UnaryMinus(interval, failOnError = true) else interval
    val zoneArgument = if (c.args.size == 3) {
      if (x.dataType != TimestampType || !interval.dataType.isInstanceOf[YearMonthIntervalType]) {
        c.wrongArguments("a precision_timestamp_tz, an interval_year and a time zone")
      }
      Some(TimeZoneArgument(c, 2))
    } else None
    val zone = zoneArgument.fold(Option(c.ctx.conf.sessionLocalTimeZone))(_.fixed)
    (x.dataType, interval.dataType) match {
      // A zone that is NULL or comes from the data: the months are added to its wall clock.
      case (TimestampType, _: YearMonthIntervalType) if zoneArgument.exists(_.fixed.isEmpty) =>
        val z = zoneArgument.get
        z.instantOf(TimestampAddYMInterval(z.wallClock(x), signed, Some("UTC")))
      case (DateType, _: YearMonthIntervalType) => DateAddYMInterval(x, signed)
      case (DateType, _: DayTimeIntervalType) =>
        wholeDays(interval) match {
          // A whole number of days keeps a date, as in Spark SQL (and as producers declare).
          case Some(days) => DateAdd(x, Literal(if (negate) -days else days))
          // Otherwise the spec's result is a timestamp without zone.
          case None => SparkShim.timestampAddInterval(Cast(x, TimestampNTZType), signed, zone)
        }
      case (_: TimestampType | TimestampNTZType, _: YearMonthIntervalType) => TimestampAddYMInterval(x, signed, zone)
      case (_: TimestampType | TimestampNTZType, _: DayTimeIntervalType) =>
        SparkShim.timestampAddInterval(x, signed, zone)
      case _ => c.wrongArguments("a date or timestamp and an interval")
    }
  }

  /**
   * An integer times an interval (functions_datetime's multiply): exact, or our overflow error
   * (Spark's MultiplyDTInterval throws a bare java.lang.ArithmeticException).
   */
  def scale(c: FunctionCall): Expression = {
    val Seq(n, interval) = c.args
    // The interval goes in as its internal value: months (an int) or microseconds (a long).
    val method = interval.dataType match {
      case _: YearMonthIntervalType => "yearMonthTimes"
      case _ => "dayTimeTimes"
    }
    StaticInvoke(classOf[io.sparksubstrait.runtime.ExactMath], interval.dataType, method,
      Seq(interval, Cast(n, LongType), Literal(c.at.toString)))
  }

  private def wholeDays(interval: Expression): Option[Int] =
    if (!interval.foldable) None
    else Option(interval.eval()).map(_.asInstanceOf[Long]).collect {
      case micros if micros % MicrosPerDay == 0 && math.abs(micros / MicrosPerDay) <= Int.MaxValue =>
        (micros / MicrosPerDay).toInt
    }
}
