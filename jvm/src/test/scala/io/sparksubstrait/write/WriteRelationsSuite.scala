package io.sparksubstrait
package write

import io.sparksubstrait.proto.Rel
import io.sparksubstrait.testing.{Datasets, RoundTrips}
import io.sparksubstrait.write.{PlanWriter, WriteTarget}

/**
 * Writing each Catalyst operator, round trip first: written, read back through our reader,
 * the same rows as Spark's (NULLs, duplicates, empty inputs).
 */
class WriteRelationsSuite extends RoundTrips {
  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerNums(spark)
    Datasets.registerPeople(spark)
    Seq("nums", "people").foreach(asParquet)
    parquetView("l", "SELECT * FROM VALUES (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (4, NULL) AS t(k, v)")
    parquetView("r", "SELECT * FROM VALUES (2, 'x'), (2, 'y'), (3, 'z'), (NULL, 'm'), (4, 'x') AS t(k, w)")
    parquetView("r0", "SELECT * FROM VALUES (2, 'x') AS t(k, w) WHERE false")
  }

  private def kinds(rel: Rel): Seq[String] = {
    val kind = rel.getRelTypeCase.name().toLowerCase
    val fields = rel.getAllFields.values().toArray.toSeq.flatMap {
      case m: com.google.protobuf.Message => m.getAllFields.values().toArray.toSeq
      case _ => Nil
    }
    kind +: fields.flatMap {
      case r: Rel => kinds(r)
      case l: java.util.List[_] => l.toArray.toSeq.collect { case r: Rel => r }.flatMap(kinds)
      case _ => Nil
    }
  }
  private def relKinds(sql: String, optimized: Boolean = true): Seq[String] =
    kinds(PlanWriter.write(spark.sql(sql), optimized).getRelations(0).getRoot.getInput)

  test("a file relation is LocalFiles, projected and filtered") {
    val plan = roundTripSql("SELECT a, s FROM nums WHERE a > 0")
    val kinds = relKinds("SELECT a, s FROM nums WHERE a > 0")
    assert(kinds.contains("read") && kinds.contains("filter") && kinds.contains("project"), kinds)
    assert(plan.getVersion.getProducer == "spark-substrait" && plan.getVersion.getMinorNumber == 108)
    assert(plan.getExtensionUrnsList.toString.contains("extension:io.substrait:functions_comparison"))
  }

  test("project with computed columns, NULLs and duplicates") {
    roundTripSql("SELECT a + b AS ab, a, s, d * e AS de FROM nums")
  }

  test("filter on NULLs") {
    roundTripSql("SELECT * FROM nums WHERE x IS NULL OR s IS NULL")
    roundTripSql("SELECT * FROM people WHERE name IS NOT NULL AND score > 0")
  }

  test("aggregates: grouped, global, over empty input, DISTINCT, FILTER, expressions over aggregates") {
    roundTripSql("SELECT s, count(*) AS n, sum(a) AS sa, min(x) AS mx, max(d) AS md, avg(d) AS ad FROM nums GROUP BY s")
    roundTripSql(
      "SELECT count(*) AS n, sum(d) AS sd, avg(x) AS ax, avg(a) AS aa, avg(CAST(b AS FLOAT)) AS af FROM nums")
    roundTripSql("SELECT count(*) AS n, sum(k) AS s, max(k) IS NULL AS m FROM r0")
    roundTripSql("SELECT count(k) AS n, sum(k) AS s FROM r0 GROUP BY w")
    roundTripSql("SELECT count(DISTINCT s) AS ds, count(s) AS cs FROM nums")
    roundTripSql("SELECT s, sum(a) FILTER (WHERE b > 0) AS f, sum(a) + 1 AS plus FROM nums GROUP BY s")
    roundTripSql("SELECT a + b AS k, count(*) AS n FROM nums GROUP BY a + b")
  }

  test("GROUPING SETS, ROLLUP and CUBE, with NULL keys, over empty input too") {
    roundTripSql("SELECT s, a, count(*) AS n, sum(b) AS sb FROM nums GROUP BY ROLLUP(s, a)")
    roundTripSql("SELECT s, p, avg(x) AS ax FROM nums GROUP BY CUBE(s, p)")
    roundTripSql("SELECT k, w, count(*) AS n FROM r GROUP BY GROUPING SETS ((k), (w), ())")
    roundTripSql("SELECT k, count(*) AS n FROM r0 GROUP BY GROUPING SETS ((k), ())")
    assertUnwritable(spark.sql("SELECT k, count(*) AS n FROM r GROUP BY GROUPING SETS ((k), (k))"),
      "repeated grouping set")
  }

  test(
    "target datafusion-55: grouping sets as a UNION ALL of one aggregate per set, NULL keys, GROUPING(), empty input") {
    def unionOfSets(sql: String, sets: Int): Unit = {
      val plan = roundTrip(spark.sql(sql), target = WriteTarget.DataFusion55)
      val text = plan.toString
      assert("SET_OP_UNION_ALL".r.findAllIn(text).size == 1 && "aggregate \\{".r.findAllIn(text).size == sets, plan)
    }
    unionOfSets("SELECT s, a, count(*) AS n, sum(b) AS sb, grouping(s) AS gs FROM nums GROUP BY ROLLUP(s, a)", 3)
    unionOfSets("SELECT s, p, avg(x) AS ax, grouping_id() AS id FROM nums GROUP BY CUBE(s, p)", 4)
    unionOfSets("SELECT k, w, count(*) AS n FROM r GROUP BY GROUPING SETS ((k), (w), ())", 3)
    unionOfSets("SELECT k, count(*) AS n FROM r0 GROUP BY GROUPING SETS ((k), ())", 2)
  }

  test("DISTINCT") {
    roundTripSql("SELECT DISTINCT a, s FROM nums")
    roundTripSql("SELECT DISTINCT a, s FROM nums", optimized = false)
  }

  for (kind <- Seq("INNER", "LEFT", "RIGHT", "FULL", "LEFT SEMI", "LEFT ANTI")) {
    test(s"$kind join, with NULL keys, duplicates and an empty side") {
      val cols = if (kind.contains("SEMI") || kind.contains("ANTI")) "l.*" else "*"
      roundTripSql(s"SELECT $cols FROM l $kind JOIN r ON l.k = r.k")
      roundTripSql(s"SELECT $cols FROM l $kind JOIN r ON l.k = r.k AND r.w <> 'y'")
      roundTripSql(s"SELECT $cols FROM l $kind JOIN r0 ON l.k = r0.k")
    }
  }

  test("cross join and non-equi join") {
    roundTripSql("SELECT * FROM l CROSS JOIN r")
    roundTripSql("SELECT * FROM l JOIN r ON l.k < r.k")
  }

  test("EXISTS, NOT EXISTS, IN and NOT IN subqueries (semi / anti joins in the optimized plan)") {
    roundTripSql("SELECT * FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.k = l.k)")
    roundTripSql("SELECT * FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.k = l.k)")
    roundTripSql("SELECT * FROM l WHERE k IN (SELECT k FROM r)")
    roundTripSql("SELECT * FROM l WHERE k NOT IN (SELECT k FROM r)")
    roundTripSql("SELECT * FROM l WHERE k NOT IN (SELECT k FROM r WHERE k IS NOT NULL)")
  }

  test("sort, in order, with NULLs first and last") {
    roundTripSql("SELECT * FROM nums ORDER BY a DESC NULLS LAST, x ASC NULLS FIRST, s", ordered = true)
    roundTripSql("SELECT * FROM people ORDER BY score, id DESC", ordered = true)
  }

  test("LIMIT and OFFSET as one FetchRel per bound, ordered and not") {
    roundTripSql("SELECT * FROM nums ORDER BY a, b, x LIMIT 3", ordered = true)
    roundTripSql("SELECT * FROM nums ORDER BY a, b, x LIMIT 3 OFFSET 2", ordered = true)
    roundTripSql("SELECT * FROM nums ORDER BY a, b, x OFFSET 5", ordered = true)
    roundTripSql("SELECT * FROM nums ORDER BY a, b, x LIMIT 0", ordered = true)
    // Without ORDER BY any 3 rows are right: only the count is compared.
    val df = spark.sql("SELECT * FROM nums LIMIT 3")
    assert(SubstraitPlans.read(spark, PlanWriter.write(df).toByteArray).count() == 3)
    val kinds = relKinds("SELECT * FROM nums ORDER BY a LIMIT 3")
    assert(kinds.count(_ == "fetch") >= 1, kinds)
  }

  test("UNION ALL, UNION, INTERSECT and EXCEPT (with ALL), analyzed and optimized") {
    for (optimized <- Seq(true, false)) {
      roundTripSql("SELECT k FROM l UNION ALL SELECT k FROM r", optimized = optimized)
      roundTripSql("SELECT k FROM l UNION SELECT k FROM r", optimized = optimized)
      roundTripSql("SELECT k FROM l INTERSECT SELECT k FROM r", optimized = optimized)
      roundTripSql("SELECT k FROM l EXCEPT SELECT k FROM r", optimized = optimized)
      roundTripSql("SELECT k FROM l EXCEPT ALL SELECT k FROM r", optimized = false)
      roundTripSql("SELECT k FROM l INTERSECT ALL SELECT k FROM r", optimized = false)
      roundTripSql("SELECT k, w FROM r UNION ALL SELECT k, w FROM r0 UNION ALL SELECT k, v FROM l",
        optimized = optimized)
    }
  }

  test("local data is a VirtualTable, NULLs and all types included") {
    val df = spark.sql(
      """SELECT * FROM VALUES (1, 'a', 2.5D, DATE'2024-01-31', TIMESTAMP'2024-01-31 10:00:00', 1.25BD, true, X'0aff'),
      (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) AS t(i, s, d, dt, ts, dec, b, bin)""")
    val plan = roundTrip(df)
    assert(plan.getRelations(0).getRoot.getInput.getRead.hasVirtualTable)
    roundTrip(spark.sql("SELECT * FROM VALUES (1, 'a') AS t(i, s) WHERE i > 5"))
  }

  test("catalog tables and temp views as NamedTable (the analyzed plan names views)") {
    spark.sql("CREATE TABLE IF NOT EXISTS cat_nums USING parquet AS SELECT * FROM nums")
    val plan = roundTripSql("SELECT a, s FROM cat_nums WHERE a > 0")
    assert(plan.toString.contains("named_table"), plan)
    val viewPlan = roundTripSql("SELECT k, v FROM l WHERE k > 1", optimized = false)
    assert(viewPlan.toString.contains("named_table") && viewPlan.toString.contains("\"l\""), viewPlan)
  }

  test("windows: ranking, offsets and aggregates over ROWS and RANGE frames, partitioned and not") {
    roundTripSql("""SELECT a, s, row_number() OVER (PARTITION BY s ORDER BY a, b, x) AS rn, rank() OVER (ORDER BY a) AS r,
      dense_rank() OVER (PARTITION BY s ORDER BY a) AS dr, percent_rank() OVER (ORDER BY b) AS pr, cume_dist() OVER (ORDER BY b) AS cd,
      ntile(3) OVER (ORDER BY a, b, x, s) AS nt FROM nums""")
    roundTripSql(
      """SELECT a, b, lead(b) OVER (PARTITION BY a ORDER BY b, x, s) AS ld, lag(b, 2, -1) OVER (PARTITION BY a ORDER BY b, x, s) AS lg
      FROM nums""")
    roundTripSql(
      """SELECT a, s, sum(b) OVER (PARTITION BY s) AS total, avg(x) OVER (PARTITION BY s ORDER BY a) AS running,
      count(*) OVER (ORDER BY a, b, x, s ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving,
      max(d) OVER (ORDER BY a, b, x, s ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS mx FROM nums""")
  }

  test("WITH: each reference written as its definition (analyzed plans)") {
    roundTripSql("WITH c AS (SELECT k, count(*) AS n FROM l GROUP BY k) SELECT * FROM c JOIN c c2 ON c.k = c2.k",
      optimized = false)
  }

  test("the JSON encoding and the implicits read back the same") {
    import io.sparksubstrait.implicits._
    val df = spark.sql("SELECT s, count(*) AS n FROM nums GROUP BY s")
    assertRows(spark.read.substrait(df.toSubstraitJson), df.collect().toSeq)
    assertRows(spark.read.substrait(df.toSubstrait), df.collect().toSeq)
  }

  test("target duckdb-1.1 writes extension URIs, integer fetch bounds and inline groupings, read back the same") {
    val df = spark.sql("SELECT s, count(*) AS n FROM nums GROUP BY s ORDER BY s LIMIT 2")
    val plan = roundTrip(df, ordered = true, target = WriteTarget.DuckDb11)
    assert(plan.getExtensionUrisCount > 0 && plan.getExtensionUrnsCount == 0)
    assert(plan.toString.contains("count: 2"), plan)
  }

  test("target datafusion-55 writes date parts as DataFusion's date_part, read back the same") {
    val plan = roundTrip(spark.sql("SELECT year(dt) AS y, month(dt) AS m, day(dt) AS d, quarter(dt) AS q FROM nums"),
      target = WriteTarget.DataFusion55)
    assert(
      plan.getExtensionsList.toString.contains("date_part") && !plan.getExtensionsList.toString.contains("extract"))
  }

  test("unwritable operators: one clear error naming the node and where it is") {
    val gs = assertUnwritable(spark.sql("SELECT s, count(*) FROM nums GROUP BY GROUPING SETS ((s), (s))"),
      "a repeated grouping set")
    assert(gs.getMessage.contains("Aggregate > Expand"), gs.getMessage)
    assertUnwritable(spark.sql("SELECT explode(array(a, b)) FROM nums"), "Generate")
    assertUnwritable(spark.range(10).toDF(), "Range")
    assertUnwritable(
      spark.sql("SELECT a, sum(b) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM nums"), "RANGE")
    spark.range(3).write.mode("overwrite").json(dataDir.resolve("json").toString)
    assertUnwritable(spark.read.json(dataDir.resolve("json").toString), "format")
  }
}
