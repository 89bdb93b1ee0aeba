package io.sparksubstrait.runtime

import java.time.{Instant, ZoneId}

import org.apache.spark.unsafe.types.UTF8String

/** Holds the static forwarders of [[TimeZones$]] that generated code calls. */
final class TimeZones private ()

/** Time zone rules Spark has no expression for (called through StaticInvoke, as [[ExactMath]]). */
object TimeZones {
  /** Whether daylight saving time is in effect in `zone` at the instant `micros` after the epoch. */
  def isDaylightSavings(micros: Long, zone: UTF8String): Boolean =
    ZoneId.of(zone.toString).getRules.isDaylightSavings(
      Instant.ofEpochSecond(Math.floorDiv(micros, 1000000L), Math.floorMod(micros, 1000000L) * 1000L))
}
