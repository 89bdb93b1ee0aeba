package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.runtime.TimeZones

/**
 * A function's time zone argument, in the three forms a plan can give it: a literal name,
 * checked against the IANA database at conversion (Spark's casts then convert with it, as in
 * Spark SQL); a NULL literal, which makes the call NULL; or a value from the data, converted
 * row by row by [[TimeZones]], whose invalid names are our domain error (never Spark's
 * INVALID_TIMEZONE, and never a silent answer from a part that does not use the zone).
 */
private[functions] final class TimeZoneArgument private (c: FunctionCall, arg: Expression) {
  private val location = Literal(c.at.toString)

  /** The literal zone's name; None for a NULL literal or a zone from the data. */
  val fixed: Option[String] = arg match {
    case Literal(z, _: StringType) if z != null =>
      try { java.time.ZoneId.of(z.toString); Some(z.toString) }
      catch {
        case _: java.time.DateTimeException => throw SubstraitErrors.invalidPlan(c.at, s"time zone '$z'",
            "a time zone of the IANA database, e.g. Europe/Paris or Etc/GMT+1, or an offset such as +05:30")
      }
    case _ => None
  }

  private def runtime(dataType: DataType, method: String, args: Expression*): Expression =
    StaticInvoke(classOf[TimeZones], dataType, method, args :+ arg :+ location)

  /** The zone's name as a string expression, checked when it comes from the data. */
  def name: Expression = fixed match {
    case Some(z) => Literal(z)
    case None => runtime(StringType, "checked")
  }

  /** The wall clock (TIMESTAMP_NTZ) of the zone at the instant `instant` (a TIMESTAMP). */
  def wallClock(instant: Expression): Expression = fixed match {
    case Some(z) => Cast(instant, TimestampNTZType, Some(z))
    case None => runtime(TimestampNTZType, "wallClock", instant)
  }

  /** The instant (TIMESTAMP) at which the zone's wall clock reads `wall` (a TIMESTAMP_NTZ). */
  def instantOf(wall: Expression): Expression = fixed match {
    case Some(z) => Cast(wall, TimestampType, Some(z))
    case None => runtime(TimestampType, "instantOf", wall)
  }
}

private[functions] object TimeZoneArgument {

  /** Argument `i` of `c`, which must be a string. */
  def apply(c: FunctionCall, i: Int): TimeZoneArgument = c.arg(i).dataType match {
    case _: StringType => new TimeZoneArgument(c, c.arg(i))
    case _ => c.wrongArguments("a time zone name (a string)")
  }
}
