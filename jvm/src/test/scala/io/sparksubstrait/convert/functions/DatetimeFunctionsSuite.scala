package io.sparksubstrait
package convert.functions

import java.time.{Instant, LocalDateTime}

import io.sparksubstrait.proto.Expression

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * strftime, strptime_date, strptime_timestamp, assume_timezone, local_timestamp and
 * extract_boolean against values worked out by hand (calendar and time zone facts noted).
 */
class DatetimeFunctionsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("""CREATE OR REPLACE TEMP VIEW times AS SELECT * FROM VALUES
      (1, DATE'2024-02-29', TIMESTAMP_NTZ'2024-07-01 12:34:56.789', TIMESTAMP'2024-07-01 16:00:00 UTC'),
      (2, DATE'1900-03-01', TIMESTAMP_NTZ'2023-12-31 23:59:59', TIMESTAMP'2024-01-15 12:00:00 UTC'),
      (3, NULL, NULL, NULL)
      AS t(id, d, ts, i)""")
  }

  private val timesSchema =
    schema("id" -> i32(), "d" -> date(), "ts" -> precisionTimestamp(6), "i" -> precisionTimestampTz(6))

  /** One call of a functions_datetime function over `times`, its values ordered by id. */
  private def values(name: String, enums: Seq[String] = Nil)(args: Expression*): Seq[Any] = {
    val b = new PlanBuilder()
    val call = b.callWithEnums(b.fn("functions_datetime", name), enums, args: _*)
    run(b.plan(emit(project(readNamed(timesSchema, "times"), call), 0, 4), "id", "r")).collect().toSeq
      .sortBy(_.getInt(0)).map(_.get(1))
  }

  private def instant(r: Any): Instant = r.asInstanceOf[java.sql.Timestamp].toInstant

  test("strftime of a date, a precision_timestamp (its wall clock) and a precision_timestamp_tz in a zone") {
    // 2024-02-29 is a Thursday, the 60th day; 1900 is no leap year, so 1 March is also the 60th (a Thursday).
    assert(values("strftime:date_str")(field(1), litString("%Y/%m/%d (%j) %a %b")) ==
      Seq("2024/02/29 (060) Thu Feb", "1900/03/01 (060) Thu Mar", null))
    assert(values("strftime:pts_str")(field(2), litString("%H:%M:%S.%f %p %I %%")) ==
      Seq("12:34:56.789000 PM 12 %", "23:59:59.000000 PM 11 %", null))
    // New York is UTC-4 in July (EDT) and UTC-5 in January (EST).
    assert(values("strftime:ptstz_str_str")(field(3), litString("%F %T %z"), litString("America/New_York")) ==
      Seq("2024-07-01 12:00:00 -0400", "2024-01-15 07:00:00 -0500", null))
  }

  test("strptime_date and strptime_timestamp: the zone argument, an offset in the text, precision") {
    assert(values("strptime_date:str_str")(litString("29/02/2024"), litString("%d/%m/%Y")).head ==
      java.sql.Date.valueOf("2024-02-29"))
    val inNewYork =
      values("strptime_timestamp:str_str_str_i8")(litString("2024-07-01 12:00:00"), litString("%Y-%m-%d %H:%M:%S"),
        litString("America/New_York"), litI8(6))
    assert(instant(inNewYork.head) == Instant.parse("2024-07-01T16:00:00Z"))
    val withOffset = values("strptime_timestamp:str_str_str_i8")(litString("2024-07-01 12:00:00 +0200"),
      litString("%Y-%m-%d %H:%M:%S %z"), litString("America/New_York"), litI8(6))
    assert(instant(withOffset.head) == Instant.parse("2024-07-01T10:00:00Z"))
    val toSeconds = values("strptime_timestamp:str_str_i8")(litString("2024-07-01 12:00:00.123456"),
      litString("%Y-%m-%d %H:%M:%S.%f"), litI8(0))
    assert(instant(toSeconds.head) == Instant.parse("2024-07-01T12:00:00Z"))
    val micros = values("strptime_timestamp:str_str_i8")(litString("2024-07-01 12:00:00.123456"),
      litString("%Y-%m-%d %H:%M:%S.%f"), litI8(6))
    assert(instant(micros.head) == Instant.parse("2024-07-01T12:00:00.123456Z"))
    // Text that does not match the format fails the query; it never becomes NULL or another date.
    assertFailsWith("SUBSTRAIT_DOMAIN_ERROR")(values("strptime_date:str_str")(litString("2024-02-30"),
        litString("%Y-%m-%d")))
  }

  test("strptime reads as C's strptime(3): unpadded fields, white space, names in any case, %j, %I with %p") {
    def date(text: String, format: String) = values("strptime_date:str_str")(litString(text), litString(format)).head
    assert(date("2024-2-9", "%Y-%m-%d") == java.sql.Date.valueOf("2024-02-09"))
    assert(date(" 5.3.2024", "%e.%m.%Y") == java.sql.Date.valueOf("2024-03-05")) // white space before a number
    assert(date("060/2024", "%j/%Y") == java.sql.Date.valueOf("2024-02-29")) // day 60 of a leap year
    assert(date("3-mAR-24", "%d-%b-%y") == java.sql.Date.valueOf("2024-03-03")) // %y 00-68 is 20xx
    assert(date("20240229", "%Y%m%d") == java.sql.Date.valueOf("2024-02-29")) // widths bound the digits
    val pm = values("strptime_timestamp:str_str_i8")(litString("2024-02-29 1:02:03 pm"),
      litString("%Y-%m-%d %I:%M:%S %p"), litI8(6))
    assert(instant(pm.head) == Instant.parse("2024-02-29T13:02:03Z"))
    // glibc's %z: hh, hhmm or hh:mm; +14:00 (Kiribati) is read.
    val kiribati = values("strptime_timestamp:str_str_i8")(litString("2024-02-29 14:00 +14:00"),
      litString("%Y-%m-%d %H:%M %z"), litI8(6))
    assert(instant(kiribati.head) == Instant.parse("2024-02-29T00:00:00Z"))
    // Text after the format's end, or a date that does not exist, is a domain error, never a date.
    for ((text, format) <- Seq("2024-02-29x" -> "%Y-%m-%d", "2023-02-29" -> "%Y-%m-%d", "2024-13-01" -> "%Y-%m-%d")) {
      assertFailsWith("SUBSTRAIT_DOMAIN_ERROR")(date(text, format))
    }
  }

  test("strftime writes as C's strftime(3): %e, %C, %u, %w, %U, %W, %V, %G, %k, %l, %P") {
    // 2024-02-29 and 1900-03-01 are Thursdays, day 60 (0-based 59) of their years, in ISO week 9;
    // %U counts from the first Sunday (week 8), %W from the first Monday (week 9).
    assert(values("strftime:date_str")(field(1), litString("%e|%C|%u|%w|%U|%W|%V|%G")) ==
      Seq("29|20|4|4|08|09|09|2024", " 1|19|4|4|08|09|09|1900", null))
    assert(values("strftime:pts_str")(field(2), litString("%k|%l|%P")) == Seq("12|12|pm", "23|11|pm", null))
  }

  test("extract: US, Monday and Sunday weeks, TIMEZONE_OFFSET, PICOSECOND") {
    // 2023-12-31 is a Sunday: its US week (Sunday to Saturday) holds Wednesday 2024-01-03, so US
    // year 2024, week 1. 2024-07-01 (Monday): its week's Wednesday, 07-03, is day 185: week 27.
    assert(values("extract", Seq("US_YEAR"))(field(2)) == Seq(2024L, 2024L, null))
    assert(values("extract", Seq("US_WEEK", "ONE"))(field(2)) == Seq(27L, 1L, null))
    // The first Monday of 2024 is 1 January (07-01: day 182, week 27); of 2023, 2 January
    // (12-31: 363 days later, week 52). The first Sunday of 2024 is 7 January (07-01: 176 days
    // later, week 26); of 2023, 1 January (12-31: week 53).
    assert(values("extract", Seq("MONDAY_WEEK", "ONE"))(field(2)) == Seq(27L, 52L, null))
    assert(values("extract", Seq("SUNDAY_WEEK", "ZERO"))(field(2)) == Seq(25L, 52L, null))
    // New York: UTC-4 in July (EDT), UTC-5 in January (EST).
    assert(values("extract", Seq("TIMEZONE_OFFSET"))(field(3), litString("America/New_York")) ==
      Seq(-14400L, -18000L, null))
    assert(values("extract", Seq("PICOSECOND"))(field(2)) == Seq(0L, 0L, null))
  }

  test("an integer times an interval that overflows is SUBSTRAIT_ARITHMETIC_OVERFLOW, not Java's exception") {
    assertFailsWith("SUBSTRAIT_ARITHMETIC_OVERFLOW")(values("multiply")(litI32(Int.MaxValue),
        litIntervalDay(3650000, 0)))
    assert(values("multiply")(litI32(3), litIntervalDay(1, 30)).head == java.time.Duration.ofSeconds(3 * 86430L))
  }

  test("formats and zones Spark cannot honour exactly are the plan's error") {
    val at = "relations[0].root.input.project.expressions[0].scalar_function"
    // %Z: tzdata's abbreviations, which Java does not hold.
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", at)(values("strftime:date_str")(field(1), litString("%Z %B")))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", at)(values("strptime_date:str_str")(litString("24-01-01"),
        litString("%U-%m-%d")))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", at)(values("local_timestamp:ptstz_str")(field(3),
        litString("Mars/Olympus_Mons")))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", at)(
      values("strptime_timestamp:str_str_i8")(litString("2024-07-01 12:00:00"), litString("%F %T"), litI8(9)))
  }

  test("assume_timezone and local_timestamp: a wall clock in a zone is an instant, and back") {
    val assumed = values("assume_timezone:pts_str")(field(2), litString("America/New_York"))
    assert(instant(assumed.head) == Instant.parse("2024-07-01T16:34:56.789Z"))
    assert(instant(assumed(1)) == Instant.parse("2024-01-01T04:59:59Z") && assumed(2) == null)
    // Tokyo is UTC+9 without daylight saving time.
    val midnight = values("assume_timezone:date_str_i8")(field(1), litString("Asia/Tokyo"), litI8(6))
    assert(instant(midnight.head) == Instant.parse("2024-02-28T15:00:00Z"))
    // Kolkata is UTC+5:30.
    assert(values("local_timestamp:ptstz_str")(field(3), litString("Asia/Kolkata")) ==
      Seq(LocalDateTime.parse("2024-07-01T21:30:00"), LocalDateTime.parse("2024-01-15T17:30:00"), null))
  }

  test("extract_boolean: IS_LEAP_YEAR of dates and timestamps, IS_DST in a zone") {
    assert(values("extract_boolean:req_date", Seq("IS_LEAP_YEAR"))(field(1)) == Seq(true, false, null))
    assert(values("extract_boolean:req_pts", Seq("IS_LEAP_YEAR"))(field(2)) == Seq(true, false, null))
    assert(values("extract_boolean:req_ptstz_str", Seq("IS_DST"))(field(3), litString("America/New_York")) ==
      Seq(true, false, null))
    assert(values("extract_boolean:req_ptstz_str", Seq("IS_DST"))(field(3), litString("Asia/Tokyo")) ==
      Seq(false, false, null))
    // 2023-12-31 23:00 UTC is already 2024 in Auckland (UTC+13 in summer).
    spark.sql("CREATE OR REPLACE TEMP VIEW eve AS SELECT 1 AS id, TIMESTAMP'2023-12-31 23:00:00 UTC' AS i")
    val b = new PlanBuilder()
    val call = b.callWithEnums(b.fn("functions_datetime", "extract_boolean:req_ptstz_str"), Seq("IS_LEAP_YEAR"),
      field(1), litString("Pacific/Auckland"))
    assert(run(b.plan(emit(project(readNamed(schema("id" -> i32(), "i" -> precisionTimestampTz(6)), "eve"), call), 2),
        "r")).collect().head.get(0) == true)
  }

  /** One call over `zoned` (an instant and a time zone name from the data), ordered by id. */
  private def zonedValues(name: String, enums: Seq[String] = Nil)(args: Expression*): Seq[Any] = {
    val b = new PlanBuilder()
    val call = b.callWithEnums(b.fn("functions_datetime", name), enums, args: _*)
    run(b.plan(emit(project(readNamed(schema("id" -> i32(), "i" -> precisionTimestampTz(6), "z" -> string()), "zoned"),
            call),
          0, 3), "id", "r")).collect().toSeq.sortBy(_.getInt(0)).map(_.get(1))
  }

  /** A zone's refusal is ours alone: Spark's INVALID_TIMEZONE appears nowhere in the chain. */
  private def failsWith(condition: String)(body: => Any): Unit = {
    val e = intercept[Exception](body)
    assert(causes(e).collectFirst { case s: io.sparksubstrait.errors.SubstraitException => s.getCondition }.contains(
        condition), e)
    assert(!causes(e).exists(c => Option(c.getMessage).exists(_.contains("INVALID_TIMEZONE"))), e)
  }

  test("a time zone from the data: converted row by row, NULL gives NULL, an invalid name is our domain error") {
    // 16:00 UTC on 1 July is 12:00 in New York (EDT, UTC-4); 12:00 UTC on 15 January is 17:30 in
    // Kolkata (UTC+5:30, no daylight saving time).
    spark.sql("""CREATE OR REPLACE TEMP VIEW zoned AS SELECT * FROM VALUES
      (1, TIMESTAMP'2024-07-01 16:00:00 UTC', 'America/New_York'),
      (2, TIMESTAMP'2024-01-15 12:00:00 UTC', 'Asia/Kolkata'),
      (3, TIMESTAMP'2024-07-01 16:00:00 UTC', CAST(NULL AS STRING)),
      (4, CAST(NULL AS TIMESTAMP), 'Europe/Paris')
      AS t(id, i, z)""")
    assert(zonedValues("extract", Seq("HOUR"))(field(1), field(2)) == Seq(12L, 17L, null, null))
    assert(zonedValues("extract", Seq("TIMEZONE_OFFSET"))(field(1), field(2)) == Seq(-14400L, 19800L, null, null))
    assert(zonedValues("extract", Seq("NANOSECOND"))(field(1), field(2)) == Seq(0L, 0L, null, null))
    assert(zonedValues("extract", Seq("UNIX_TIME"))(field(1), field(2)) == Seq(1719849600L, 1705320000L, null, null))
    assert(zonedValues("local_timestamp:ptstz_str")(field(1), field(2)) ==
      Seq(LocalDateTime.parse("2024-07-01T12:00:00"), LocalDateTime.parse("2024-01-15T17:30:00"), null, null))
    // And back: the wall clocks read in the same zones are the instants again.
    val b = new PlanBuilder()
    val local = b.callWith(b.fn("functions_datetime", "local_timestamp:ptstz_str"), Nil, Some(precisionTimestamp(6)),
      field(1), field(2))
    val assumed = b.call(b.fn("functions_datetime", "assume_timezone:pts_str"), local, field(2))
    val zonedSchema = schema("id" -> i32(), "i" -> precisionTimestampTz(6), "z" -> string())
    assert(run(b.plan(emit(project(readNamed(zonedSchema, "zoned"), assumed), 0, 3), "id", "r")).collect().toSeq
      .sortBy(_.getInt(0)).map(_.get(1)).take(2).map(instant) ==
      Seq(Instant.parse("2024-07-01T16:00:00Z"), Instant.parse("2024-01-15T12:00:00Z")))
    assert(zonedValues("strftime:ptstz_str_str")(field(1), litString("%F %T %z"), field(2)) ==
      Seq("2024-07-01 12:00:00 -0400", "2024-01-15 17:30:00 +0530", null, null))
    assert(zonedValues("extract_boolean:req_ptstz_str", Seq("IS_DST"))(field(1), field(2)) ==
      Seq(true, false, null, null))
    assert(zonedValues("extract_boolean:req_ptstz_str", Seq("IS_LEAP_YEAR"))(field(1), field(2)) ==
      Seq(true, true, null, null))
    // One month later on each zone's calendar: 1 August 12:00 EDT, 15 February 17:30 IST.
    assert(zonedValues("add:ptstz_iyear_str")(field(1), litIntervalYear(0, 1), field(2)).take(2).map(instant) ==
      Seq(Instant.parse("2024-08-01T16:00:00Z"), Instant.parse("2024-02-15T12:00:00Z")))
    // A NULL literal zone makes the call NULL, as a NULL argument does.
    assert(zonedValues("extract", Seq("HOUR"))(field(1), litNull(string())) == Seq(null, null, null, null))
    assert(zonedValues("local_timestamp:ptstz_str")(field(1), litNull(string())) == Seq(null, null, null, null))

    spark.sql(
      "CREATE OR REPLACE TEMP VIEW zoned AS SELECT 1 AS id, TIMESTAMP'2024-07-01 16:00:00 UTC' AS i, 'Mars/Olympus_Mons' AS z")
    for (part <- Seq("YEAR", "HOUR", "NANOSECOND", "UNIX_TIME")) {
      failsWith("SUBSTRAIT_DOMAIN_ERROR")(zonedValues("extract", Seq(part))(field(1), field(2)))
    }
    failsWith("SUBSTRAIT_DOMAIN_ERROR")(zonedValues("extract_boolean:req_ptstz_str", Seq("IS_DST"))(field(1), field(2)))
    failsWith("SUBSTRAIT_DOMAIN_ERROR")(zonedValues("strftime:ptstz_str_str")(field(1), litString("%F"), field(2)))
    failsWith("SUBSTRAIT_DOMAIN_ERROR")(zonedValues("local_timestamp:ptstz_str")(field(1), field(2)))
    // A literal zone is checked when the plan is converted, whatever the part.
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].scalar_function")(
      zonedValues("extract", Seq("NANOSECOND"))(field(1), litString("Mars/Olympus_Mons")))
  }

  test("strptime reads a leap second (%S of 60) as C does: carried into the next minute of a timestamp") {
    val leap = values("strptime_timestamp:str_str_i8")(litString("2024-03-05 23:59:60.5"),
      litString("%Y-%m-%d %H:%M:%S.%f"), litI8(6))
    assert(instant(leap.head) == Instant.parse("2024-03-06T00:00:00.500Z"))
    assert(values("strptime_date:str_str")(litString("2024-03-05 23:59:60"), litString("%Y-%m-%d %H:%M:%S")).head ==
      java.sql.Date.valueOf("2024-03-05"))
  }

  test(
    "execution context variables: current_date, current_timestamp and current_timezone once per plan, as Spark SQL's") {
    import io.sparksubstrait.proto.{ExecutionBehavior, Type}
    import io.sparksubstrait.proto.Expression.ExecutionContextVariable
    val required = Type.Nullability.NULLABILITY_REQUIRED
    def variable(f: ExecutionContextVariable.Builder => ExecutionContextVariable.Builder): Expression =
      Expression.newBuilder().setExecutionContextVariable(f(ExecutionContextVariable.newBuilder())).build()
    val now =
      variable(_.setCurrentTimestamp(Type.PrecisionTimestampTZ.newBuilder().setPrecision(6).setNullability(required)))
    val exprs = Seq(variable(_.setCurrentDate(Type.Date.newBuilder().setNullability(required))),
      variable(_.setCurrentTimezone(Type.String.newBuilder().setNullability(required))), now, now)
    val b = new PlanBuilder()
    val plan = b.plan(emit(project(readNamed(timesSchema, "times"), exprs: _*), 4, 5, 6, 7), "d", "tz", "t1", "t2")
    def withMode(m: ExecutionBehavior.VariableEvaluationMode) =
      plan.toBuilder.setExecutionBehavior(ExecutionBehavior.newBuilder().setVariableEvalMode(m)).build()
    val before = Instant.now()
    val rows = withConf("spark.sql.session.timeZone", "Asia/Kathmandu") {
      run(withMode(ExecutionBehavior.VariableEvaluationMode.VARIABLE_EVALUATION_MODE_PER_PLAN)).collect().toSeq
    }
    val after = Instant.now()
    val expectedDate =
      withConf("spark.sql.session.timeZone", "Asia/Kathmandu")(spark.sql("SELECT current_date()").head().get(0))
    assert(rows.size == 3)
    rows.foreach { r =>
      assert(r.get(0) == expectedDate && r.getString(1) == "Asia/Kathmandu", r)
      val t = r.getAs[java.sql.Timestamp](2).toInstant
      // Once per plan: every row and both uses see the same instant, taken while the query ran.
      assert(!t.isBefore(before.minusSeconds(1)) && !t.isAfter(after) && r.get(3) == r.get(2), r)
    }
    assert(rows.map(_.get(2)).distinct.size == 1)
    // Once per record Spark cannot do; a plan without a mode leaves it open.
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "execution_behavior.variable_eval_mode") {
      run(withMode(ExecutionBehavior.VariableEvaluationMode.VARIABLE_EVALUATION_MODE_PER_RECORD))
    }
    assertPlanError("SUBSTRAIT_MISSING_FIELD", "execution_behavior")(run(plan))
  }
}
