package io.sparksubstrait
package convert.expr

import io.sparksubstrait.proto.{Expression, Type}
import io.sparksubstrait.proto.Expression.Literal
import org.apache.spark.sql.Row
import org.apache.spark.unsafe.types.CalendarInterval

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * precision_time / time (Spark 4.1's TIME; an error on older Sparks) and interval_compound
 * (Spark's CalendarInterval), literals and typed columns, against the same values in Spark SQL.
 */
class TimeAndIntervalsSuite extends SparkSuite with SubstraitAssertions {
  private val N = Type.Nullability.NULLABILITY_NULLABLE
  private def precisionTime(p: Int): Type =
    Type.newBuilder().setPrecisionTime(Type.PrecisionTime.newBuilder().setPrecision(p).setNullability(N)).build()
  private def oldTime: Type = Type.newBuilder().setTime(Type.Time.newBuilder().setNullability(N)).build()
  private def compound(p: Int): Type =
    Type.newBuilder().setIntervalCompound(Type.IntervalCompound.newBuilder().setPrecision(p).setNullability(N)).build()
  private def lit(f: Literal.Builder => Literal.Builder): Expression =
    Expression.newBuilder().setLiteral(f(Literal.newBuilder())).build()
  private def litTime(value: Long, p: Int): Expression =
    lit(_.setPrecisionTime(Literal.PrecisionTime.newBuilder().setPrecision(p).setValue(value)))
  private def litOldTime(micros: Long): Expression = lit(_.setTime(micros))
  private def litCompound(years: Int, months: Int, days: Int, seconds: Int, subseconds: Long, p: Int): Expression =
    lit(_.setIntervalCompound(Literal.IntervalCompound.newBuilder()
          .setIntervalYearToMonth(Literal.IntervalYearToMonth.newBuilder().setYears(years).setMonths(months))
          .setIntervalDayToSecond(Literal.IntervalDayToSecond.newBuilder().setDays(days).setSeconds(seconds)
              .setSubseconds(subseconds).setPrecision(p))))

  private def one(exprs: Expression*): io.sparksubstrait.proto.Plan = oneWith(new PlanBuilder())(exprs: _*)
  private def oneWith(b: PlanBuilder)(exprs: Expression*) = {
    val vt = readVirtual(schema("z" -> i32()), Seq(Seq(litI32(0))))
    b.plan(emit(project(vt, exprs: _*), exprs.indices.map(_ + 1): _*), exprs.indices.map(i => s"c$i"): _*)
  }
  private def assertLike(sql: String, actual: org.apache.spark.sql.DataFrame): Unit = {
    val expected = spark.sql(s"SELECT $sql")
    assert(actual.schema.map(_.dataType) == expected.schema.map(_.dataType), s"${actual.schema} vs ${expected.schema}")
    assertSameRows(actual, expected)
  }
  private val project0 = "relations[0].root.input.project.expressions[0]"

  /** Spark 4.1 brought TIME, behind a setting that is off by default. */
  private val hasTime = {
    val Array(major, minor) = org.apache.spark.SPARK_VERSION.split('.').take(2).map(_.toInt)
    major > 4 || (major == 4 && minor >= 1)
  }
  private def withTime[T](body: => T): T = withConf("spark.sql.timeType.enabled", "true")(body)

  test("precision_time and time literals are Spark's TIME of the same precision on Spark 4.1+, an error before") {
    withTime {
      // 12:34:56.789 at precisions 0, 3, 6 and 9 (whole microseconds); midnight; the last microsecond; the deprecated time in microseconds.
      val exprs = Seq(litTime(45296L, 0), litTime(45296789L, 3), litTime(45296789012L, 6), litTime(45296789012000L, 9),
        litTime(0L, 6), litTime(86399999999L, 6), litOldTime(45296789012L), litNull(precisionTime(3)), litNull(oldTime))
      if (hasTime) {
        assertLike(
          "CAST('12:34:56' AS TIME(0)), CAST('12:34:56.789' AS TIME(3)), CAST('12:34:56.789012' AS TIME(6)), " +
            "CAST('12:34:56.789012' AS TIME(6)), CAST('00:00:00' AS TIME(6)), CAST('23:59:59.999999' AS TIME(6)), " +
            "CAST('12:34:56.789012' AS TIME(6)), CAST(NULL AS TIME(3)), CAST(NULL AS TIME(6))", run(one(exprs: _*)))
        // Digits below microseconds cannot be held; times outside the day are not times.
        assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.precision_time")(
          run(one(litTime(45296789012345L, 9))))
      } else {
        assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.precision_time")(run(one(litTime(45296L,
                0))))
        // The older microsecond time is lifted into precision_time(6) at decode time: errors name that form.
        assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.precision_time")(run(one(litOldTime(0L))))
        assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.null.precision_time")(
          run(one(litNull(precisionTime(3)))))
      }
      assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$project0.literal.precision_time.value")(run(one(litTime(86400L, 0))))
      assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$project0.literal.precision_time.value")(run(one(litTime(-1L, 3))))
      assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$project0.literal.precision_time.value")(
        run(one(litTime(Long.MaxValue, 6))))
      assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$project0.literal.precision_time.value")(
        run(one(litOldTime(86400000000L))))
    }
  }

  test("precision_time with Spark's TIME type off (its default) is an error naming the setting") {
    val e = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.precision_time")(
      run(one(litTime(45296L, 0))))
    assert(e.getMessage.contains(if (hasTime) "spark.sql.timeType.enabled" else "4.1"), e.getMessage)
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.null.precision_time")(
      run(one(litNull(oldTime))))
  }

  test(
    "precision_time columns: a virtual table of times with a NULL on Spark 4.1+, precision above 6 an error everywhere") {
    withTime {
      val vt = readVirtual(schema("t" -> precisionTime(3), "u" -> oldTime),
        Seq(Seq(litTime(45296789L, 3), litOldTime(1L)), Seq(litNull(precisionTime(3)), litOldTime(0L))))
      if (hasTime) {
        assertLike(
          "* FROM VALUES (CAST('12:34:56.789' AS TIME(3)), CAST('00:00:00.000001' AS TIME(6))), " +
            "(CAST(NULL AS TIME(3)), CAST('00:00:00' AS TIME(6))) AS v(t, u)",
          run(new PlanBuilder().plan(vt, "t", "u")))
      } else {
        assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
          "relations[0].root.input.read.base_schema.struct.types[0].precision_time") {
          run(new PlanBuilder().plan(vt, "t", "u"))
        }
      }
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.null.precision_time")(
        run(one(litNull(precisionTime(9)))))
      assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$project0.literal.null.precision_time")(
        run(one(litNull(precisionTime(13)))))
    }
  }

  test("extract from precision_time: clock parts of times with a NULL; comparisons; zones and date parts are errors") {
    withTime {
      assume(hasTime, "Spark before 4.1 has no TIME values")
      val times = readVirtual(schema("t" -> precisionTime(6)),
        Seq(Seq(litTime(3723456789L, 6)), Seq(litTime(86399999999L, 6)),
          Seq(litTime(0L, 6)), Seq(litNull(precisionTime(6)))))
      val b = new PlanBuilder()
      val parts = Seq("HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "SUBSECOND")
      val extracts = parts.map(p => b.callWithEnums(b.fn("functions_datetime", "extract:req_pt"), Seq(p), field(0)))
      val lt = b.call(b.fn("functions_datetime", "lt:pt_pt"), field(0), litTime(43200000000L, 6))
      val exprs = extracts :+ lt
      val df =
        run(b.plan(emit(project(times, exprs: _*), exprs.indices.map(_ + 1): _*), exprs.indices.map(i => s"c$i"): _*))
      // 01:02:03.456789, 23:59:59.999999, midnight, NULL; before noon.
      assertRows(df,
        Seq(Row(1L, 2L, 3L, 456L, 789L, 456789L, true), Row(23L, 59L, 59L, 999L, 999L, 999999L, false),
          Row(0L, 0L, 0L, 0L, 0L, 0L, true), Row(null, null, null, null, null, null, null)))
      // The same clock parts as Spark's own hour, minute and second of a TIME.
      spark.sql("CREATE OR REPLACE TEMP VIEW times AS SELECT * FROM VALUES (CAST('01:02:03.456789' AS TIME(6))), " +
        "(CAST('23:59:59.999999' AS TIME(6))), (CAST('00:00:00' AS TIME(6))), (CAST(NULL AS TIME(6))) AS v(t)")
      assertSameRows(df.selectExpr("c0", "c1", "c2"),
        spark.sql("SELECT CAST(hour(t) AS BIGINT), CAST(minute(t) AS BIGINT), CAST(second(t) AS BIGINT) FROM times"))
      // Time plus an interval (wrapping past midnight or not: the spec does not say) is not mapped.
      assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
        run(b.plan(project(times, b.call(b.fn("functions_datetime", "add:pt_iday"), field(0), litIntervalDay(0, 60))),
            "t", "x"))
      }
      for (p <- Seq("YEAR", "NANOSECOND")) {
        assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION",
          "relations[0].root.input.project.expressions[0].scalar_function") {
          run(b.plan(project(times, b.callWithEnums(b.fn("functions_datetime", "extract:req_pt"), Seq(p), field(0))),
              "t", "x"))
        }
      }
    }
  }

  test(
    "interval_compound literals are CalendarIntervals: months, days and microseconds kept apart, mixed signs, typed NULL") {
    assertLike(
      "make_interval(1, 2, 0, 3, 4, 5, 6.5), make_interval(0, -1, 0, 40, 0, 0, -1.5), " +
        "make_interval(0, 0, 0, 0, 0, 0, 0.000001), make_interval(CAST(NULL AS INT))",
      run(one(litCompound(1, 2, 3, 4 * 3600 + 5 * 60 + 6, 5, 1), litCompound(0, -1, 40, -1, -500000, 6),
          litCompound(0, 0, 0, 0, 1000, 9), litNull(compound(6)))))
    // The same values, held as Spark holds them: days are not folded into microseconds.
    assertRows(run(one(litCompound(1, 2, 3, 4 * 3600 + 5 * 60 + 6, 5, 1))),
      Seq(Row(new CalendarInterval(14, 3, 14706500000L))))
  }

  test("interval_compound: precision above 6 is an error for types and for values with digits below microseconds") {
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.null.interval_compound")(
      run(one(litNull(compound(9)))))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.interval_compound.interval_day_to_second") {
      run(one(litCompound(0, 0, 0, 0, 1, 9)))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$project0.literal.interval_compound.interval_year_to_month") {
      run(one(litCompound(Int.MaxValue, 1, 0, 0, 0, 6)))
    }
    // Spark cannot order CalendarIntervals, and date / timestamp plus a compound interval is not mapped.
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", s"$project0.scalar_function") {
      run(oneWith(b)(b.call(b.fn("functions_comparison", "lt:any_any"), litCompound(0, 1, 0, 0, 0, 6),
            litCompound(0, 0, 31, 0, 0, 6))))
    }
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", s"$project0.scalar_function") {
      run(oneWith(b)(b.call(b.fn("functions_datetime", "add:date_icompound"), litDate(0),
            litCompound(0, 1, 0, 0, 0, 6))))
    }
    // interval_day above microseconds: the same rule.
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$project0.literal.interval_day_to_second")(
      run(one(litIntervalDay(0, 0, 1, 9))))
  }
}
