package io.sparksubstrait
package write

import scala.jdk.CollectionConverters._

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.testing.{Datasets, RoundTrips}

/**
 * Writing each expression kind, round trip first (over Parquet data, so nothing is folded
 * away): the rows read back are the rows Spark computes.
 */
class WriteExpressionsSuite extends RoundTrips {
  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerNums(spark)
    Datasets.registerPeople(spark)
    Seq("nums", "people").foreach(asParquet)
    parquetView("f",
      "SELECT * FROM VALUES (0.0D, 1.0F), (-0.0D, -0.0F), (CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT)), " +
        "(NULL, NULL), (2.5D, 2.5F) AS t(x, y)")
    parquetView("small", "SELECT CAST(d AS DECIMAL(7,2)) AS d, s FROM nums WHERE d IS NULL OR abs(d) < 1000")
  }

  test("field references and literals of every type the reader reads") {
    roundTripSql("""SELECT a, true AS bo, CAST(1 AS TINYINT) AS i8, CAST(2 AS SMALLINT) AS i16, 3 AS i32, 4L AS i64,
      CAST(1.5 AS FLOAT) AS f32, 2.5D AS f64, 'text' AS str, X'00ff' AS bin, DATE'2024-02-29' AS dt,
      TIMESTAMP'2024-02-29 12:34:56.789012' AS ts, TIMESTAMP_NTZ'2024-02-29 12:34:56.5' AS ntz,
      -12345678901234567890.123456BD AS dec, INTERVAL '3-2' YEAR TO MONTH AS ym,
      INTERVAL '-1 02:03:04.000005' DAY TO SECOND AS dts, array(1, 2, NULL) AS arr, CAST(array() AS ARRAY<INT>) AS empty_arr,
      map('k', 1) AS m, named_struct('x', 1, 'y', 'z') AS st, CAST(NULL AS INT) AS n_i32, CAST(NULL AS DECIMAL(5,1)) AS n_dec
      FROM nums""")
  }

  test("arithmetic with NULLs: integers, doubles, decimals (Spark's declared result types)") {
    roundTripSql(
      "SELECT a + b, a - b, a * b, -a, abs(a), x + y, x * y, x / y, d + e, d - e, d * e, d / e, -d, abs(d) FROM nums")
    roundTripSql("SELECT a div b, a % b FROM nums WHERE b <> 0")
  }

  test("division by zero and overflow keep Spark's mode: ANSI raises, legacy gives NULL") {
    withConf("spark.sql.ansi.enabled", "false") {
      roundTripSql("SELECT x / (y - y) AS q, a div 0 AS i, d / (e - e) AS dq FROM nums")
    }
    val ansi = spark.sql("SELECT a div (b - b) AS q FROM nums")
    val e = intercept[Exception](SubstraitPlans.read(spark, SubstraitPlans.write(ansi)).collect())
    assert(causes(e).exists {
        case s: io.sparksubstrait.errors.SubstraitException => s.getCondition == "SUBSTRAIT_DIVISION_BY_ZERO"
        case _ => false
      }, e.getMessage)
  }

  test("comparisons, boolean logic, IS NULL, null-safe equality, coalesce, greatest / least") {
    roundTripSql("""SELECT a = b, a < b, a <= b, a > b, a >= b, a <=> b, a <> b, p AND q, p OR q, NOT p,
      x IS NULL, s IS NOT NULL, coalesce(x, y, 0.0D), greatest(a, b), least(x, y) FROM nums""")
  }

  test("CASE, IF, IN lists (with NULLs) and the optimizer's InSet") {
    roundTripSql(
      "SELECT CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' END, IF(p, s, 'none'), CASE a WHEN 7 THEN 1 ELSE 0 END FROM nums")
    roundTripSql("SELECT a IN (7, 0, NULL) AS i, s IN ('x', 'z') AS j, a NOT IN (1, 2) AS k FROM nums")
    roundTripSql(s"SELECT * FROM nums WHERE a IN (${(0 to 30).mkString(", ")})")
  }

  test("casts: ANSI, TRY, and legacy where its failures are NULLs") {
    roundTripSql(
      "SELECT CAST(a AS BIGINT), CAST(a AS STRING), CAST(d AS DOUBLE), CAST(x AS DECIMAL(10,3)), try_cast(s AS INT), CAST(dt AS TIMESTAMP) FROM nums")
    withConf("spark.sql.ansi.enabled", "false") {
      roundTripSql("SELECT CAST(s AS INT) AS i, CAST(x AS DECIMAL(3,1)) AS d, CAST(a AS BIGINT) AS l FROM nums")
    }
  }

  test("strings: LIKE and the optimizer's StartsWith / EndsWith / Contains, substring, upper, lower, length, concat") {
    roundTripSql("""SELECT name LIKE 'a%', name LIKE '%n', name LIKE '%a%', name LIKE 'a_n%e', substring(name, 1, 2),
      upper(name), lower(grp), length(name), concat(name, grp) FROM people""")
    roundTripSql("SELECT * FROM people WHERE name LIKE 'a%' OR name LIKE '%t' OR name LIKE '%a%' OR name LIKE 'b_b'")
  }

  test("isnan: Spark's is false for NULL (Substrait's is_nan gives NULL)") {
    roundTripSql("SELECT x, isnan(x) AS n, NOT isnan(y) AS m FROM f")
  }

  test("date parts") {
    roundTripSql("SELECT year(dt), month(dt), day(dt), quarter(dt) FROM nums")
  }

  test("scalar subqueries: uncorrelated (optimized), correlated (analyzed, outer references)") {
    roundTripSql("SELECT a, (SELECT max(b) FROM nums) AS m FROM nums")
    roundTripSql("SELECT * FROM nums WHERE x > (SELECT avg(x) FROM nums)")
    roundTripSql("SELECT a, (SELECT max(n2.b) FROM nums n2 WHERE n2.a = n1.a) AS m FROM nums n1", optimized = false)
    roundTripSql("SELECT * FROM people pp WHERE EXISTS (SELECT 1 FROM nums n WHERE n.a = pp.id)", optimized = false)
    roundTripSql("SELECT * FROM people WHERE id IN (SELECT a FROM nums)", optimized = false)
  }

  test("float normalization before grouping and joining: -0.0 and NaN as Spark groups them") {
    roundTripSql("SELECT x, count(*) AS n FROM f GROUP BY x")
    roundTripSql("SELECT y, count(*) AS n FROM f GROUP BY y")
    roundTripSql("SELECT * FROM f a JOIN f b ON a.x = b.x")
  }

  test("the optimizer's decimal helpers (sum and avg of small decimals as unscaled longs)") {
    val plan = roundTripSql("SELECT s, sum(d) AS sd, avg(d) AS ad FROM small GROUP BY s")
    assert(
      spark.sql("SELECT s, sum(d) FROM small GROUP BY s").queryExecution.optimizedPlan.toString.contains("MakeDecimal"))
    assert(plan.toString.contains("decimal"))
  }

  /**
   * Each query's optimized plan has the optimizer's unscaled form (`marker`); written, it calls
   * `written` and no `literal` function; read back, its physical plan passes `physical`. Rows
   * against Spark SQL's (roundTripSql).
   */
  private def assertWrittenAs(sqls: Seq[String], marker: String, written: String, literal: String)(
    physical: String => Boolean): Unit =
    sqls.foreach { sql =>
      assert(spark.sql(sql).queryExecution.optimizedPlan.toString.contains(marker), sql)
      val plan = roundTripSql(sql)
      val names =
        plan.getExtensionsList.asScala.toSeq.filter(_.hasExtensionFunction).map(_.getExtensionFunction.getName)
      assert(names.exists(_.startsWith(written)) && !names.exists(_.startsWith(literal)), s"$sql: $names")
      val back = SubstraitPlans.read(spark, plan.toByteArray)
      back.collect()
      val executed = back.queryExecution.executedPlan.toString
      assert(physical(executed), s"$sql:\n$executed")
    }

  test("a small decimal's sum, which the optimizer sums as unscaled longs, is written as the decimal sum") {
    assertWrittenAs(
      Seq(
        "SELECT s, sum(d) AS sd FROM small GROUP BY s",
        "SELECT s, d, sum(d) OVER (PARTITION BY s) AS w FROM small",
        "SELECT sum(d) AS sd FROM small WHERE s = 'no such s'", // no rows: NULL
        "SELECT s, sum(d) AS sd, sum(DISTINCT d) AS dd FROM small GROUP BY s"),
      "MakeDecimal", "sum:dec", "multiply") {
      // Read back, Spark sums the decimals as for the SQL: its own long path, not an exact i64 sum.
      physical => physical.contains("UnscaledValue") && !physical.contains("exact_sum")
    }
  }

  test(
    "a small decimal's avg, which the optimizer averages as unscaled longs in doubles, is written as the decimal avg") {
    assertWrittenAs(
      Seq(
        "SELECT s, avg(d) AS ad FROM small GROUP BY s",
        "SELECT s, d, avg(d) OVER (PARTITION BY s) AS w FROM small",
        "SELECT avg(d) AS ad FROM small WHERE s = 'no such s'", // no rows: NULL
        "SELECT s, avg(d) AS ad, avg(DISTINCT d) AS dd, sum(d) AS sd FROM small GROUP BY s",
        "SELECT avg(d) AS ad FROM small WHERE d IS NULL"), // only NULLs: NULL
      "UnscaledValue", "avg:dec", "divide") {
      // Read back, the decimal mean sums unscaled longs: no multiply, cast or division per row.
      physical =>
        !physical.contains("exact_range_avg") && !physical.contains("IeeeMath") && !physical.contains(" * 100")
    }
  }

  test("sums and averages of doubles are written overflow SILENT in both modes (Spark's double adds never raise)") {
    def overflowOptions(plan: io.sparksubstrait.proto.Plan): Seq[String] = {
      val found = scala.collection.mutable.Buffer[String]()
      def walk(m: com.google.protobuf.Message): Unit = m.getAllFields.asScala.foreach {
        case (fd, v) if fd.getName == "options" =>
          v.asInstanceOf[java.util.List[_]].asScala.foreach {
            case o: io.sparksubstrait.proto.FunctionOption if o.getName == "overflow" =>
              found ++= o.getPreferenceList.asScala
            case _ =>
          }
        case (fd, v: java.util.List[_]) =>
          v.asScala.foreach { case x: com.google.protobuf.Message => walk(x); case _ => }
        case (_, v: com.google.protobuf.Message) => walk(v)
        case _ =>
      }
      walk(plan)
      found.toSeq
    }
    for (ansi <- Seq("true", "false")) withConf("spark.sql.ansi.enabled", ansi) {
      // Doubles (with NaN, -0.0, NULL) and Spark's average of integers, which it takes in doubles.
      val sql = "SELECT sum(x) AS sx, avg(x) AS ax, avg(CAST(y AS DOUBLE)) AS ay FROM f"
      val plan = roundTripSql(sql)
      assert(overflowOptions(plan).toSet == Set("SILENT"), s"ANSI $ansi: ${overflowOptions(plan)}")
      val ints = roundTripSql("SELECT avg(a) AS aa FROM nums")
      assert(overflowOptions(ints).toSet == Set("SILENT"), s"ANSI $ansi: ${overflowOptions(ints)}")
      // An integer sum keeps the mode: ERROR under ANSI.
      val intSum = roundTripSql("SELECT sum(a) AS sa FROM nums")
      assert(overflowOptions(intSum) == Seq(if (ansi == "true") "ERROR" else "SILENT"), overflowOptions(intSum))
      val back = SubstraitPlans.read(spark, plan.toByteArray)
      back.collect()
      assert(!back.queryExecution.executedPlan.toString.contains("exact_range"), back.queryExecution.executedPlan)
    }
  }

  test("unwritable expressions: one clear error naming the expression") {
    assertUnwritable(spark.sql("SELECT pmod(a, b) FROM nums"), "pmod")
    assertUnwritable(spark.sql("SELECT try_add(a, b) FROM nums"), "add")
    assertUnwritable(spark.sql("SELECT substring(s, 0, 1) FROM nums"), "substring")
    assertUnwritable(spark.sql("SELECT hash(a) FROM nums"), "hash")
    assertUnwritable(spark.sql("SELECT max(s) FROM nums"), "max")
    withConf("spark.sql.ansi.enabled", "false") {
      val e = assertUnwritable(spark.sql("SELECT CAST(a AS TINYINT) FROM nums"), "legacy cast")
      assert(e.getMessage.contains("Project > column"), e.getMessage)
    }
  }
}
