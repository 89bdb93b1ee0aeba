package io.sparksubstrait
package producers

import io.sparksubstrait.proto.{Expression, Plan, Rel, Type, Version}
import org.apache.spark.sql.Row

import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Producer readings of function spellings and of what a producer's engine does where its
 * plans name nothing (decode/readings/): hand-built plans in the shapes DuckDB 1.0-1.1.3 and
 * DataFusion write (checked against plans those releases wrote), run over rows with NULLs,
 * duplicates and an empty table, compared with Spark SQL or with DuckDB's own answers
 * worked by hand; and the same plan stamped by another producer is not read that way.
 */
class ProducerSpellingsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("""CREATE OR REPLACE TEMP VIEW nums AS SELECT * FROM VALUES
      (7L, 2L, 2.5D, 2.5BD, 'x', 1, DATE'2020-01-31'),
      (7L, 2L, 2.5D, 2.5BD, 'x', 1, DATE'2020-01-31'),
      (-7L, 2L, -2.5D, -2.5BD, NULL, 10, DATE'2019-12-31'),
      (7L, 0L, 0.5D, 0.5BD, '  y ', NULL, NULL),
      (NULL, 1L, 1.5D, -1.5BD, 'xxzx', 10, DATE'2021-03-01'),
      (5L, NULL, NULL, NULL, '', 2, DATE'2020-02-29')
      AS nums(a, b, x, d, s, k, day)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW none AS SELECT * FROM nums WHERE false")
    spark.sql("""CREATE OR REPLACE TEMP VIEW grp AS SELECT k, x, CAST(d AS DECIMAL(4,1)) AS d FROM VALUES
      (1, 0.5D, 0.5BD), (1, 2.0D, 2.0BD), (2, 2.5D, -2.5BD), (2, 2.5D, -2.5BD), (3, NULL, NULL), (NULL, 1.5D, 1.5BD) AS grp(k, x, d)""")
  }

  private val numsSchema = schema("a" -> i64(), "b" -> i64(), "x" -> fp64(), "d" -> decimal(2, 1), "s" -> string(),
    "k" -> i32(), "day" -> date())
  private def nums(table: String = "nums"): Rel = readNamed(numsSchema, table)

  private def stamped(plan: Plan, producer: String, minor: Int): Plan =
    plan.toBuilder.setVersion(Version.newBuilder().setMinorNumber(minor).setProducer(producer)).build()

  private def readingsOf(plan: Plan): Seq[String] =
    PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active).readings.map(_.name)

  /** DuckDB's untyped NULL: a null literal whose type has no kind. */
  private val untypedNull: Expression = litNull(Type.newBuilder().build())

  private def outputs(b: PlanBuilder, f: Int, out: Type, args: Expression*): Expression =
    b.callWith(f, Nil, Some(out), args: _*)

  /** SELECT s || '-', a // b, round(x) FROM `table`, as DuckDB 1.1.3 writes it (a project without emit). */
  private def duckDbSpellings(table: String): Plan = {
    val b = new PlanBuilder()
    val concat = b.fn("functions_string", "||")
    val intDiv = b.fn("functions_arithmetic", "//")
    val round = b.fn("functions_rounding", "round")
    stamped(b.plan(project(nums(table), outputs(b, concat, string(), field(4), litString("-")),
          outputs(b, intDiv, i64(), field(0), field(1)), outputs(b, round, fp64(), field(2))), "c", "q", "r"), "DuckDB",
      53)
  }

  test("DuckDB: || is concat, // on integers is divide (NULL by zero), round(x) is round(x, 0)") {
    val plan = duckDbSpellings("nums")
    assert(readingsOf(plan) == Seq("duckdb-project-without-emit", "duckdb-function-spellings",
      "duckdb-division-by-zero-null"))
    // DuckDB 1.1.3's rows for the same query: -7 // 2 is -3 (truncated), 7 // 0 is NULL, round ties away from zero.
    assertRows(run(plan),
      Seq(Row("x-", 3L, 3.0), Row("x-", 3L, 3.0), Row(null, -3L, -3.0), Row("  y -", null, 1.0),
        Row("xxzx-", null, 2.0), Row("-", null, null)))
    assertRows(run(duckDbSpellings("none")), Nil)
    assertSameRows(run(plan).select("c", "r"), spark.sql("SELECT s || '-', round(x) FROM nums"))
  }

  test("DuckDB's spellings are DuckDB's only: another producer's ||, // and one-argument round stay unknown") {
    val other = stamped(duckDbSpellings("nums"), "someone", 53)
    assert(readingsOf(other).isEmpty)
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
      run(other)
    }
    val dataFusion = stamped(duckDbSpellings("nums"), "datafusion", 63)
    assert(!readingsOf(dataFusion).exists(_.startsWith("duckdb")))
  }

  test("DuckDB: sum_no_overflow is sum (DuckDB's only: another producer's stays unknown)") {
    // SELECT sum(a), sum(c) FROM nums as DuckDB 1.1.3 writes a sum of integers.
    def plan(producer: String) = {
      val b = new PlanBuilder()
      val (sumLong, sumInt) =
        (b.fn("functions_arithmetic", "sum_no_overflow:i64"), b.fn("functions_arithmetic", "sum_no_overflow:i32"))
      stamped(b.plan(aggregate(nums(), Nil,
            Seq(b.measure(sumLong, Seq(field(0)), output = Some(decimal(38, 0))),
              b.measure(sumInt, Seq(field(5)), output = Some(decimal(38, 0))))), "sa", "sc"), producer, 53)
    }
    assert(readingsOf(plan("DuckDB")).contains("duckdb-function-spellings"))
    // 7 + 7 - 7 + 7 + 5 = 19 (a NULL skipped); 1 + 1 + 10 + 10 + 2 = 24.
    assertRows(run(plan("DuckDB")), Seq(Row(BigDecimal(19).bigDecimal, BigDecimal(24).bigDecimal)))
    assertSameRows(run(plan("DuckDB")),
      spark.sql("SELECT CAST(sum(a) AS DECIMAL(38,0)), CAST(sum(k) AS DECIMAL(38,0)) FROM nums"))
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.aggregate.measures[0].measure") {
      run(plan("someone"))
    }
  }

  test("DuckDB: // declared to return a double is no standard function and stays unknown") {
    val b = new PlanBuilder()
    val intDiv = b.fn("functions_arithmetic", "//")
    val plan = stamped(b.plan(project(nums(), outputs(b, intDiv, fp64(), field(2), litFp64(2))), "h"), "DuckDB", 53)
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
      run(plan)
    }
  }

  /** SELECT a / b as DuckDB writes integer division under the standard name, without options. */
  private def integerDivide(producer: String): Plan = {
    val b = new PlanBuilder()
    val divide = b.fn("functions_arithmetic", "divide:i64_i64")
    stamped(b.plan(emit(project(nums(), outputs(b, divide, i64(), field(0), field(1))), 7), "q"), producer, 53)
  }

  /** SELECT a % b, d % 2.0, d % 0.0 as DuckDB 1.1.3 writes them: `%` declared by name, without options. */
  private def remainders(producer: String, table: String = "nums"): Plan = {
    val b = new PlanBuilder()
    val mod = b.fn("functions_arithmetic", "%")
    val two = litDecimal(new java.math.BigDecimal("2.0"), 2, 1)
    val zero = litDecimal(new java.math.BigDecimal("0.0"), 2, 1)
    stamped(b.plan(emit(project(nums(table), outputs(b, mod, i64(), field(0), field(1)),
            outputs(b, mod, decimal(2, 1), field(3), two), outputs(b, mod, decimal(2, 1), field(3), zero)), 7, 8, 9),
        "m", "r2", "r0"), producer, 53)
  }

  test("DuckDB: % of integers and of decimals without options is NULL for a zero divisor") {
    assert(readingsOf(remainders("DuckDB")).contains("duckdb-division-by-zero-null"))
    val d = (s: String) => new java.math.BigDecimal(s)
    // DuckDB 1.1.3: SELECT a % b, d % 2.0::DECIMAL(2,1), d % 0.0::DECIMAL(2,1) FROM nums (the same rows).
    for (ansi <- Seq("true", "false")) withConf("spark.sql.ansi.enabled", ansi) {
      assertRows(run(remainders("DuckDB")),
        Seq(Row(1L, d("0.5"), null), Row(1L, d("0.5"), null), Row(-1L, d("-0.5"), null), Row(null, d("0.5"), null),
          Row(null, d("-1.5"), null), Row(null, null, null)))
    }
    assertRows(run(remainders("DuckDB", "none")), Nil)
    // Another producer's plan names no option either: the spec's default, the session's (ANSI) domain error.
    assert(!readingsOf(remainders("someone")).contains("duckdb-division-by-zero-null"))
    withConf("spark.sql.ansi.enabled", "true") {
      val z = intercept[Exception](run(remainders("someone")).collect())
      assert(causes(z).exists(_.getMessage.contains("SUBSTRAIT_DOMAIN_ERROR")), z)
    }
  }

  test(
    "DuckDB: floating-point division without options is NULL by zero in 1.0, IEEE's in 1.1, as each engine answers") {
    // SELECT x / (x - x), -x / 0.0::DOUBLE, x / 2 FROM nums: DuckDB 1.0.0 gives NULL, NULL, x/2; 1.1.3 NaN, -inf, x/2.
    def quotients(producer: String, minor: Int) = {
      val b = new PlanBuilder()
      val divide = b.fn("functions_arithmetic", "divide:fp64_fp64")
      stamped(b.plan(emit(project(nums(), outputs(b, divide, fp64(), field(2), litFp64(0.0)),
              outputs(b, divide, fp64(), litFp64(-1.5), litFp64(0.0)),
              outputs(b, divide, fp64(), field(2), litFp64(2.0))),
            7, 8, 9), "q", "n", "h"), producer, minor)
    }
    val halves = Seq(1.25, 1.25, -1.25, 0.25, 0.75, null)
    for (ansi <- Seq("true", "false")) withConf("spark.sql.ansi.enabled", ansi) {
      assertRows(run(quotients("DuckDB", 48)), halves.map(h => Row(null, null, h)))
      val ieee = run(quotients("DuckDB", 53)).collect().toSeq
      assert(ieee.map(_.getDouble(1)).forall(_ == Double.NegativeInfinity), ieee)
      assert(ieee.map(r => if (r.isNullAt(2)) null else r.getDouble(2)).sortBy(String.valueOf(_)) ==
          halves.sortBy(String.valueOf(_)), ieee)
      // x / 0: +inf for x > 0, -inf below, NaN for 0 / 0 (none here), NULL for a NULL x.
      assert(
        ieee.map(r => if (r.isNullAt(0)) None else Some(math.signum(r.getDouble(0)).toInt)).sortBy(_.toString) ==
          Seq(None, Some(-1), Some(1), Some(1), Some(1), Some(1)).sortBy(_.toString), ieee)
    }
    assert(readingsOf(quotients("DuckDB", 53)).contains("duckdb-division-by-zero-null"))
    // Another producer's plan names no option: the session's choice, an error under ANSI.
    assert(!readingsOf(quotients("someone", 53)).contains("duckdb-division-by-zero-null"))
    withConf("spark.sql.ansi.enabled", "true") {
      val z = intercept[Exception](run(quotients("someone", 53)).collect())
      assert(causes(z).exists(_.getMessage.contains("SUBSTRAIT_DIVISION_BY_ZERO")), z)
    }
  }

  test("logb declared under the boolean functions' extension stays an unknown function, stamped DataFusion or not") {
    // DataFusion's own consumer test plan (testdata/test_plans/scalar_fn_logb_expr.substrait.json): logb:fp32_fp32
    // under functions_boolean.yaml, declared to return a boolean, unstamped. DataFusion's producer (31 to 55)
    // declares every function by bare name without any extension, so no release of it writes this: nothing
    // to key a name-only reading on, and the declared boolean contradicts logb's fp32.
    def logb(producer: Option[String]) = {
      val b = new PlanBuilder()
      val f = b.fn("functions_boolean", "logb:fp32_fp32")
      val rows = Seq(Seq(litFp32(1.0f), litFp32(10.0f)), Seq(litFp32(100.0f), litFp32(10.0f)))
      val plan = b.plan(project(readVirtual(schema("x" -> fp32(), "base" -> fp32()), rows),
          outputs(b, f, bool(false), field(0), field(1))), "x", "base", "result")
      producer.fold(plan)(stamped(plan, _, 85))
    }
    Seq(Some("datafusion"), None).foreach { p =>
      val e = intercept[SubstraitException](run(logb(p)))
      assert(e.getCondition == "SUBSTRAIT_UNKNOWN_FUNCTION" && e.getMessage.contains("logb"), e.getMessage)
    }
  }

  test("DuckDB: integer division without options divides by zero to NULL and still raises on overflow") {
    assert(readingsOf(integerDivide("DuckDB")).contains("duckdb-division-by-zero-null"))
    assertRows(run(integerDivide("DuckDB")), Seq(Row(3L), Row(3L), Row(-3L), Row(null), Row(null), Row(null)))
    // DuckDB: "Overflow in division of -9223372036854775808 / -1".
    val b = new PlanBuilder()
    val divide = b.fn("functions_arithmetic", "divide:i64_i64")
    val overflow =
      stamped(b.plan(project(nums(), outputs(b, divide, i64(), litI64(Long.MinValue), litI64(-1))), "q"), "DuckDB", 53)
    val e = intercept[Exception](run(overflow).collect())
    assert(causes(e).exists(
        _.getMessage.contains("ARITHMETIC_OVERFLOW")), e)
    // Another producer's plan names no option either: the session's (ANSI) error on a zero divisor.
    assert(readingsOf(integerDivide("someone")).isEmpty)
    val z = intercept[Exception](run(integerDivide("someone")).collect())
    assert(causes(z).exists(
        _.getMessage.contains("SUBSTRAIT_DIVISION_BY_ZERO")), z)
    // What the reading writes, written by any producer: the spec's options give DuckDB's rows.
    val named = new PlanBuilder()
    val div = named.fn("functions_arithmetic", "divide:i64_i64")
    val options = Seq("on_division_by_zero" -> Seq("NULL"), "overflow" -> Seq("ERROR"))
    assertRows(run(named.plan(emit(project(nums(), named.callWith(div, options, Some(i64()), field(0), field(1))), 7),
          "q")),
      Seq(Row(3L), Row(3L), Row(-3L), Row(null), Row(null), Row(null)))
  }

  test("DuckDB: not_equal with a literal holding % (its NOT LIKE) runs as written, the <> it says, with a warning") {
    spark.sql("CREATE OR REPLACE TEMP VIEW comments AS SELECT * FROM VALUES ('a special request'), ('%special%'), " +
      "('%special%'), (NULL), ('plain') AS t(c)")
    def notEqual(producer: String, literal: String): Plan = {
      val b = new PlanBuilder()
      val ne = b.fn("functions_comparison", "not_equal:string_string")
      stamped(b.plan(filter(readNamed(schema("c" -> string()), "comments"), b.call(ne, field(0), litString(literal))),
          "c"), producer, 53)
    }
    val pattern = notEqual("DuckDB", "%special%")
    assert(readingsOf(pattern) == Seq("duckdb-not-like-as-not-equal"))
    val decoded = PlanDecoder.fromBytes(pattern.toByteArray, PlanLimits.active).readings.head
    assert(decoded.isWarning && decoded.where.exists(_.contains("'%special%'")), decoded)
    // As written: the pattern's text compared with <> (NOT LIKE would keep 'plain' only).
    assertSameRows(run(pattern), spark.sql("SELECT c FROM comments WHERE c <> '%special%'"))
    assertRows(run(pattern), Seq(Row("a special request"), Row("plain")))
    // No wildcard, another producer, or a bare `_`: no warning.
    assert(readingsOf(notEqual("DuckDB", "plain")).isEmpty)
    assert(readingsOf(notEqual("DuckDB", "IN_PROGRESS")).isEmpty)
    assert(readingsOf(notEqual("datafusion", "%special%")).isEmpty)
    assertSameRows(run(notEqual("datafusion", "%special%")), spark.sql("SELECT c FROM comments WHERE c <> '%special%'"))
  }

  /** NULLIF(k, 10) as DuckDB writes it: the NULL branch a cast of a NULL without a type. */
  private def nullIf(producer: String): Plan = {
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:i32_i32")
    val expr =
      ifThen(Seq(b.callWith(eq, Nil, Some(PlanBuilder.bool()), field(5), litI32(10)) -> cast(untypedNull, i32())),
        Some(cast(field(5), i32())))
    stamped(b.plan(project(nums(), expr), "k"), producer, 53)
  }

  test("DuckDB: a NULL without a type inside a cast is NULL of the cast's type") {
    assert(readingsOf(nullIf("DuckDB")).contains("duckdb-typeless-null-in-cast"))
    assertSameRows(run(nullIf("DuckDB")), spark.sql("SELECT NULLIF(k, 10) FROM nums"))
    assert(run(nullIf("DuckDB")).schema.head.dataType == org.apache.spark.sql.types.IntegerType)
    // Outside a cast nothing says its type: the plan's error, for DuckDB too.
    val bare = stamped(new PlanBuilder().plan(project(nums(), untypedNull), "n"), "DuckDB", 53)
    assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.project.expressions[0].literal.null") {
      run(bare)
    }
    // Another producer's typeless NULL stays the plan's error.
    assertPlanError("SUBSTRAIT_MISSING_FIELD",
      "relations[0].root.input.project.expressions[0].if_then.ifs[0].then.cast.input.literal.null") {
      run(nullIf("someone"))
    }
  }

  /** SELECT trim(s), trim(BOTH 'x' FROM s) as DataFusion writes it: btrim, a project with emit. */
  private def btrim(producer: String, minor: Int): Plan = {
    val b = new PlanBuilder()
    val f = b.fn("functions_string", "btrim")
    stamped(b.plan(emit(project(nums(), b.call(f, field(4)), b.call(f, field(4), litString("x"))), 7, 8), "t", "tx"),
      producer, minor)
  }

  /** SELECT k, stddev(x) FROM `table` GROUP BY k, declared as `name` (no extension), as TPC-DS q17 and q39 write it. */
  private def sampleStdDev(name: String, producer: String, minor: Int, table: String = "grp"): Plan = {
    val b = new PlanBuilder()
    val f = b.fn("functions_arithmetic", name)
    stamped(b.plan(aggregate(readNamed(schema("k" -> i32(), "x" -> fp64(), "d" -> decimal(4, 1)), table), Seq(field(0)),
          Seq(b.measure(f, Seq(field(1)), output = Some(fp64())))), "k", "sd"), producer, minor)
  }

  test("DataFusion's stddev and DuckDB's stddev_samp are the sample std_dev (theirs only)") {
    spark.sql("CREATE OR REPLACE TEMP VIEW grp0 AS SELECT * FROM grp WHERE false")
    val sql = spark.sql("SELECT k, stddev_samp(x) FROM grp GROUP BY k")
    Seq(sampleStdDev("stddev", "datafusion", 85), sampleStdDev("stddev_samp", "DuckDB", 53)).foreach { plan =>
      assert(readingsOf(plan).exists(_.endsWith("-function-spellings")))
      assertSameRows(run(plan), sql)
      // By hand: k = 1 over 0.5 and 2.0: sqrt((0.75^2 * 2) / (2 - 1)) = sqrt(1.125); k = 2 over a duplicated
      // 2.5: 0; k = 3, only NULL: NULL; the NULL key, one value: NULL (a sample of one has no deviation).
      assertRows(run(plan), Seq(Row(1, 1.0606601717798212), Row(2, 0.0), Row(3, null), Row(null, null)))
    }
    assertRows(run(sampleStdDev("stddev", "datafusion", 85, "grp0")), Nil)
    // Another producer's names stay unknown: DuckDB's stddev_samp in a DataFusion plan, and the reverse.
    Seq(sampleStdDev("stddev_samp", "datafusion", 85), sampleStdDev("stddev", "DuckDB", 53),
      sampleStdDev("stddev", "someone", 53)).foreach { plan =>
      assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.aggregate.measures[0].measure") {
        run(plan)
      }
    }
  }

  /** `plan` in DataFusion's shape: its functions declared by bare name, with no extension (as DataFusion 55 writes them). */
  private def bareNames(plan: Plan): Plan = {
    val b = plan.toBuilder.clearExtensionUrns()
    (0 until b.getExtensionsCount).foreach(i =>
      b.getExtensionsBuilder(i).getExtensionFunctionBuilder.clearExtensionUrnReference())
    b.build()
  }

  /** SELECT k, approx_distinct(a) FROM `table` GROUP BY k, as DataFusion writes it (a bare name, no extension). */
  private def approxDistinct(producer: String, minor: Int, table: String = "nums"): Plan = {
    val b = new PlanBuilder()
    val f = b.fn("functions_aggregate_approx", "approx_distinct")
    stamped(bareNames(b.plan(aggregate(nums(table), Seq(field(5)),
            Seq(b.measure(f, Seq(field(0)), output = Some(i64())))),
          "k", "n")), producer, minor)
  }

  test("DataFusion: approx_distinct is approx_count_distinct (DataFusion's only)") {
    Seq(51, 85).foreach { minor =>
      val plan = approxDistinct("datafusion", minor)
      assert(readingsOf(plan).contains("datafusion-function-spellings"))
      // Few values: the HyperLogLog estimate is the exact count (NULLs not counted, duplicates once).
      assertSameRows(run(plan), spark.sql("SELECT k, count(DISTINCT a) FROM nums GROUP BY k"))
      assertRows(run(plan), Seq(Row(1, 1L), Row(10, 1L), Row(null, 1L), Row(2, 1L)))
    }
    assertRows(run(approxDistinct("datafusion", 85, "none")), Nil)
    Seq(approxDistinct("DuckDB", 53), approxDistinct("someone", 85)).foreach { plan =>
      assert(!readingsOf(plan).contains("datafusion-function-spellings"))
      assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.aggregate.measures[0].measure") {
        run(plan)
      }
    }
  }

  /** SELECT x, isnan(x) FROM `table`, as DataFusion writes it (a bare name, no extension). */
  private def isNan(producer: String, minor: Int, table: String): Plan = {
    val b = new PlanBuilder()
    val f = b.fn("functions_comparison", "isnan")
    stamped(bareNames(b.plan(emit(project(readNamed(schema("x" -> fp64()), table), b.call(f, field(0))), 0, 1), "x",
          "nan")), producer, minor)
  }

  test("DataFusion: isnan is is_nan, NULL of NULL (DataFusion's only)") {
    spark.sql("""CREATE OR REPLACE TEMP VIEW fl AS SELECT CAST(x AS DOUBLE) AS x FROM VALUES
      ('1.5'), ('NaN'), ('NaN'), (NULL), ('-Infinity'), ('0') AS fl(x)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW fl0 AS SELECT * FROM fl WHERE false")
    Seq(51, 85).foreach { minor =>
      val plan = isNan("datafusion", minor, "fl")
      assert(readingsOf(plan).contains("datafusion-function-spellings"))
      assertSameRows(run(plan), spark.sql("SELECT x, CASE WHEN x IS NULL THEN NULL ELSE isnan(x) END FROM fl"))
      assertRows(run(plan),
        Seq(Row(1.5, false), Row(Double.NaN, true), Row(Double.NaN, true), Row(null, null),
          Row(Double.NegativeInfinity, false), Row(0.0, false)))
    }
    assertRows(run(isNan("datafusion", 85, "fl0")), Nil)
    Seq(isNan("DuckDB", 53, "fl"), isNan("someone", 85, "fl")).foreach { plan =>
      assert(!readingsOf(plan).contains("datafusion-function-spellings"))
      assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
        run(plan)
      }
    }
  }

  /** SELECT g, median(m) FROM `table` GROUP BY g as DuckDB 1.1.3 writes it: `median` by name, declared DECIMAL(10,2). */
  private def decimalMedian(producer: String, minor: Int, table: String, declared: Boolean = true,
    precision: Int = 10): Plan = {
    val b = new PlanBuilder()
    val f = b.fn("functions_arithmetic", "median")
    val m = b.measure(f, Seq(field(1)), output = if (declared) Some(decimal(precision, 2)) else None)
    stamped(b.plan(aggregate(readNamed(schema("g" -> i32(), "m" -> decimal(precision, 2)), table), Seq(field(0)),
          Seq(m)), "g", "median"), producer, minor)
  }

  test("DataFusion: the median of DECIMAL(38,2) values beyond 18 digits is exact, truncated to the scale") {
    spark.sql("""CREATE OR REPLACE TEMP VIEW dm38 AS SELECT g, CAST(m AS DECIMAL(38,2)) AS m FROM VALUES
      (1, '1.01'), (1, '1.02'), (2, '-1.01'), (2, '-1.02'),
      (3, '99999999999999999999999999999999.99'), (3, '99999999999999999999999999999999.98'), (3, NULL), (4, NULL),
      (5, '-12345678901234567890.05'), (5, '12345678901234567890.04'), (5, '0.00'),
      (6, '-12345678901234567890.05'), (6, '12345678901234567890.04'), (NULL, '0.01'), (NULL, '-0.02') AS t(g, m)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW dm38none AS SELECT * FROM dm38 WHERE false")
    def dec(v: String) = new java.math.BigDecimal(v)
    val plan = bareNames(decimalMedian("datafusion", 85, "dm38", declared = false, precision = 38))
    // DataFusion 55's rows for SELECT g, median(m) over the same DECIMAL(38,2) rows, measured (DuckDB 1.1.3
    // agrees but for group 3, which it interpolates in double: 99999999999999994557523098704281.60).
    val expected = Seq(Row(1, dec("1.01")), Row(2, dec("-1.01")), Row(3, dec("99999999999999999999999999999999.98")),
      Row(4, null), Row(5, dec("0.00")), Row(6, dec("0.00")), Row(null, dec("0.00")))
    assertRows(run(plan), expected)
    assert(run(plan).schema("median").dataType == org.apache.spark.sql.types.DecimalType(38, 2))
    assertRows(run(bareNames(decimalMedian("datafusion", 85, "dm38none", declared = false, precision = 38))), Nil)
    // DuckDB's plan of the same (declared DECIMAL(38,2)): the same exact answer.
    assertRows(run(decimalMedian("DuckDB", 53, "dm38", precision = 38)), expected)
    // Another producer names no rounding: refused, never rounded by a guess.
    val other = intercept[SubstraitException](run(decimalMedian("someone", 53, "dm38", precision = 38)))
    assert(other.getLocation.startsWith("relations[0].root.input.aggregate.measures[0].measure"), other.getMessage)
  }

  test(
    "DuckDB and DataFusion: the median of decimals is the mean of the middle values truncated to the scale, exactly") {
    spark.sql("""CREATE OR REPLACE TEMP VIEW dm AS SELECT g, CAST(m AS DECIMAL(10,2)) AS m FROM VALUES
      (1, 1.01), (1, 1.02), (2, -1.01), (2, -1.02), (3, 1.01), (3, 1.04), (3, 1.04), (3, NULL), (4, NULL),
      (5, 5.00), (5, 1.00), (5, 3.00), (6, 99999999.99), (6, 99999999.98), (NULL, 0.01), (NULL, -0.02) AS dm(g, m)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW dm0 AS SELECT * FROM dm WHERE false")
    // DataFusion 55 declares no type (a bare name, no extension): its median typed by the column read.
    val dataFusion = bareNames(decimalMedian("datafusion", 85, "dm", declared = false))
    Seq(decimalMedian("DuckDB", 53, "dm"), dataFusion).foreach { plan =>
      assert(readingsOf(plan).exists(_.endsWith("-function-spellings")))
      // DuckDB 1.1.3's and DataFusion 55's rows, measured: 1.01 and 1.02 give 1.01, -1.01 and -1.02 give -1.01 (toward zero);
      // an odd count its middle value (the duplicate counted twice); NULLs skipped; only NULLs: NULL.
      def dec(v: String) = new java.math.BigDecimal(v)
      assertRows(run(plan),
        Seq(Row(1, dec("1.01")), Row(2, dec("-1.01")), Row(3, dec("1.04")), Row(4, null), Row(5, dec("3.00")),
          Row(6, dec("99999999.98")), Row(null, dec("0.00"))))
      // Spark SQL on the same rows: the exact mean of the middle values (percentile_disc picks them), truncated.
      assertSameRows(run(plan),
        spark.sql(
          """SELECT g, CAST(IF((lo + hi) / 2 >= 0, floor((lo + hi) / 2, 2), ceil((lo + hi) / 2, 2)) AS DECIMAL(10,2))
          FROM (SELECT g,
          percentile_disc(0.5) WITHIN GROUP (ORDER BY m) AS lo, percentile_disc(0.5) WITHIN GROUP (ORDER BY m DESC) AS hi
          FROM dm GROUP BY g)"""))
    }
    assertRows(run(bareNames(decimalMedian("datafusion", 85, "dm0", declared = false))), Nil)
    assertRows(run(decimalMedian("DuckDB", 53, "dm0")), Nil)
    // DuckDB's undeclared (no type to read it by), and another producer's median of decimals: refused, never rounded by a guess.
    Seq(decimalMedian("DuckDB", 53, "dm", declared = false)).foreach { p =>
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.aggregate.measures[0].measure") {
        run(p)
      }
    }
    val other = intercept[SubstraitException](run(decimalMedian("someone", 53, "dm")))
    assert(other.getLocation.startsWith("relations[0].root.input.aggregate.measures[0].measure"), other.getMessage)
  }

  /** SELECT g, product(x) FROM `table` [GROUP BY g] as DuckDB 1.1.3 writes it: product:fp64 of functions_arithmetic. */
  private def product(producer: String, table: String, grouped: Boolean): Plan = {
    val b = new PlanBuilder()
    val f = b.fn("functions_arithmetic", "product:fp64")
    val read = readNamed(schema("g" -> i32(), "x" -> fp64()), table)
    val m = b.measure(f, Seq(field(1)), output = Some(fp64()))
    val plan =
      if (grouped) b.plan(aggregate(read, Seq(field(0)), Seq(m)), "g", "p")
      else b.plan(aggregate(read, Nil, Seq(m)), "p")
    stamped(plan, producer, 53)
  }

  test(
    "DuckDB: the product of no values is NULL (DuckDB's), the product of values exact; the standard's 1 for others") {
    spark.sql("""CREATE OR REPLACE TEMP VIEW pr AS SELECT * FROM VALUES (1, 1.5D), (1, 2.0D), (1, 2.0D), (2, NULL),
      (3, -0.5D), (3, 4.0D), (3, NULL), (NULL, 0.0D) AS pr(g, x)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW pr0 AS SELECT * FROM pr WHERE false")
    val grouped = product("DuckDB", "pr", grouped = true)
    assert(readingsOf(grouped).contains("duckdb-function-spellings"))
    // DuckDB 1.1.3's rows, measured: an all-NULL group and no rows at all give NULL; NULLs skipped, duplicates counted.
    assertRows(run(grouped), Seq(Row(1, 6.0), Row(2, null), Row(3, -2.0), Row(null, 0.0)))
    // Spark SQL: the product of the values (exact here), NULL where there are none.
    assertSameRows(run(grouped),
      spark.sql(
        "SELECT g, IF(count(x) = 0, NULL, aggregate(collect_list(x), 1.0D, (a, v) -> a * v)) FROM pr GROUP BY g"))
    // 1.5 * 2 * 2 * -0.5 * 4 * 0.0: a zero with the product's sign.
    assertRows(run(product("DuckDB", "pr", grouped = false)), Seq(Row(-0.0)))
    assertRows(run(product("DuckDB", "pr0", grouped = false)), Seq(Row(null)))
    assertRows(run(product("DuckDB", "pr0", grouped = true)), Nil)
    // Another producer's product is the standard's: 1 for no values.
    assert(!readingsOf(product("someone", "pr", grouped = true)).contains("duckdb-function-spellings"))
    assertRows(run(product("someone", "pr", grouped = true)),
      Seq(Row(1, 6.0), Row(2, 1.0), Row(3, -2.0), Row(null, 0.0)))
    assertRows(run(product("someone", "pr0", grouped = false)), Seq(Row(1.0)))
  }

  test("DataFusion: btrim is trim") {
    Seq(49, 58, 63, 85).foreach { minor =>
      assert(readingsOf(btrim("datafusion", minor)).contains("datafusion-function-spellings"))
      assertSameRows(run(btrim("datafusion", minor)), spark.sql("SELECT trim(s), trim(BOTH 'x' FROM s) FROM nums"))
    }
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
      run(btrim("DuckDB", 53))
    }
  }

  private def compound(months: Int, days: Int): Expression = Expression.newBuilder().setLiteral(
    Expression.Literal.newBuilder()
      .setIntervalCompound(Expression.Literal.IntervalCompound.newBuilder()
          .setIntervalYearToMonth(Expression.Literal.IntervalYearToMonth.newBuilder().setMonths(months))
          .setIntervalDayToSecond(
            Expression.Literal.IntervalDayToSecond.newBuilder().setDays(days).setPrecision(9)))).build()

  /** day + INTERVAL '1' MONTH, day - INTERVAL '2' DAY as DataFusion 43+ writes them (bare names, compound literals). */
  private def dateShift(minor: Int, interval: (Int, Int) = (1, 0), table: String = "nums"): Plan = {
    val b = new PlanBuilder()
    val add = b.fn("functions_datetime", "add")
    val sub = b.fn("functions_datetime", "subtract")
    stamped(b.plan(emit(project(nums(table), b.call(add, field(6), compound(interval._1, interval._2)),
            b.call(sub, field(6), compound(0, 2))), 7, 8), "next", "before"), "datafusion", minor)
  }

  test("DataFusion 43+: a compound interval literal of months only or days only is an interval_year or interval_day") {
    assert(readingsOf(dateShift(58)).contains("datafusion-compound-interval-arithmetic"))
    Seq(58, 85).foreach { minor =>
      assertSameRows(run(dateShift(minor)),
        spark.sql("SELECT day + INTERVAL '1' MONTH, day - INTERVAL '2' DAY FROM nums"))
    }
    assertRows(run(dateShift(85, table = "none")), Nil)
    // Months and days at once: no single Spark date step, refused as written.
    val both = intercept[SubstraitException](run(dateShift(85, (1, 1))))
    assert(both.getCondition == "SUBSTRAIT_UNKNOWN_FUNCTION", both.getMessage)
    // DataFusion 42 (spec 0.55) writes no compound literal; the same plan stamped so is not read.
    assert(!readingsOf(dateShift(55)).contains("datafusion-compound-interval-arithmetic"))
    assert(intercept[SubstraitException](run(dateShift(55))).getCondition == "SUBSTRAIT_UNKNOWN_FUNCTION")
  }

  test("DataFusion 43+: seconds that make whole days are days (date + 5 as 432,000 seconds, TPC-DS q72)") {
    def shifted(seconds: Long, table: String = "nums") = {
      val b = new PlanBuilder()
      val add = b.fn("functions_datetime", "add")
      val lit = compound(0, 0).toBuilder
      lit.getLiteralBuilder.getIntervalCompoundBuilder.getIntervalDayToSecondBuilder.setSeconds(seconds.toInt)
      stamped(b.plan(emit(project(nums(table), b.callWith(add, Nil, Some(date()), field(6), lit.build())), 7), "d"),
        "datafusion", 85)
    }
    assertSameRows(run(shifted(432000)), spark.sql("SELECT day + INTERVAL '5' DAY FROM nums"))
    assertSameRows(run(shifted(-86400)), spark.sql("SELECT date_sub(day, 1) FROM nums"))
    assertRows(run(shifted(432000, "none")), Nil)
    // An hour is no whole day: refused as written.
    assert(intercept[SubstraitException](run(shifted(3600))).getCondition == "SUBSTRAIT_UNKNOWN_FUNCTION")
  }

  /** SELECT CASE k WHEN 10 THEN 'ten' WHEN 1 THEN 'one' [ELSE 'other'] END FROM `table` as DataFusion writes it. */
  private def simpleCase(producer: String, otherwise: Boolean, table: String = "nums"): Plan = {
    val clauses = Expression.IfThen.newBuilder()
      .addIfs(Expression.IfThen.IfClause.newBuilder().setIf(field(5)))
      .addIfs(Expression.IfThen.IfClause.newBuilder().setIf(litI32(10)).setThen(litString("ten")))
      .addIfs(Expression.IfThen.IfClause.newBuilder().setIf(litI32(1)).setThen(litString("one")))
    if (otherwise) clauses.setElse(litString("other"))
    stamped(new PlanBuilder().plan(emit(project(nums(table), Expression.newBuilder().setIfThen(clauses).build()), 7),
        "c"), producer, 85)
  }

  test(
    "DataFusion: a simple CASE written as an if_then whose first clause is the operand is that switch (TPC-DS q39)") {
    assert(readingsOf(simpleCase("datafusion", otherwise = true)).contains("datafusion-simple-case"))
    assertSameRows(run(simpleCase("datafusion", otherwise = true)),
      spark.sql("SELECT CASE k WHEN 10 THEN 'ten' WHEN 1 THEN 'one' ELSE 'other' END FROM nums"))
    // By hand: k is 1, 1, 10, NULL, 10, 2; a NULL k matches nothing.
    assertRows(run(simpleCase("datafusion", otherwise = false)),
      Seq(Row("one"), Row("one"), Row("ten"), Row(null), Row("ten"), Row(null)))
    assertRows(run(simpleCase("datafusion", otherwise = true, "none")), Nil)
    // The spec's if_then needs every then: another producer's plan is its error.
    assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.project.expressions[0].if_then.ifs[0]") {
      run(simpleCase("DuckDB", otherwise = true))
    }
  }

  /** SELECT day + n, n + day, day - n FROM `table` as DuckDB writes them: add:date_i32 and subtract:date_i32 declared date. */
  private def datePlusInteger(producer: String, n: Int, table: String = "nums"): Plan = {
    val b = new PlanBuilder()
    val add = b.fn("functions_datetime", "add:date_i32")
    val sub = b.fn("functions_datetime", "subtract:date_i32")
    stamped(b.plan(project(nums(table), b.callWith(add, Nil, Some(date()), field(6), litI32(n)),
          b.callWith(add, Nil, Some(date()), litI32(n), field(6)),
          b.callWith(sub, Nil, Some(date()), field(6), litI32(n))),
        "plus", "plus2", "minus"), producer, 53)
  }

  test("DuckDB: a date plus or minus an integer literal is that many days (TPC-DS q72), DuckDB's only") {
    assert(readingsOf(datePlusInteger("DuckDB", 5)).contains("duckdb-date-plus-integer"))
    Seq(5, -31, 0).foreach { n =>
      assertSameRows(run(datePlusInteger("DuckDB", n)),
        spark.sql(s"SELECT date_add(day, $n), date_add(day, $n), date_sub(day, $n) FROM nums"))
    }
    // By hand: 2020-01-31 + 29 days is 2020-02-29 (a leap year); a NULL date stays NULL.
    assert(run(datePlusInteger("DuckDB", 29)).collect().map(_.get(0)).toSet ==
      Set(java.sql.Date.valueOf("2020-02-29"), java.sql.Date.valueOf("2020-01-29"), null,
        java.sql.Date.valueOf("2021-03-30"), java.sql.Date.valueOf("2020-03-29")))
    assertRows(run(datePlusInteger("DuckDB", 5, "none")), Nil)
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
      run(datePlusInteger("someone", 5))
    }
  }

  /** SELECT constant_or_null(true, x, 1.5), constant_or_null(false, s) FROM `table`, as DuckDB's optimizer writes them. */
  private def constantOrNull(producer: String, table: String = "nums"): Plan = {
    val b = new PlanBuilder()
    val f = b.fn("functions_comparison", "constant_or_null")
    stamped(b.plan(project(nums(table),
          b.callWith(f, Nil, Some(PlanBuilder.bool()), litBool(true), field(2), litFp64(1.5)),
          b.callWith(f, Nil, Some(PlanBuilder.bool()), litBool(false), field(4))), "t", "f"), producer, 53)
  }

  test("DuckDB: constant_or_null(c, x...) is NULL when an x is NULL, else c (TPC-DS q13, q15, q48), DuckDB's only") {
    assert(readingsOf(constantOrNull("DuckDB")).contains("duckdb-constant-or-null"))
    assertSameRows(run(constantOrNull("DuckDB")),
      spark.sql(
        "SELECT CASE WHEN x IS NULL THEN NULL ELSE true END, CASE WHEN s IS NULL THEN NULL ELSE false END FROM nums"))
    // By hand: x is NULL in one row, s in another.
    assertRows(run(constantOrNull("DuckDB")),
      Seq(Row(true, false), Row(true, false), Row(true, null), Row(true, false), Row(true, false), Row(null, false)))
    assertRows(run(constantOrNull("DuckDB", "none")), Nil)
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
      run(constantOrNull("datafusion"))
    }
  }

  /**
   * SELECT CAST(x AS BIGINT), CAST(d AS INTEGER), CAST(2.5 AS BIGINT), CAST(a AS INTEGER), as DuckDB writes it (a
   * project without emit) or, for other producers, with the emit the spec needs.
   */
  private def casts(producer: String, table: String = "nums"): Plan = {
    val p = project(filter(nums(table), litBool(true)), cast(field(2), i64()), cast(field(3), i32()),
      cast(litFp64(2.5), i64()),
      cast(field(0), i32()))
    stamped(new PlanBuilder().plan(if (producer == "DuckDB") p else emit(p, 7, 8, 9, 10), "x", "d", "lit", "a"),
      producer, 53)
  }

  test("DuckDB: a cast of a typed double rounds half to even, of a decimal half away from zero") {
    assert(readingsOf(casts("DuckDB")).contains("duckdb-rounding-cast"))
    // DuckDB 1.0.0 and 1.1.3's rows: CAST(2.5::DOUBLE AS BIGINT) is 2, CAST(-2.5::DECIMAL AS INTEGER) is -3.
    assertRows(run(casts("DuckDB")),
      Seq(Row(2L, 3, 2L, 7), Row(2L, 3, 2L, 7), Row(-2L, -3, 2L, -7), Row(0L, 1, 2L, 7),
        Row(2L, -2, 2L, null), Row(null, null, 2L, 5)))
    assertRows(run(casts("DuckDB", "none")), Nil)
    // Another producer's cast truncates, as the spec's and Spark's do.
    assert(readingsOf(casts("someone")).isEmpty)
    assertSameRows(run(casts("someone")),
      spark.sql("SELECT CAST(x AS BIGINT), CAST(d AS INT), CAST(2.5D AS BIGINT), CAST(a AS INT) FROM nums"))
  }

  test("the cast readings are walked only for plans that hold a cast, as the decoder's census of message types says") {
    val withCasts = casts("DuckDB")
    val census = Set(Expression.Cast.getDescriptor)
    assert(io.sparksubstrait.decode.readings.ProducerReadings.atDecode(withCasts, census)._2.map(_.name).contains(
        "duckdb-rounding-cast"))
    // Told the plan holds no cast, the decoder does not walk it for the cast readings (the census is never wrong: no
    // legacy lift or reading creates a cast, and the decoder takes the census of the plan it reads).
    assert(!io.sparksubstrait.decode.readings.ProducerReadings.atDecode(withCasts, _ => false)._2.map(_.name).contains(
        "duckdb-rounding-cast"))
    // A DuckDB plan without casts reads as before.
    val plain = stamped(new PlanBuilder().plan(project(nums("nums"), field(2)), "x"), "DuckDB", 53)
    assertSameRows(run(plain), spark.sql("SELECT x FROM nums"))
  }

  test("DuckDB: a cast of an aggregate's typed measure rounds too") {
    // SELECT k, CAST(AVG(x) AS BIGINT), CAST(SUM(d) AS INTEGER) FROM grp GROUP BY k, as DuckDB writes it.
    val b = new PlanBuilder()
    val avg = b.fn("functions_arithmetic", "avg:fp64")
    val sum = b.fn("functions_arithmetic", "sum:decimal")
    val agg = aggregate(readNamed(schema("k" -> i32(), "x" -> fp64(), "d" -> decimal(4, 1)), "grp"), Seq(field(0)),
      Seq(b.measure(avg, Seq(field(1)), output = Some(fp64())),
        b.measure(sum, Seq(field(2)), output = Some(decimal(38, 1)))))
    val plan =
      stamped(b.plan(project(agg, field(0), cast(field(1), i64()), cast(field(2), i32())), "k", "a", "s"), "DuckDB", 53)
    assert(readingsOf(plan).contains("duckdb-rounding-cast"))
    // DuckDB 1.1.3's rows: AVG 1.25 -> 1, 2.5 -> 2 (half to even), 1.5 -> 2; SUM 2.5 -> 3, -5.0 -> -5 (half away from zero).
    assertRows(run(plan), Seq(Row(1, 1L, 3), Row(2, 2L, -5), Row(3, null, null), Row(null, 2L, 2)))
  }
}
