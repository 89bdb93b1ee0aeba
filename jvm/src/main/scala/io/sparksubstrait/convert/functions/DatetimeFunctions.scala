package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.convert.functions.FunctionCatalog.ScalarEntry

/**
 * functions_datetime beyond comparison and interval arithmetic: extract, add_intervals,
 * extract_boolean and the time zone conversions (formatting: [[DatetimeFormatting]]).
 * precision_timestamp is Spark's TIMESTAMP_NTZ (a wall-clock time, read as UTC),
 * precision_timestamp_tz its TIMESTAMP (an instant, read in the zone argument, else UTC).
 */
private[functions] object DatetimeFunctions {
  private val Datetime = Set("functions_datetime")
  private val Utc = Some("UTC")

  val entries: Seq[ScalarEntry] = Seq(
    ScalarEntry("extract", Datetime, extract),
    // DataFusion's date_part('year', x): extract with the component as a string literal.
    // No standard YAML defines it: found by name only, in plans that name no standard extension.
    ScalarEntry("date_part", Set.empty,
      c => {
        c.expectArity(2)
        val component = c.arg(0) match {
          case Literal(p, _: StringType) if p != null =>
            datePartComponents.getOrElse(p.toString.toLowerCase,
              throw io.sparksubstrait.errors.SubstraitErrors.unsupported(c.at, s"date_part '$p'",
                datePartComponents.keys.toSeq.sorted.mkString("date_part of ", ", ", "")))
          case _ => c.wrongArguments("a literal date part name and a date or timestamp")
        }
        extract(new FunctionCall("extract", Seq(c.arg(1)), Map.empty, c.at, c.ctx, c.declaredType, component))
      }),
    ScalarEntry("add_intervals", Datetime,
      c => {
        c.expectArity(2)
        (c.arg(0).dataType, c.arg(1).dataType) match {
          case (_: DayTimeIntervalType, _: DayTimeIntervalType) | (_: YearMonthIntervalType,
                _: YearMonthIntervalType) =>
            SparkShim.add(c.arg(0), c.arg(1), c.overflowMode, c.ctx.conf)
          case _ => c.wrongArguments("two intervals of one kind")
        }
      }),
    // A wall clock read in a zone gives an instant; an instant seen in a zone gives its wall clock.
    ScalarEntry("assume_timezone", Datetime,
      c => {
        if (c.args.size != 2 && c.args.size != 3)
          c.wrongArguments("a precision_timestamp or a date (and a precision), and a time zone")
        val local = c.arg(0).dataType match {
          case TimestampNTZType if c.args.size == 2 => c.arg(0)
          case DateType if c.args.size == 3 => Cast(c.arg(0), TimestampNTZType)
          case _ => c.wrongArguments("a precision_timestamp and a time zone, or a date, a time zone and a precision")
        }
        TimeZoneArgument(c, 1).instantOf(local)
      }),
    ScalarEntry("local_timestamp", Datetime,
      c => {
        c.expectArity(2)
        if (c.arg(0).dataType != TimestampType) c.wrongArguments("a precision_timestamp_tz and a time zone")
        TimeZoneArgument(c, 1).wallClock(c.arg(0))
      }),
    ScalarEntry("extract_boolean", Datetime,
      c => {
        val component =
          c.enumArg(0, "extract_boolean component", Map("IS_LEAP_YEAR" -> "IS_LEAP_YEAR", "IS_DST" -> "IS_DST"))
        if (c.args.isEmpty || c.args.size > 2) c.wrongArguments("a date or timestamp (and a time zone)")
        val zoned = c.args.size == 2
        (component, c.arg(0).dataType) match {
          case ("IS_DST", TimestampType) if zoned =>
            StaticInvoke(classOf[io.sparksubstrait.runtime.TimeZones], BooleanType, "isDaylightSavings",
              Seq(UnixMicros(c.arg(0)), TimeZoneArgument(c, 1).name, Literal(c.at.toString)))
          case ("IS_LEAP_YEAR", TimestampType) if zoned =>
            leapYear(Year(Cast(TimeZoneArgument(c, 1).wallClock(c.arg(0)), DateType)))
          case ("IS_LEAP_YEAR", DateType | TimestampNTZType) if !zoned => leapYear(Year(Cast(c.arg(0), DateType, Utc)))
          case _ => c.wrongArguments(
              "IS_LEAP_YEAR of a date or precision_timestamp, or IS_LEAP_YEAR / IS_DST of a precision_timestamp_tz and a time zone")
        }
      })
  )

  private def leapYear(year: Expression): Expression = {
    def divisible(n: Int) = EqualTo(Pmod(year, Literal(n)), Literal(0))
    Or(And(divisible(4), Not(divisible(100))), divisible(400))
  }

  // date_part names whose meaning is extract's exactly (DataFusion's dow counts from Sunday = 0).
  private val datePartComponents: Map[String, Seq[String]] = Map(
    "year" -> Seq("YEAR"), "quarter" -> Seq("QUARTER"), "month" -> Seq("MONTH"), "day" -> Seq("DAY"),
    "hour" -> Seq("HOUR"), "minute" -> Seq("MINUTE"), "week" -> Seq("ISO_WEEK"), "doy" -> Seq("DAY_OF_YEAR"),
    "dow" -> Seq("SUNDAY_DAY_OF_WEEK", "ZERO"))

  private val dateParts = Set("YEAR", "ISO_YEAR", "US_YEAR", "QUARTER", "MONTH", "DAY", "DAY_OF_YEAR",
    "MONDAY_DAY_OF_WEEK", "SUNDAY_DAY_OF_WEEK", "MONDAY_WEEK", "SUNDAY_WEEK", "ISO_WEEK", "US_WEEK", "UNIX_TIME")
  private val timeParts = Set("HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND", "PICOSECOND",
    "SUBSECOND", "TIMEZONE_OFFSET")

  /**
   * extract(component[, indexing], value[, zone]). The indexing enum (ONE, the default, or
   * ZERO) shifts the 1-based components down by one.
   */
  private def extract(c: FunctionCall): Expression = {
    val supported = (dateParts ++ timeParts).map(p => p -> p).toMap
    val part = c.enumArg(0, "extract component", supported)
    val oneBased = if (c.enumCount > 1) c.enumArg(1, "indexing", Map("ONE" -> true, "ZERO" -> false)) else true
    if (c.args.isEmpty || c.args.size > 2) c.wrongArguments("a date, time or timestamp (and a time zone)")
    val value = c.arg(0)
    if (SparkShim.timePrecision(value.dataType).isDefined) return timeOfDay(c, part, value)
    val zone = if (c.args.size == 2) Some(TimeZoneArgument(c, 1)) else None
    // The local date and the microseconds since the epoch of the local wall clock.
    val (date, micros) = value.dataType match {
      // Spark casts no date to a number: its days since the epoch are unix_date.
      case DateType => (value, Multiply(Cast(UnixDate(value), LongType), Literal(86400000000L)))
      case TimestampNTZType => (Cast(value, DateType), UnixMicros(Cast(value, TimestampType, Utc)))
      case TimestampType =>
        val local = zone.fold[Expression](Cast(value, TimestampNTZType, Utc))(_.wallClock(value))
        (Cast(local, DateType), UnixMicros(Cast(local, TimestampType, Utc)))
      case _ => c.wrongArguments("a date or timestamp")
    }
    if (value.dataType == DateType && timeParts(part)) c.wrongArguments(s"a timestamp for $part")
    def index(e: Expression) = if (oneBased) Cast(e, LongType) else Subtract(Cast(e, LongType), Literal(1L))
    val microsOfDay = Pmod(micros, Literal(86400000000L))
    part match {
      case "YEAR" => Cast(Year(date), LongType)
      case "ISO_YEAR" => Cast(YearOfWeek(date), LongType)
      case "QUARTER" => index(Quarter(date))
      case "MONTH" => index(Month(date))
      case "DAY" => index(DayOfMonth(date))
      case "DAY_OF_YEAR" => index(DayOfYear(date))
      case "SUNDAY_DAY_OF_WEEK" => index(DayOfWeek(date))
      case "MONDAY_DAY_OF_WEEK" => index(Add(WeekDay(date), Literal(1)))
      case "ISO_WEEK" => index(WeekOfYear(date))
      case "US_YEAR" => Cast(Year(usWednesday(date)), LongType)
      // Week 1 holds the first Wednesday of January (4 or more of its Sunday-to-Saturday days).
      case "US_WEEK" => index(Add(divide7(Subtract(DayOfYear(usWednesday(date)), Literal(1))), Literal(1L)))
      case "MONDAY_WEEK" => index(weekFromFirst(date, 0))
      case "SUNDAY_WEEK" => index(weekFromFirst(date, 6))
      case "UNIX_TIME" => value.dataType match {
          // NULL of a NULL zone (and a zone column checked) though the zone does not move the instant.
          case TimestampType => If(IsNull(micros), Literal(null, LongType), UnixSeconds(value))
          // Whole seconds, rounded down (before 1970 too).
          case _ => IntegralDivide(Subtract(micros, Pmod(micros, Literal(1000000L))), Literal(1000000L))
        }
      // Spark keeps microseconds: no nanoseconds (or picoseconds) past the last one; NULL of a
      // NULL value or zone, and a zone column is still checked.
      case "NANOSECOND" | "PICOSECOND" => If(IsNull(micros), Literal(null, LongType), Literal(0L))
      // The local wall clock less the instant: the zone's offset then, in whole seconds (Java's
      // zone rules hold offsets in seconds); 0 for a wall clock without zone.
      case "TIMEZONE_OFFSET" => value.dataType match {
          case TimestampType => IntegralDivide(Subtract(micros, UnixMicros(value)), Literal(1000000L))
          case _ => If(IsNull(micros), Literal(null, LongType), Literal(0L))
        }
      case clock => clockPart(clock, microsOfDay, micros)
    }
  }

  private def divide7(e: Expression): Expression = IntegralDivide(Cast(e, LongType), Literal(7L))

  /** The Wednesday of the date's Sunday-to-Saturday week (DayOfWeek: Sunday 1 .. Saturday 7). */
  private def usWednesday(date: Expression): Expression =
    DateAdd(date, Subtract(Literal(4), DayOfWeek(date)))

  /**
   * MONDAY_WEEK (weekday 0) / SUNDAY_WEEK (6): week 1 starts on the first such day of January.
   * The YAML's ranges (1-53, or 0-52 with ZERO) leave no week 0, so the days before that first
   * day belong to the last week of the year before (counted from its first such day);
   * dev/function_semantics documents C's %W / %U (week 0) as the other reading.
   */
  private def weekFromFirst(date: Expression, weekday: Int): Expression = {
    // WeekDay: Monday 0 .. Sunday 6.
    def first(year: Expression): Expression = {
      val jan1 = MakeDate(year, Literal(1), Literal(1))
      DateAdd(jan1, Pmod(Subtract(Literal(weekday), WeekDay(jan1)), Literal(7)))
    }
    val year = Year(date)
    val start = If(LessThan(date, first(year)), first(Subtract(year, Literal(1))), first(year))
    Add(divide7(DateDiff(date, start)), Literal(1L))
  }

  /** A part of the wall clock, from the microseconds of the day (and since the epoch). */
  private def clockPart(part: String, microsOfDay: Expression, micros: Expression): Expression = part match {
    case "HOUR" => IntegralDivide(microsOfDay, Literal(3600000000L))
    case "MINUTE" => Pmod(IntegralDivide(microsOfDay, Literal(60000000L)), Literal(60L))
    case "SECOND" => Pmod(IntegralDivide(microsOfDay, Literal(1000000L)), Literal(60L))
    // Since the last full second / millisecond / microsecond, as the YAML defines them.
    case "MILLISECOND" => IntegralDivide(Pmod(micros, Literal(1000000L)), Literal(1000L))
    case "MICROSECOND" => Pmod(micros, Literal(1000L))
    case "SUBSECOND" => Pmod(micros, Literal(1000000L))
  }

  /** extract from a precision_time (Spark's TIME): the clock parts its YAML impl lists, no zone. */
  private def timeOfDay(c: FunctionCall, part: String, value: Expression): Expression = {
    val clock = Set("HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "SUBSECOND")
    if (c.args.size != 1 || c.enumCount > 1 || !clock(part)) {
      c.wrongArguments(
        "HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND or SUBSECOND of a precision_time, without a time zone")
    }
    val micros = IntegralDivide(SparkShim.timeNanos(value), Literal(1000L))
    clockPart(part, micros, micros)
  }
}
