package io.sparksubstrait.runtime

import java.time.{DateTimeException, LocalDate, LocalDateTime, ZoneId, ZoneOffset}

import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.errors.SubstraitErrors

/**
 * C's strptime(3), which the YAML's strptime_date / strptime_timestamp name as their reference,
 * read as glibc reads it in the C locale: numbers take up to their field's width of digits after
 * any white space (so "2024-2-9" is 2024-02-09: leading zeros are permitted, not required),
 * white space in the format matches any run of white space (none too), month and weekday names
 * in any letter case, full or abbreviated. Spark's datetime patterns are stricter (fixed widths),
 * hence this parser. Text that does not match, or text left over after the format, is
 * SUBSTRAIT_DOMAIN_ERROR at `location`.
 */
// The class gives StaticInvoke the object's static forwarders.
final class CStrptime private ()

object CStrptime {
  private val Months = Seq("january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december")
  private val Weekdays = Seq("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")

  /** The fields one parse sets; unset ones keep C's struct tm defaults (1970-01-01 00:00:00). */
  private final class Fields {
    var year = 1970; var month = -1; var day = -1; var yearDay = -1
    var hour = 0; var minute = 0; var second = 0; var micros = 0
    var twelveHour = false; var pm = false; var weekday = false
    var offsetSeconds: Option[Int] = None
  }

  private final class NoMatch extends Exception(null, null, false, false)
  private val noMatch = new NoMatch

  /** strptime_date: the days since the epoch. */
  def date(text: UTF8String, format: UTF8String, location: UTF8String): Int = {
    val f = fields(text, format, location)
    Math.toIntExact(localDate(f, text, format, location).toEpochDay)
  }

  /**
   * strptime_timestamp: the instant's microseconds, floored to a multiple of `step`. An offset
   * in the text wins over the zone argument; without either, the wall clock is UTC's. A wall
   * clock a zone skips or repeats is read as java.time reads it (the offset before the gap; the
   * earlier of the two).
   */
  def timestamp(text: UTF8String, format: UTF8String, zone: UTF8String, step: Long, location: UTF8String): Long = {
    val f = fields(text, format, location)
    // A leap second (C's %S reads 60 and 61) is carried into the next minute, as mktime(3)
    // normalizes it: no timestamp type holds second 60.
    val wall = LocalDateTime.of(localDate(f, text, format, location),
      java.time.LocalTime.of(f.hour, f.minute, 0, f.micros * 1000)).plusSeconds(f.second)
    val instant = f.offsetSeconds match {
      case Some(offset) => wall.toInstant(ZoneOffset.ofTotalSeconds(offset))
      case None => wall.atZone(ZoneId.of(zone.toString)).toInstant
    }
    val micros = Math.addExact(Math.multiplyExact(instant.getEpochSecond, 1000000L), instant.getNano / 1000)
    micros - Math.floorMod(micros, step)
  }

  private def fail(text: UTF8String, format: UTF8String, location: UTF8String, why: String): Nothing =
    throw SubstraitErrors.functionError("SUBSTRAIT_DOMAIN_ERROR", location.toString, "strptime",
      s"'$text' does not match the format '$format' ($why)")

  private def fields(text: UTF8String, format: UTF8String, location: UTF8String): Fields = {
    val f = new Fields
    val s = text.toString
    val end = try new Parser(s, f).run(format.toString, 0)
    catch {
      case _: NoMatch => fail(text, format, location, "strptime(3) stops before its end")
    }
    if (end != s.length) fail(text, format, location, s"text after the format's end: '${s.substring(end)}'")
    if (f.twelveHour && f.pm) f.hour += 12
    f
  }

  /** The date the fields name; a day of the year fills in the month and day it does not give. */
  private def localDate(f: Fields, text: UTF8String, format: UTF8String, location: UTF8String): LocalDate = {
    if (f.year < 1) fail(text, format, location, s"year ${f.year}, before the types' first")
    try {
      var month = if (f.month < 0) 1 else f.month
      var day = if (f.day < 0) 1 else f.day
      // glibc fills month and day from %j unless both were given (or a weekday was read).
      if (f.yearDay >= 0 && !(f.month >= 0 && f.day >= 0) && !f.weekday) {
        val fromYearDay = LocalDate.ofYearDay(f.year, f.yearDay)
        if (f.month < 0) month = fromYearDay.getMonthValue
        if (f.day < 0) day = fromYearDay.getDayOfMonth
      }
      LocalDate.of(f.year, month, day)
    } catch {
      case e: DateTimeException => fail(text, format, location, e.getMessage)
    }
  }

  private final class Parser(s: String, f: Fields) {
    private def space(c: Char) = c == ' ' || (c >= '\t' && c <= '\r')
    private def skipSpace(i: Int): Int = { var j = i; while (j < s.length && space(s.charAt(j))) j += 1; j }
    private def digit(i: Int) = i < s.length && s.charAt(i) >= '0' && s.charAt(i) <= '9'

