package io.sparksubstrait
package decode

import com.google.protobuf.util.JsonFormat
import io.sparksubstrait.proto.{Expression, Plan, Type}
import org.apache.spark.sql.DataFrame

import io.sparksubstrait.testing.{
  Datasets, Isthmus, LegacyForms, PlanBuilder, SparkSuite, SubstraitAssertions, TpchData
}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Plans in the encodings of older spec releases (fields the pinned spec removed, merged back
 * into our message classes) give the rows of the same plan in the current encoding, in
 * binary and JSON, and of the same query in Spark SQL: the decoder lifts them.
 */
class LegacyLiftingSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerPeople(spark)
    Datasets.registerNums(spark)
    TpchData.registerLineitem(spark)
  }

  /** The legacy plan, in binary and in JSON, gives the current plan's rows, which are the SQL's. */
  private def sameRows(current: Plan, legacy: Plan, sql: String, ordered: Boolean = false): Unit = {
    assert(legacy != current, "the legacy form must differ from the current one")
    val expected = spark.sql(sql)
    assertSameRows(run(current), expected, ordered)
    assertSameRows(run(legacy), expected, ordered)
    val json: DataFrame = SubstraitPlans.readJson(spark, JsonFormat.printer().print(legacy))
    assertSameRows(json, expected, ordered)
  }

  test("function args (the pre-0.20 list, enums as Expression.enum): scalar, aggregate and window functions") {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val extract = b.fn("functions_datetime", "extract:req_date")
    val sum = b.fn("functions_arithmetic", "sum:fp64")
    val nums = readNamed(Datasets.numsSchema, "nums")
    val projected =
      b.plan(emit(project(nums, b.call(add, field(0), field(1)), b.callWithEnums(extract, Seq("YEAR"), field(8))), 10,
          11),
        "ab", "y")
    sameRows(projected, LegacyForms.args(projected), "SELECT a + b, year(dt) FROM nums")
    val people = readNamed(Datasets.peopleSchema, "people")
    val grouped = b.plan(aggregate(people, Seq(field(3)), Seq(b.measure(sum, Seq(field(2))))), "grp", "s")
    sameRows(grouped, LegacyForms.args(grouped), "SELECT grp, sum(score) FROM people GROUP BY grp")
    // isthmus' TPC-H Q1 (its rows are Spark SQL's: IsthmusSuite), every function of it in the old form.
    val q1 = Isthmus.plan(TpchData.Q1, TpchData.LineitemDdl)
    val legacyQ1 = LegacyForms.args(q1)
    assert(legacyQ1 != q1)
    assertSameRows(run(legacyQ1), run(q1), ordered = true)
  }

  test("function args: an unspecified enum, and args disagreeing with arguments, are the plan's errors") {
    val b = new PlanBuilder()
    val extract = b.fn("functions_datetime", "extract:req_date")
    val nums = readNamed(Datasets.numsSchema, "nums")
    val unspecified = Expression.newBuilder().setEnum(Expression.Enum.newBuilder()
        .setUnspecified(Expression.Enum.Empty.getDefaultInstance)).build()
    val call =
      Expression.newBuilder().setScalarFunction(Expression.ScalarFunction.newBuilder().setFunctionReference(extract)
          .addArgs(unspecified).addArgs(field(8))).build()
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.project.expressions[0].scalar_function.args[0].enum") {
      run(b.plan(emit(project(nums, call), 10), "y"))
    }
    val both = b.callWithEnums(extract, Seq("YEAR"), field(8)).toBuilder
    both.getScalarFunctionBuilder.addArgs(field(0))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].scalar_function") {
      run(b.plan(emit(project(nums, both.build()), 10), "y"))
    }
  }

  test("microsecond timestamps, timestamps with zone and day-to-second intervals: types and literals") {
    val b = new PlanBuilder()
    val s = schema("ts" -> precisionTimestamp(6), "tz" -> precisionTimestampTz(6), "iv" -> intervalDay(6))
    val rows = Seq(
      Seq(litPrecisionTimestamp(1719837296789012L, 6), litPrecisionTimestampTz(1719849600000000L, 6),
        litIntervalDay(1, 30, 500, 6)),
      Seq(litNull(precisionTimestamp(6)), litNull(precisionTimestampTz(6)), litNull(intervalDay(6))),
      Seq(litPrecisionTimestamp(-1L, 6), litPrecisionTimestampTz(0L, 6), litIntervalDay(-2, 0, 0, 6)))
    val plan = b.plan(readVirtual(s, rows), "ts", "tz", "iv")
    val legacy = LegacyForms.microsecondTemporals(plan)
    withConf("spark.sql.session.timeZone", "UTC") {
      sameRows(plan, legacy,
        """SELECT * FROM VALUES
        (TIMESTAMP_NTZ'2024-07-01 12:34:56.789012', TIMESTAMP'2024-07-01 16:00:00 UTC', INTERVAL '1 00:00:30.0005' DAY TO SECOND),
        (CAST(NULL AS TIMESTAMP_NTZ), CAST(NULL AS TIMESTAMP), CAST(NULL AS INTERVAL DAY TO SECOND)),
        (TIMESTAMP_NTZ'1969-12-31 23:59:59.999999', TIMESTAMP'1970-01-01 00:00:00 UTC', INTERVAL '-2' DAY) AS t(ts, tz, iv)""")
    }
  }

  test(
    "a legacy field in a literal after one in a function call: both lifted (the lift enters types and literals only then)") {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val rows = Seq(Seq(litI32(1)), Seq(litNull(i32())), Seq(litI32(3)))
    // In field order the call's args (not in a literal) come before the microsecond timestamp literal.
    val plan = b.plan(emit(project(readVirtual(schema("n" -> i32()), rows), b.call(add, field(0), litI32(1)),
          litPrecisionTimestamp(1719837296789012L, 6)), 1, 2), "m", "ts")
    val legacy = LegacyForms.args(LegacyForms.microsecondTemporals(plan))
    assert(legacy != LegacyForms.args(plan) && legacy != LegacyForms.microsecondTemporals(plan))
    withConf("spark.sql.session.timeZone", "UTC") {
      sameRows(plan, legacy,
        "SELECT n + 1, TIMESTAMP_NTZ'2024-07-01 12:34:56.789012' FROM VALUES (1), (NULL), (3) AS t(n)")
    }
  }

  test("a user_defined_type_reference is the user-defined type it names") {
    val b = new PlanBuilder()
    val u8 = Type.newBuilder().setUserDefined(Type.UserDefined.newBuilder().setTypeReference(1)
        .setNullability(Type.Nullability.NULLABILITY_NULLABLE)).build()
    val p = b.plan(project(readVirtual(schema("x" -> i32()), Seq(Seq(litI32(1)))), litNull(u8)), "x", "u").toBuilder
    p.addExtensionUrns(
      io.sparksubstrait.proto.SimpleExtensionURN.newBuilder().setUrn("extension:io.substrait:unsigned_integers")
        .setExtensionUrnAnchor(9))
    p.addExtensions(io.sparksubstrait.proto.SimpleExtensionDeclaration.newBuilder().setExtensionType(
        io.sparksubstrait.proto.SimpleExtensionDeclaration.ExtensionType.newBuilder().setExtensionUrnReference(
          9).setTypeAnchor(1).setName("u8")))
    val plan = p.build()
    sameRows(plan, LegacyForms.typeReferences(plan), "SELECT 1 AS x, CAST(NULL AS SMALLINT) AS u")
  }
}
