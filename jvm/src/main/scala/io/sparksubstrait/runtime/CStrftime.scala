package io.sparksubstrait.runtime

import java.time.{Instant, LocalDateTime, ZoneId, ZoneOffset}
import java.time.temporal.IsoFields

import org.apache.spark.unsafe.types.UTF8String

/**
 * C's strftime(3), which the YAML's strftime names as its reference, written as glibc writes it
 * in the C locale: years unpadded (%Y of 999 is "999"), %e and %k padded with a space, English
 * names, weeks as %U / %W / %V count them. Spark's date_format pads every field to its pattern
 * width and knows no %e, %k, %l, %P, %C, %g, %G, %u, %w, %U, %W or %V, hence this writer. %f
 * (no C conversion) writes the six digits of the microseconds. The directives it writes are
 * [[Directives]]; the conversion refuses any other at conversion time.
 */
final class CStrftime private ()

object CStrftime {

  /** The directives [[format]] writes (%Z and %s are not among them: see docs/functions.md). */
  val Directives: String = "aAbBcCdDeFgGhHIjklmMnpPrRStTuUVwWxXyYzf%"

  private val Months = Seq("January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December")
  private val Weekdays = Seq("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

  /** A wall clock without zone (a date, precision_timestamp or precision_time): %z is +0000. */
  def formatWall(micros: Long, format: UTF8String): UTF8String =
    UTF8String.fromString(write(wall(micros, ZoneOffset.UTC), 0, format.toString))

  /** An instant (precision_timestamp_tz) on the wall clock of `zone`. */
  def formatZoned(micros: Long, format: UTF8String, zone: UTF8String): UTF8String = {
    val id = ZoneId.of(zone.toString)
    val instant = Instant.ofEpochSecond(Math.floorDiv(micros, 1000000L), Math.floorMod(micros, 1000000L) * 1000)
    val offset = id.getRules.getOffset(instant).getTotalSeconds
    UTF8String.fromString(write(wall(micros, ZoneOffset.ofTotalSeconds(offset)), offset, format.toString))
  }

  private def wall(micros: Long, offset: ZoneOffset): LocalDateTime =
    LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1000000L), (Math.floorMod(micros, 1000000L) * 1000).toInt, offset)

  private def write(t: LocalDateTime, offsetSeconds: Int, format: String): String = {
    val out = new StringBuilder
    def two(v: Int) = { if (v < 10) out.append('0'); out.append(v) }
    def spaced(v: Int) = { if (v < 10) out.append(' '); out.append(v) }
    def hour12 = if (t.getHour % 12 == 0) 12 else t.getHour % 12
    // Monday 0 .. Sunday 6, and the day of the year from 0, as struct tm's fields give them.
    val mondayIndex = t.getDayOfWeek.getValue - 1
    val sundayIndex = t.getDayOfWeek.getValue % 7
    val yearDay = t.getDayOfYear - 1
    var k = 0
    while (k < format.length) {
      val c = format.charAt(k)
      if (c != '%' || k + 1 >= format.length) { out.append(c); k += 1 }
      else {
        format.charAt(k + 1) match {
          case 'a' => out.append(Weekdays(mondayIndex).take(3))
          case 'A' => out.append(Weekdays(mondayIndex))
          case 'b' | 'h' => out.append(Months(t.getMonthValue - 1).take(3))
          case 'B' => out.append(Months(t.getMonthValue - 1))
          case 'c' => out.append(write(t, offsetSeconds, "%a %b %e %H:%M:%S %Y"))
          case 'C' => out.append(Math.floorDiv(t.getYear, 100))
          case 'd' => two(t.getDayOfMonth)
          case 'D' | 'x' => out.append(write(t, offsetSeconds, "%m/%d/%y"))
          case 'e' => spaced(t.getDayOfMonth)
          case 'F' => out.append(write(t, offsetSeconds, "%Y-%m-%d"))
          case 'g' => two(Math.floorMod(t.get(IsoFields.WEEK_BASED_YEAR), 100))
          case 'G' => out.append(t.get(IsoFields.WEEK_BASED_YEAR))
          case 'H' => two(t.getHour)
          case 'I' => two(hour12)
          case 'j' => out.append(f"${t.getDayOfYear}%03d")
          case 'k' => spaced(t.getHour)
          case 'l' => spaced(hour12)
          case 'm' => two(t.getMonthValue)
          case 'M' => two(t.getMinute)
          case 'n' => out.append('\n')
          case 'p' => out.append(if (t.getHour < 12) "AM" else "PM")
          case 'P' => out.append(if (t.getHour < 12) "am" else "pm")
          case 'r' => out.append(write(t, offsetSeconds, "%I:%M:%S %p"))
          case 'R' => out.append(write(t, offsetSeconds, "%H:%M"))
          case 'S' => two(t.getSecond)
          case 't' => out.append('\t')
          case 'T' | 'X' => out.append(write(t, offsetSeconds, "%H:%M:%S"))
          case 'u' => out.append(mondayIndex + 1)
          case 'U' => two((yearDay + 7 - sundayIndex) / 7)
          case 'V' => two(t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR))
          case 'w' => out.append(sundayIndex)
          case 'W' => two((yearDay + 7 - mondayIndex) / 7)
          case 'y' => two(Math.floorMod(t.getYear, 100))
          case 'Y' => out.append(t.getYear)
          case 'z' =>
            // Whole minutes, toward zero, as glibc divides tm_gmtoff.
            val minutes = Math.abs(offsetSeconds) / 60
            out.append(if (offsetSeconds < 0) '-' else '+')
            two(minutes / 60); two(minutes % 60)
          case 'f' => out.append(f"${t.getNano / 1000}%06d")
          case '%' => out.append('%')
          case other => throw new IllegalArgumentException(s"%$other is checked at conversion")
        }
        k += 2
      }
    }
    out.toString
  }

  /** The first directive of `format` [[format]] does not write, if any. */
  def unsupportedDirective(format: String): Option[String] = {
    var k = 0
    while (k < format.length) {
      if (format.charAt(k) == '%') {
        if (k + 1 >= format.length) return Some("a trailing %")
        if (!Directives.contains(format.charAt(k + 1))) return Some(s"%${format.charAt(k + 1)}")
        k += 2
      } else k += 1
    }
    None
  }
}