    /** glibc's get_number: white space, then digits while the value can still fit `to`. */
    private def number(i0: Int, from: Int, to: Int, width: Int)(set: Int => Unit): Int = {
      var i = skipSpace(i0)
      if (!digit(i)) throw noMatch
      var value = 0
      var n = width
      do { value = value * 10 + (s.charAt(i) - '0'); i += 1; n -= 1 } while (n > 0 && value * 10 <= to && digit(i))
      if (value < from || value > to) throw noMatch
      set(value)
      i
    }

    /** A name, full or its first three letters, in any letter case; its index. */
    private def name(i: Int, names: Seq[String])(set: Int => Unit): Int = {
      def at(word: String) = s.regionMatches(true, i, word, 0, word.length)
      names.indices.collectFirst {
        case k if at(names(k)) => set(k); i + names(k).length
        case k if at(names(k).take(3)) => set(k); i + 3
      }.getOrElse(throw noMatch)
    }

    def run(format: String, start: Int): Int = {
      var i = start
      var k = 0
      while (k < format.length) {
        val c = format.charAt(k)
        if (space(c)) { i = skipSpace(i); k += 1 }
        else if (c != '%') {
          if (i >= s.length || s.charAt(i) != c) throw noMatch
          i += 1; k += 1
        } else {
          if (k + 1 >= format.length) throw noMatch
          i = conversion(format.charAt(k + 1), i)
          k += 2
        }
      }
      i
    }

    private def conversion(d: Char, i: Int): Int = d match {
      case 'Y' => number(i, 0, 9999, 4)(f.year = _)
      case 'y' => number(i, 0, 99, 2)(v => f.year = if (v >= 69) 1900 + v else 2000 + v)
      case 'm' => number(i, 1, 12, 2)(f.month = _)
      case 'd' | 'e' => number(i, 1, 31, 2)(f.day = _)
      case 'j' => number(i, 1, 366, 3)(f.yearDay = _)
      case 'H' => number(i, 0, 23, 2)(v => { f.hour = v; f.twelveHour = false })
      case 'I' => number(i, 1, 12, 2)(v => { f.hour = v % 12; f.twelveHour = true })
      case 'M' => number(i, 0, 59, 2)(f.minute = _)
      case 'S' => number(i, 0, 61, 2)(f.second = _)
      // No strptime(3) conversion: a fraction of up to nine digits, truncated to microseconds.
      case 'f' =>
        var j = i; var micros = 0; var n = 0
        while (digit(j) && n < 9) { if (n < 6) micros = micros * 10 + (s.charAt(j) - '0'); j += 1; n += 1 }
        if (n == 0) throw noMatch
        while (n < 6) { micros *= 10; n += 1 }
        f.micros = micros
        j
      case 'p' =>
        if (s.regionMatches(true, i, "AM", 0, 2)) { f.pm = false; i + 2 }
        else if (s.regionMatches(true, i, "PM", 0, 2)) { f.pm = true; i + 2 }
        else throw noMatch
      case 'b' | 'B' | 'h' => name(i, Months)(m => f.month = m + 1)
      case 'a' | 'A' => name(i, Weekdays)(_ => f.weekday = true)
      case 'n' | 't' => skipSpace(i)
      case 'z' => offset(skipSpace(i))
      case 'F' => run("%Y-%m-%d", i)
      case 'T' => run("%H:%M:%S", i)
      case 'R' => run("%H:%M", i)
      case 'D' => run("%m/%d/%y", i)
      case '%' => if (i < s.length && s.charAt(i) == '%') i + 1 else throw noMatch
      case _ => throw noMatch
    }

    /** %z: Z, or a sign and hh, hhmm or hh:mm (minutes below 60). */
    private def offset(i0: Int): Int = {
      if (i0 < s.length && s.charAt(i0) == 'Z') { f.offsetSeconds = Some(0); return i0 + 1 }
      if (i0 >= s.length || (s.charAt(i0) != '+' && s.charAt(i0) != '-')) throw noMatch
      val negative = s.charAt(i0) == '-'
      var i = i0 + 1
      var value = 0
      var n = 0
      while (n < 4 && digit(i)) {
        value = value * 10 + (s.charAt(i) - '0'); i += 1; n += 1
        if (n == 2 && i + 1 < s.length && s.charAt(i) == ':' && digit(i + 1)) i += 1
      }
      if (n == 2) value *= 100 else if (n != 4) throw noMatch
      if (value % 100 >= 60) throw noMatch
      val seconds = value / 100 * 3600 + value % 100 * 60
      f.offsetSeconds = Some(if (negative) -seconds else seconds)
      i
    }
  }

  /** Checks a format's directives at conversion: the ones this parser reads, or Left(the first other). */
  def unsupportedDirective(format: String): Option[String] = {
    var k = 0
    while (k < format.length) {
      if (format.charAt(k) == '%') {
        if (k + 1 >= format.length) return Some("a trailing %")
        if (!"YymdejHIMSfpbBhaAntzFTRD%".contains(format.charAt(k + 1))) return Some(s"%${format.charAt(k + 1)}")
        k += 2
      } else k += 1
    }
    None
  }
}
