package io.sparksubstrait.decode.readings

import io.sparksubstrait.proto.{Expression, FunctionArgument, Plan}
import io.sparksubstrait.proto.Expression.Literal.IntervalDayToSecond

/**
 * DataFusion 43 on writes every interval literal as interval_compound (Arrow's
 * month-day-nano interval), so `hired + INTERVAL '1' MONTH` is add(date, compound) with a
 * zero day part. A compound literal argument whose day part is zero is that many months
 * (interval_year); one whose month part is zero and whose day part is whole days is that
 * many days (interval_day), counting seconds that make whole days (DataFusion 55 writes
 * `d_date + 5` as 432,000 seconds): the spec's add and subtract take those. A literal with both
 * parts, or with other seconds, means a calendar step Spark's date arithmetic has no single form
 * for, and stays as written (refused). Only function arguments are read: a bare interval
 * column keeps the compound type the plan declares.
 */
private[sparksubstrait] object CompoundIntervalParts extends Reading {
  val name = "datafusion-compound-interval-arithmetic"
  val releases = "DataFusion 43 to 55 (spec 0.58 to 0.85)"
  val meaning =
    "interval literals written as interval_compound with one part zero; read as interval_year (months only) or interval_day (days only)"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("datafusion", "0.58", ProducerStamp.Newest)

  def lift(plan: Plan, found: String => Unit): Plan = MessageRewrite(plan) {
    case a: FunctionArgument
        if a.hasValue && a.getValue.hasLiteral && a.getValue.getLiteral.hasIntervalCompound &&
          oneKind(a.getValue.getLiteral).isDefined =>
      val lit = oneKind(a.getValue.getLiteral).get
      found(s"interval_compound literal as ${lit.getLiteralTypeCase.name.toLowerCase}")
      a.toBuilder.setValue(Expression.newBuilder().setLiteral(lit)).build()
  }

  private val SecondsPerDay = 86400

  private def oneKind(lit: Expression.Literal): Option[Expression.Literal] = {
    val c = lit.getIntervalCompound
    val ym = c.getIntervalYearToMonth
    val ds = c.getIntervalDayToSecond
    val noMonths = ym.getYears == 0 && ym.getMonths == 0
    // Seconds that make whole days are those days: DataFusion writes `date + 5` as 432,000
    // seconds (Arrow adds a month-day-nano's nanoseconds to a date as whole days).
    val wholeDays = ds.getSubseconds == 0 && ds.getSeconds % SecondsPerDay == 0
    val days = ds.getDays.toLong + ds.getSeconds / SecondsPerDay
    val b = lit.toBuilder.clearIntervalCompound()
    if (days == 0 && wholeDays && !noMonths) Some(b.setIntervalYearToMonth(ym).build())
    else if (noMonths && wholeDays && days != 0 && days.isValidInt)
      Some(b.setIntervalDayToSecond(IntervalDayToSecond.newBuilder().setDays(days.toInt)).build())
    else None
  }
}
