package io.sparksubstrait.runtime

import java.time.{DateTimeException, Instant, LocalDateTime, ZoneId, ZoneOffset}

import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.errors.SubstraitErrors

/** Holds the static forwarders of [[TimeZones$]] that generated code calls. */
final class TimeZones private ()

/**
 * Time zone rules Spark has no expression for (called through StaticInvoke, as [[ExactMath]]),
 * and the conversions for a time zone that comes from the data: Spark's casts take one zone
 * per expression, so a zone column is resolved here, row by row, with java.time's rules —
 * the rules Spark's casts use — and a name outside the IANA database is our domain error at
 * `location` rather than Spark's INVALID_TIMEZONE.
 */
object TimeZones {

  /** Whether daylight saving time is in effect in `zone` at the instant `micros` after the epoch. */
  def isDaylightSavings(micros: Long, zone: UTF8String, location: UTF8String): Boolean =
    zoneId(zone, location).getRules.isDaylightSavings(instant(micros))

  /** `zone` itself, once it is known to name a time zone. */
  def checked(zone: UTF8String, location: UTF8String): UTF8String = { zoneId(zone, location); zone }

  /** The wall clock of `zone` at the instant `micros`, as microseconds of a zone-less timestamp. */
  def wallClock(micros: Long, zone: UTF8String, location: UTF8String): Long = {
    val offset = zoneId(zone, location).getRules.getOffset(instant(micros)).getTotalSeconds
    Math.addExact(micros, offset * 1000000L)
  }

  /**
   * The instant at which `zone`'s wall clock reads `wall`: a wall clock the zone skips is moved
   * forward by the gap, one it repeats is the earlier instant (java.time's atZone, as Spark's
   * cast of a TIMESTAMP_NTZ to a TIMESTAMP).
   */
  def instantOf(wall: Long, zone: UTF8String, location: UTF8String): Long = {
    val local =
      LocalDateTime.ofEpochSecond(Math.floorDiv(wall, 1000000L), (Math.floorMod(wall, 1000000L) * 1000L).toInt,
        ZoneOffset.UTC)
    val at = local.atZone(zoneId(zone, location)).toInstant
    Math.addExact(Math.multiplyExact(at.getEpochSecond, 1000000L), at.getNano / 1000L)
  }

  private def instant(micros: Long): Instant =
    Instant.ofEpochSecond(Math.floorDiv(micros, 1000000L), Math.floorMod(micros, 1000000L) * 1000L)

  private def zoneId(zone: UTF8String, location: UTF8String): ZoneId =
    try ZoneId.of(zone.toString)
    catch {
      case _: DateTimeException => throw SubstraitErrors.functionError("SUBSTRAIT_DOMAIN_ERROR", location.toString,
          "time zone", s"'$zone' is no time zone of the IANA database (e.g. Europe/Paris) nor an offset (e.g. +05:30)")
    }
}
