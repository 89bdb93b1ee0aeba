package io.sparksubstrait
package convert.functions

import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Every mapped comparison, boolean and arithmetic function against Spark SQL on the same
 * rows (NULLs, duplicates, negatives, zeros), or against rows worked out by hand where the
 * Substrait semantics differ from Spark's built-in (is_nan, least, greatest, xor).
 */
class FunctionsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerNums(spark) }

  private val (a, b, x, y, p, q, d, e, dt, s) = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)

  /** Projects one function call over `nums` and returns the plan. */
  private def fnPlan(ext: String, name: String, args: io.sparksubstrait.proto.Expression*)(
    options: (String, Seq[String])*): io.sparksubstrait.proto.Plan = {
    val pb = new PlanBuilder()
    val call = pb.callWith(pb.fn(ext, name), options, None, args: _*)
    pb.plan(emit(project(readNamed(Datasets.numsSchema, "nums"), call), 10), "r")
  }

  private def check(ext: String, name: String, args: Int*)(sql: String): Unit =
    test(s"$ext $name vs SQL $sql") {
      assertSameRows(run(fnPlan(ext, name, args.map(field): _*)()), spark.sql(s"SELECT $sql AS r FROM nums"))
    }

  // comparison
  check("functions_comparison", "equal:any_any", a, b)("a = b")
  check("functions_comparison", "not_equal:any_any", a, b)("a <> b")
  check("functions_comparison", "lt:any_any", x, y)("x < y")
  check("functions_comparison", "gt:any_any", d, e)("d > e")
  check("functions_comparison", "lte:any_any", dt, dt)("dt <= dt")
  check("functions_comparison", "gte:any_any", s, s)("s >= s")
  check("functions_comparison", "is_not_distinct_from:any_any", p, q)("p <=> q")
  check("functions_comparison", "is_distinct_from:any_any", p, q)("NOT (p <=> q)")
  check("functions_comparison", "between:any_any_any", a, b, a)("a BETWEEN b AND a")
  check("functions_comparison", "is_null:any", x)("x IS NULL")
  check("functions_comparison", "is_not_null:any", s)("s IS NOT NULL")
  check("functions_comparison", "is_true:bool", p)("p IS TRUE")
  check("functions_comparison", "is_not_true:bool", p)("p IS NOT TRUE")
  check("functions_comparison", "is_false:bool", q)("q IS FALSE")
  check("functions_comparison", "is_not_false:bool", q)("q IS NOT FALSE")
  check("functions_comparison", "nullif:any_any", a, b)("nullif(a, b)")
  check("functions_comparison", "coalesce:any", x, y)("coalesce(x, y)")
  check("functions_comparison", "least_skip_null:any", x, y)("least(x, y)")
  check("functions_comparison", "greatest_skip_null:any", x, y)("greatest(x, y)")
  // boolean (Kleene logic)
  check("functions_boolean", "and:bool", p, q)("p AND q")
  check("functions_boolean", "or:bool", p, q)("p OR q")
  check("functions_boolean", "not:bool", p)("NOT p")
  check("functions_boolean", "and_not:bool_bool", p, q)("p AND NOT q")
  // arithmetic, integers (Spark SQL's defaults for overflow, as the plan leaves it open)
  check("functions_arithmetic", "add:i32_i32", a, b)("a + b")
  check("functions_arithmetic", "subtract:i32_i32", a, b)("a - b")
  check("functions_arithmetic", "multiply:i32_i32", a, b)("a * b")
  check("functions_arithmetic", "divide:i32_i32", a, b)("CAST(a DIV b AS INT)")
  check("functions_arithmetic", "modulus:i32_i32", a, b)("a % b")
  check("functions_arithmetic", "negate:i32", a)("-a")
  check("functions_arithmetic", "abs:i32", a)("abs(a)")
  check("functions_arithmetic", "sign:i32", a)("CAST(sign(a) AS INT)")
  // arithmetic, floating point
  check("functions_arithmetic", "add:fp64_fp64", x, y)("x + y")
  check("functions_arithmetic", "divide:fp64_fp64", x, y)("x / y")
  check("functions_arithmetic", "power:fp64_fp64", x, y)("power(x, y)")
  check("functions_arithmetic", "atan2:fp64_fp64", x, y)("atan2(x, y)")
  for (f <-
      Seq("sqrt", "exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh",
        "radians", "degrees")) {
    check("functions_arithmetic", s"$f:fp64", y)(s"$f(y)")
  }
  // arithmetic, decimal
  check("functions_arithmetic_decimal", "add:decimal_decimal", d, e)("d + e")
  check("functions_arithmetic_decimal", "subtract:decimal_decimal", d, e)("d - e")
  check("functions_arithmetic_decimal", "multiply:decimal_decimal", d, e)("d * e")
  check("functions_arithmetic_decimal", "divide:decimal_decimal", d, e)("d / e")
  check("functions_arithmetic_decimal", "modulus:decimal_decimal", d, e)("d % e")
  check("functions_arithmetic_decimal", "abs:decimal", d)("abs(d)")

  test("decimal arithmetic on different precisions has Spark SQL's result types and values") {
    val one = litDecimal(new java.math.BigDecimal("3"), 20, 0)
    for ((f, op) <- Seq("add" -> "+", "subtract" -> "-", "multiply" -> "*", "divide" -> "/")) {
      val df = run(fnPlan("functions_arithmetic_decimal", s"$f:decimal_decimal", field(d), one)())
      val expected = spark.sql(s"SELECT d $op CAST(3 AS DECIMAL(20,0)) AS r FROM nums")
      assert(df.schema.head.dataType == expected.schema.head.dataType, f)
      assertSameRows(df, expected)
    }
  }

  test("datetime: date plus or minus year-month and day-time intervals") {
    val pb = new PlanBuilder()
    val add = pb.fn("functions_datetime", "add:date_iyear")
    val sub = pb.fn("functions_datetime", "subtract:date_iday")
    val plan = pb.plan(emit(project(readNamed(Datasets.numsSchema, "nums"),
          pb.call(add, field(dt), litIntervalYear(1, 2)), pb.call(sub, field(dt), litIntervalDay(120, 0))), 10, 11),
      "r1", "r2")
    assertSameRows(run(plan), spark.sql("SELECT dt + INTERVAL '1-2' YEAR TO MONTH, dt - INTERVAL '120' DAY FROM nums"))
  }

  test("semantics Spark's built-ins lack: is_nan / is_finite / is_infinite of NULL, least / greatest with NULL, xor") {
    val pb = new PlanBuilder()
    val sch = schema("u" -> fp64(), "v" -> fp64(), "p" -> bool(), "q" -> bool())
    val n = litNull(fp64())
    val nb = litNull(bool())
    val rows = Seq(
      Seq(litFp64(Double.NaN), litFp64(1.0), litBool(true), litBool(true)),
      Seq(n, litFp64(2.0), litBool(true), litBool(false)),
      Seq(litFp64(Double.PositiveInfinity), n, litBool(false), nb),
      Seq(litFp64(-1.0), litFp64(3.0), nb, litBool(true)))
    val calls = Seq("is_nan:fp64" -> Seq(0), "is_finite:fp64" -> Seq(0), "is_infinite:fp64" -> Seq(0),
      "least:any" -> Seq(0, 1), "greatest:any" -> Seq(0, 1)).map { case (f, args) =>
      pb.call(pb.fn("functions_comparison", f), args.map(field): _*)
    } :+ pb.call(pb.fn("functions_boolean", "xor:bool_bool"), field(2), field(3))
    val df = run(pb.plan(emit(project(readVirtual(sch, rows), calls: _*), 4, 5, 6, 7, 8, 9), "nan", "fin", "inf", "lst",
        "gst", "xor"))
    assertRows(df,
      Seq(
        // Spark orders NaN above every double, so greatest(NaN, 1) is NaN, least is 1.
        Row(true, false, false, 1.0, Double.NaN, false),
        Row(null, null, null, null, null, true),
        Row(false, false, true, null, null, null),
        Row(false, true, false, -1.0, 3.0, null)), ordered = true)
  }

  test("options: overflow ERROR / SILENT / SATURATE, division by zero NULL, unknown option refused") {
    val pb = new PlanBuilder()
    val add = pb.fn("functions_arithmetic", "add:i32_i32")
    val div = pb.fn("functions_arithmetic", "divide:i32_i32")
    def one(e: io.sparksubstrait.proto.Expression) =
      pb.plan(emit(project(readVirtual(schema("z" -> i32()), Seq(Seq(litI32(0)))), e), 1), "r")
    val max = litI32(Int.MaxValue)
    assertRows(run(one(pb.callWith(add, Seq("overflow" -> Seq("SILENT")), None, max, litI32(1)))),
      Seq(Row(Int.MinValue)))
    val err =
      intercept[Exception](run(one(pb.callWith(add, Seq("overflow" -> Seq("ERROR")), None, max, litI32(1)))).collect())
    assert(err.getMessage.contains("ARITHMETIC_OVERFLOW"), err.getMessage)
    // The first preference wins: integers saturate (clamp to the type's range).
    assertRows(run(one(pb.callWith(add, Seq("overflow" -> Seq("SATURATE", "SILENT")), None, max, litI32(1)))),
      Seq(Row(Int.MaxValue)))
    assertRows(run(one(pb.callWith(add, Seq("overflow" -> Seq("SILENT", "SATURATE")), None, max, litI32(1)))),
      Seq(Row(Int.MinValue)))
    assertRows(run(one(pb.callWith(add, Seq("overflow" -> Seq("SATURATE")), None, litI32(Int.MinValue), litI32(-1)))),
      Seq(Row(Int.MinValue)))
    assertRows(run(one(pb.callWith(add, Seq("overflow" -> Seq("SATURATE")), None, litI32(5), litNull(i32())))),
      Seq(Row(null)))
    // Floating point has no saturation: refused.
    val addF = pb.fn("functions_arithmetic", "add:fp64_fp64")
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FUNCTION_OPTION",
      "relations[0].root.input.project.expressions[0].scalar_function") {
      run(one(pb.callWith(addF, Seq("overflow" -> Seq("SATURATE")), None, litFp64(1.0), litFp64(2.0))))
    }
    assertRows(run(one(pb.callWith(div, Seq("on_division_by_zero" -> Seq("NULL")), None, litI32(1), litI32(0)))),
      Seq(Row(null)))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FUNCTION_OPTION",
      "relations[0].root.input.project.expressions[0].scalar_function") {
      run(one(pb.callWith(add, Seq("no_such_option" -> Seq("X")), None, max, litI32(1))))
    }
  }

  test("output_type: a wider numeric type is honoured with a cast; a wrong kind is an error") {
    val pb = new PlanBuilder()
    val add = pb.fn("functions_arithmetic", "add:i32_i32")
    def one(out: io.sparksubstrait.proto.Type) =
      pb.plan(emit(project(readVirtual(schema("z" -> i32()), Seq(Seq(litI32(20)))),
            pb.callWith(add, Nil, Some(out), field(0), litI32(1))), 1), "r")
    val df = run(one(i64()))
    assert(df.schema.head.dataType == org.apache.spark.sql.types.LongType)
    assertRows(df, Seq(Row(21L)))
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH",
      "relations[0].root.input.project.expressions[0].scalar_function.output_type") {
      run(one(string()))
    }
  }

  test(
    "decimal multiply with a declared type other than Spark's: the exact product in that type, NULLs, overflow as a cast") {
    // DuckDB's shapes: DECIMAL(15,2) × DECIMAL(15,2) declared DECIMAL(18,4) (TPC-H Q6), and
    // factors widened to DECIMAL(34,·) declared DECIMAL(34,2) (Q11). In the last row u × v is
    // out of DECIMAL(18,4)'s range, and u × n (past a long) still fits DECIMAL(34,2).
    spark.sql("""CREATE OR REPLACE TEMP VIEW prods AS SELECT CAST(u AS DECIMAL(15,2)) u, CAST(v AS DECIMAL(15,2)) v,
      CAST(n AS BIGINT) n FROM VALUES (10.25, 0.05, 3), (-99999.99, 0.10, -7), (NULL, 0.05, NULL), (10.25, 0.05, 3),
      (0.01, -0.01, 0), (7.00, NULL, 9223372036854775807), (9999999999999.99, 9999999999999.99, 9223372036854775807) AS t(u, v, n)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW prods_fit AS SELECT * FROM prods WHERE u IS NULL OR u < 1000000")
    spark.sql("CREATE OR REPLACE TEMP VIEW prods_empty AS SELECT * FROM prods WHERE false")
    val sch = schema("u" -> decimal(15, 2), "v" -> decimal(15, 2), "n" -> i64())
    val pb = new PlanBuilder()
    val mul = pb.fn("functions_arithmetic_decimal", "multiply:decimal_decimal")
    def plan(table: String, product: io.sparksubstrait.proto.Expression) =
      pb.plan(emit(project(readNamed(sch, table), product), 3), "r")
    val narrow = pb.callWith(mul, Nil, Some(decimal(18, 4)), field(0), field(1))
    val widened =
      pb.callWith(mul, Nil, Some(decimal(34, 2)), cast(field(0), decimal(34, 2)), cast(field(2), decimal(34, 0)))
    val narrowSql = "SELECT CAST(u * v AS DECIMAL(18,4)) FROM "
    val widenedSql = "SELECT CAST(CAST(u AS DECIMAL(34,2)) * CAST(n AS DECIMAL(34,0)) AS DECIMAL(34,2)) FROM "
    for ((product, sql, types) <- Seq((narrow, narrowSql, (18, 4)), (widened, widenedSql, (34, 2)))) {
      val df = run(plan("prods_fit", product))
      assert(df.schema.head.dataType == org.apache.spark.sql.types.DecimalType(types._1, types._2))
      assertSameRows(df, spark.sql(sql + "prods_fit"))
      assertSameRows(run(plan("prods_empty", product)), spark.sql(sql + "prods_empty"))
    }
    assertSameRows(run(plan("prods", widened)), spark.sql(widenedSql + "prods"))
    // Out of DECIMAL(18,4): an error under ANSI, NULL without, as Spark SQL's cast.
    withConf("spark.sql.ansi.enabled", "true") {
      val err = intercept[Exception](run(plan("prods", narrow)).collect())
      assert(err.getMessage.contains("NUMERIC_VALUE_OUT_OF_RANGE"), err.getMessage)
    }
    withConf("spark.sql.ansi.enabled", "false") {
      assertSameRows(run(plan("prods", narrow)), spark.sql(narrowSql + "prods"))
      assertSameRows(run(plan("prods", widened)), spark.sql(widenedSql + "prods"))
    }
  }

  test("avg with a declared floating-point result is the floating-point mean") {
    val pb = new PlanBuilder()
    val avg = pb.fn("functions_arithmetic_decimal", "avg:decimal")
    val df = run(pb.plan(aggregate(readNamed(Datasets.numsSchema, "nums"), Nil,
          Seq(pb.measure(avg, Seq(field(d)), output = Some(fp64())))), "m"))
    assertSameRows(df, spark.sql("SELECT avg(CAST(d AS DOUBLE)) FROM nums"))
  }

  test("aggregates: sum, avg, min, max, count over NULLs and duplicates") {
    val pb = new PlanBuilder()
    val ms = Seq("sum:i32" -> a, "avg:fp64" -> x, "min:any" -> s, "max:any" -> d, "count:any" -> p, "sum:decimal" -> e,
      "avg:decimal" -> d)
      .map { case (f, col) =>
        val ext = if (f.startsWith("count")) "functions_aggregate_generic"
        else if (f.endsWith("decimal")) "functions_arithmetic_decimal" else "functions_arithmetic"
        pb.measure(pb.fn(ext, f), Seq(field(col)))
      }
    val df = run(pb.plan(aggregate(readNamed(Datasets.numsSchema, "nums"), Seq(field(s)), ms), "s", "m1", "m2", "m3",
        "m4", "m5", "m6", "m7"))
    assertSameRows(df,
      spark.sql("SELECT s, sum(a), avg(x), min(s), max(d), count(p), sum(e), avg(d) FROM nums GROUP BY s"))
  }

  // Mapped functions the spec's test files do not cover (dev/function-tests covers the rest).
  check("functions_string", "initcap:str", s)("initcap(s)")
  check("functions_string", "strpos:str_str", s, s)("CAST(locate(s, s) AS BIGINT)")
  check("functions_logarithmic", "log1p:fp64", x)(
    "CASE WHEN x < -1 THEN double('NaN') WHEN x = -1 THEN double('-Infinity') ELSE log1p(x) END")
  // logb(x, base): x first, as the YAML's arguments are (and DataFusion writes them). Ours is
  // correctly rounded: an exact power of the base is its exponent (SQL's quotient of two
  // rounded logarithms can miss it by an ulp: ln(9) / ln(3) = 2.0000000000000004).
  check("functions_logarithmic", "logb:fp64_fp64", x, y)(
    "CASE WHEN y <= 0 OR y = 1 OR x < 0 THEN double('NaN') WHEN x = 0 THEN double('-Infinity') " +
      "WHEN pow(y, round(ln(x) / ln(y))) = x THEN round(ln(x) / ln(y)) ELSE ln(x) / ln(y) END")

  test("aggregates: corr, variance, std_dev, bool_and, bool_or over NULLs and duplicates") {
    val pb = new PlanBuilder()
    val ms = Seq(("functions_arithmetic", "corr:fp64_fp64", Seq(x, y)),
      ("functions_arithmetic", "variance:fp64", Seq(x)),
      ("functions_arithmetic", "std_dev:fp64", Seq(y)), ("functions_boolean", "bool_and:bool", Seq(p)),
      ("functions_boolean", "bool_or:bool", Seq(q)))
      .map { case (ext, f, cols) => pb.measure(pb.fn(ext, f), cols.map(field)) }
    // Before Spark 4.3 corr divides by zero under ANSI for a group whose values do not vary,
    // in SQL as well (4.3 gives NULL): there both sides run without ANSI.
    val oldCorr = Seq("3.", "4.0.", "4.1.", "4.2.").exists(org.apache.spark.SPARK_VERSION.startsWith)
    withConf("spark.sql.ansi.enabled", (!oldCorr).toString) {
      val df = run(pb.plan(aggregate(readNamed(Datasets.numsSchema, "nums"), Seq(field(s)), ms), "s", "m1", "m2", "m3",
          "m4", "m5"))
      // Ours is exact (ExactMoments); an undefined r (one pair, a constant column) is IEEE's 0/0,
      // NaN, where SQL's corr gives NULL: NULL only without pairs.
      assertSameRows(df,
        spark.sql("SELECT s, CASE WHEN count(x + y) > 0 THEN coalesce(corr(x, y), double('NaN')) END, " +
          "var_samp(x), stddev_samp(y), bool_and(p), bool_or(q) FROM nums GROUP BY s"))
    }
  }
}
