package io.sparksubstrait
package write

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.catalyst.expressions.{CreateNamedStruct, GetStructField}
import org.apache.spark.sql.catalyst.plans.logical.{Expand, Join, LogicalPlan, OneRowRelation, WindowGroupLimit}
import org.apache.spark.sql.catalyst.plans.ExistenceJoin

import io.sparksubstrait.testing.RoundTrips

/**
 * What Catalyst produces for TPC-DS and the writer once refused (issue 34): round and bround
 * of decimals, the standard deviations and variances, date + days, WindowGroupLimit, GROUPING()
 * and grouping_id() over grouping sets, OneRowRelation, struct fields (merged scalar
 * subqueries), existence joins (EXISTS under OR) and the analyzer's typed NULLs. Each is written,
 * read back and compared with Spark SQL's rows, over data with NULLs, duplicates and an empty
 * input; each test first checks the plan holds the construct, so it cannot pass by the
 * optimizer folding it away.
 */
class WriteTpcdsConstructsSuite extends RoundTrips {
  override def beforeAll(): Unit = {
    super.beforeAll()
    parquetView("m",
      """SELECT * FROM VALUES
        (CAST(2.5 AS DECIMAL(10,3)), 2.5D, 'a', DATE'2024-02-28', 1),
        (CAST(-2.5 AS DECIMAL(10,3)), -2.5D, 'a', DATE'2024-12-31', 2),
        (CAST(0.125 AS DECIMAL(10,3)), 0.125D, 'a', DATE'1970-01-01', 2),
        (CAST(-0.125 AS DECIMAL(10,3)), 0.5D, 'b', NULL, 3),
        (CAST(1.005 AS DECIMAL(10,3)), 1.0D, 'b', DATE'2000-03-01', 3),
        (CAST(1.005 AS DECIMAL(10,3)), 1.0D, 'b', DATE'2000-03-01', 3),
        (CAST(-15.5 AS DECIMAL(10,3)), 4.0D, NULL, DATE'1999-12-31', NULL),
        (NULL, NULL, 'c', DATE'2024-02-29', 4),
        (CAST(3.5 AS DECIMAL(10,3)), 3.5D, 'c', DATE'2024-03-01', 5)
        AS t(d, x, g, dt, k)""")
    parquetView("m0", "SELECT * FROM m WHERE false")
    // DECIMAL(38, 18) at its limits (20 integer digits of 9s), ties at the third and at the last
    // place, values just below a tie, NULL and a duplicate; q and r give a DECIMAL(38, s) quotient.
    val wide = Seq("99999999999999999999.999999999999999999", "-99999999999999999999.999999999999999999",
      "99999999999999999999.994999999999999999", "99999999999999999994.5", "0.005", "-0.005",
      "0.004999999999999999", "-0.004999999999999999", "2.675", "-2.675", "1.000000000000000005",
      "-1.000000000000000005", "0.000000000000000001", "12345.678949999999999999", "12345.678949999999999999",
      "0", "-0.5", "5")
    parquetView("w",
      wide.zipWithIndex.map { case (v, i) =>
        s"(CAST('$v' AS DECIMAL(38,18)), ${i % 4}, CAST(${i + 1}.25 AS DECIMAL(24,2)))"
      }.mkString("SELECT * FROM VALUES ", ", ",
        ", (NULL, 1, NULL), (CAST(1 AS DECIMAL(38,18)), 0, 3.00) AS t(v, k, q)"))
    parquetView("w0", "SELECT * FROM w WHERE false")
    parquetView("st",
      """SELECT * FROM VALUES (named_struct('p', 1, 'q', 'one')), (named_struct('p', NULL, 'q', 'two')),
        (CAST(NULL AS STRUCT<p: INT, q: STRING>)), (named_struct('p', 1, 'q', 'one')) AS t(s)""")
  }

  private def holds(df: DataFrame, optimized: Boolean = true)(test: LogicalPlan => Boolean): Unit = {
    val plan = if (optimized) df.queryExecution.optimizedPlan else df.queryExecution.analyzed
    assert(plan.exists(test) || plan.subqueriesAll.exists(_.exists(test)), plan.treeString)
  }

  private def bothPlans(sql: String): Unit = {
    roundTripSql(sql)
    roundTripSql(sql, optimized = false)
  }

  test("round (HALF_UP) and bround (HALF_EVEN) of decimals: ties of both signs, negative places, NULLs, no rows") {
    for (table <- Seq("m", "m0")) {
      bothPlans(s"""SELECT d, round(d, 2) AS r2, round(d, 0) AS r0, round(d, -1) AS rm1, round(d, 1) AS r1,
        bround(d, 2) AS b2, bround(d, 0) AS b0, round(d / 3, 2) AS q FROM $table""")
    }
    // Ties exactly at .5: HALF_UP away from zero, HALF_EVEN to the even neighbour.
    val ties = spark.sql("SELECT round(d, 0) AS r, bround(d, 0) AS b FROM m WHERE abs(d) = 2.5 OR abs(d) = 3.5")
    roundTrip(ties)
    assert(ties.collect().map(r => (r.getDecimal(0).doubleValue, r.getDecimal(1).doubleValue)).toSet ==
      Set((3.0, 2.0), (-3.0, -2.0), (4.0, 4.0)))
  }

  test(
    "targets refuse what their consumer would misread: a struct's field for duckdb-1.1, TRUNCATE and self-correlation for datafusion-55") {
    // DuckDB 1.1 reads a field reference rooted at an expression as a column of the input (TPC-DS q09).
    val structs = spark.sql("SELECT s.p, s.q FROM st")
    holds(structs)(_.expressions.exists(_.exists(_.isInstanceOf[GetStructField])))
    val field = assertUnwritable(structs, "GetStructField", WriteTarget.DuckDb11)
    assert(field.getMessage.contains("duckdb-1.1"), field.getMessage)
    roundTrip(structs)
    // DataFusion 55 ignores function options: the TRUNCATE step of a DECIMAL(38, s) round would round there (q78).
    val wide = spark.sql("SELECT round(v, 2) AS r FROM w")
    val rounding = assertUnwritable(wide, "TRUNCATE", WriteTarget.DataFusion55)
    assert(rounding.getMessage.contains("datafusion-55"), rounding.getMessage)
    roundTrip(wide)
    roundTrip(spark.sql("SELECT round(d, 2) AS r FROM m"), target = WriteTarget.DataFusion55)
    // DataFusion 55 binds an outer reference by name: to the subquery's own column of that name (q06).
    val selfCorrelated = spark.sql("SELECT d, k FROM m a WHERE d > (SELECT avg(b.d) FROM m b WHERE b.g = a.g)")
    val outer = intercept[io.sparksubstrait.errors.SubstraitException](
      PlanWriter.write(selfCorrelated, optimized = false, target = WriteTarget.DataFusion55))
    assert(outer.getCondition == "SUBSTRAIT_UNWRITABLE_PLAN" && outer.getMessage.contains("binds an outer reference"),
      outer.getMessage)
    roundTrip(selfCorrelated, optimized = false)
    roundTrip(spark.sql("SELECT g FROM m WHERE EXISTS (SELECT 1 FROM st WHERE s.p = k)"), optimized = false,
      target = WriteTarget.DataFusion55)
  }

  test("round (HALF_UP) of a DECIMAL(38, 18), as TPC-DS q78's quotient: 38 digits, ties, NULLs, no rows") {
    for (table <- Seq("w", "w0")) {
      val df = spark.sql(s"""SELECT v, round(v, 2) AS r2, round(v, 0) AS r0, round(v, -1) AS rm1, round(v, -19) AS rm19,
        round(v, -25) AS rm25, round(v, 3) AS r3, round(v, 16) AS r16, round(v, 18) AS r18, round(v, 20) AS r20,
        round(v / q, 2) AS rq, round(CAST(k AS DECIMAL(20, 0)) * 1.00 / (q + 1), 2) AS ratio FROM $table""")
      holds(df)(_.expressions.exists(_.exists {
        case r: org.apache.spark.sql.catalyst.expressions.Round =>
          r.child.dataType == org.apache.spark.sql.types.DecimalType(38, 18)
        case _ => false
      }))
      roundTrip(df)
      roundTrip(df, optimized = false)
    }
    // Rounded up to 21 integer digits, which Spark's DECIMAL(23, 2) holds and the YAML's DECIMAL(38, 18) would not.
    val top = spark.sql("SELECT round(v, 2) AS r FROM w WHERE v > 99999999999999999999.995")
    roundTrip(top)
    assert(top.collect().map(_.getDecimal(0).toPlainString).toSet == Set("100000000000000000000.00"))
    // Ties at the third place away from zero; just below a tie toward it.
    val ties =
      spark.sql("SELECT v, round(v, 2) AS r FROM w WHERE v BETWEEN -3 AND 3 AND NOT v BETWEEN -0.001 AND 0.001")
    roundTrip(ties)
    assert(ties.collect().map(r => r.getDecimal(0).stripTrailingZeros.toPlainString -> r.getDecimal(1).toPlainString)
      .toMap.filter(_._1.length <= 6) ==
      Map("0.005" -> "0.01", "-0.005" -> "-0.01", "2.675" -> "2.68", "-2.675" -> "-2.68", "-0.5" -> "-0.50",
        "1" -> "1.00"))
  }

  test("round to s - 1 places and bround of a DECIMAL(38, s) are refused: the YAML's DECIMAL(38, s) overflows") {
    assertUnwritable(spark.sql("SELECT round(v, 17) FROM w"), "Round")
    assertUnwritable(spark.sql("SELECT bround(v, 2) FROM w"), "BRound")
  }

  test("round of a double is refused: Spark rounds its shortest decimal text, the spec its value") {
    assertUnwritable(spark.sql("SELECT round(x, 1) FROM m"), "Round")
  }

  test("stddev_samp, stddev_pop, var_samp, var_pop: groups of one value (NULL for a sample), NULLs, no rows") {
    // Read back, the spec's functions are correctly rounded; Spark's own streaming update may
    // differ in the last bit or two: equal within 1e-14, and NULL exactly where Spark's is.
    def close(df: DataFrame, optimized: Boolean): Unit = {
      val back = SubstraitPlans.read(spark, PlanWriter.write(df, optimized).toByteArray)
      def rows(d: DataFrame) = d.collect().toSeq.map(_.toSeq).sortBy(_.head match {
        case null => ""; case v => v.toString
      })
      val (got, want) = (rows(back), rows(df))
      assert(got.size == want.size, s"$got vs $want")
      got.zip(want).foreach { case (g, w) =>
        g.zip(w).foreach {
          case (a: Double, b: Double) => assert(math.abs(a - b) <= 1e-14 * math.max(1.0, math.abs(b)), s"$g vs $w")
          case (a, b) => assert(a == b, s"$g vs $w")
        }
      }
    }
    for (table <- Seq("m", "m0"); optimized <- Seq(true, false)) {
      close(spark.sql(s"""SELECT g, stddev_samp(x) AS ss, stddev_pop(x) AS sp, var_samp(x) AS vs, var_pop(x) AS vp,
        stddev(k) AS sk FROM $table GROUP BY g"""), optimized)
    }
    // Whole-number answers are exact in both: k of 1, 2, 3 has sample variance 1.
    bothPlans(
      "SELECT stddev_samp(k) AS ss, var_samp(k) AS vs FROM m WHERE k = 1 OR (k = 2 AND x = 0.125) OR (k = 3 AND x = 0.5)")
    bothPlans("SELECT stddev_samp(x) AS ss, var_pop(x) AS vp FROM m0")
  }

  test("date + n days and date - n days (DateAdd, DateSub), with NULL dates and month and year ends") {
    val df = spark.sql("""SELECT dt, dt + 5 AS plus5, date_add(dt, -1) AS minus1, date_sub(dt, 60) AS back60,
      dt + 366 AS year FROM m""")
    holds(df)(_.expressions.exists(_.exists(_.isInstanceOf[org.apache.spark.sql.catalyst.expressions.DateAdd])))
    roundTrip(df)
    roundTrip(df, optimized = false)
    bothPlans("SELECT a.k, b.k AS k2 FROM m a JOIN m b ON b.dt > a.dt + 5")
  }

  test("WindowGroupLimit (row_number, rank, dense_rank at most n per partition), with ties, NULL keys, no rows") {
    // row_number over a total order (among ties it numbers rows in no fixed order); rank and
    // dense_rank over k alone, with its ties.
    val numbered = Seq("row_number() OVER (PARTITION BY g ORDER BY k, d)", "rank() OVER (PARTITION BY g ORDER BY k)",
      "dense_rank() OVER (PARTITION BY g ORDER BY k)")
    for (table <- Seq("m", "m0"); f <- numbered) {
      val df = spark.sql(s"SELECT * FROM (SELECT g, k, d, $f AS r FROM $table) WHERE r <= 2")
      if (table == "m") holds(df)(_.isInstanceOf[WindowGroupLimit])
      roundTrip(df)
    }
    // Without a partition (rank: row_number there becomes a sort and limit).
    val global = spark.sql("SELECT * FROM (SELECT k, rank() OVER (ORDER BY k DESC) AS r FROM m) WHERE r < 3")
    holds(global)(_.isInstanceOf[WindowGroupLimit])
    roundTrip(global)
  }

  test("GROUPING() and grouping_id() over ROLLUP, CUBE and GROUPING SETS, NULL keys apart from rolled-up ones") {
    for (table <- Seq("m", "m0")) {
      val rollup = spark.sql(s"""SELECT g, k, sum(d) AS s, grouping(g) AS gg, grouping(k) AS gk,
        grouping(g) + grouping(k) AS lochierarchy, grouping_id() AS id,
        CASE WHEN grouping(k) = 0 THEN g END AS parent FROM $table GROUP BY ROLLUP(g, k)""")
      if (table == "m") holds(rollup)(_.isInstanceOf[Expand])
      roundTrip(rollup)
      roundTrip(rollup, optimized = false)
      bothPlans(s"SELECT g, k, count(*) AS n, grouping_id(g, k) AS id FROM $table GROUP BY CUBE(g, k)")
      bothPlans(s"SELECT g, count(*) AS n, grouping(g) AS gg FROM $table GROUP BY GROUPING SETS ((g))")
    }
    // The window over GROUPING() of TPC-DS q70 / q86: rank within each level of the rollup.
    bothPlans("""SELECT g, k, sum(d) AS s, grouping(g) + grouping(k) AS lochierarchy,
      rank() OVER (PARTITION BY grouping(g) + grouping(k), CASE WHEN grouping(k) = 0 THEN g END
        ORDER BY sum(d) DESC) AS rank_within_parent FROM m GROUP BY ROLLUP(g, k)""")
  }

  test("GROUPING() in an ORDER BY above the aggregate (bits of the grouping id column)") {
    // As TPC-DS q70: the sort reads grouping() of the id the aggregate outputs.
    for (table <- Seq("m", "m0")) {
      val df = spark.sql(s"""SELECT g, k, sum(d) AS s, grouping(g) + grouping(k) AS lochierarchy FROM $table
        GROUP BY ROLLUP(g, k) ORDER BY lochierarchy DESC, CASE WHEN grouping(g) + grouping(k) = 0 THEN g END, g, k""")
      holds(df)(_.expressions.exists(_.exists(_.isInstanceOf[org.apache.spark.sql.catalyst.expressions.ShiftRight])))
      roundTrip(df, ordered = true)
      roundTrip(df, ordered = true, optimized = false)
    }
    val bits = spark.sql("SELECT k, k & 6 AS a, shiftright(CAST(k AS BIGINT), 1) AS r, shiftright(-k, 2) AS n FROM m")
    roundTrip(bits)
    assertUnwritable(spark.sql("SELECT shiftright(k, k) FROM m"), "ShiftRight")
  }

  test("OneRowRelation: a SELECT without FROM, alone and joined") {
    val alone = spark.sql("SELECT 1 AS one, 'x' AS s, CAST(NULL AS INT) AS n")
    holds(alone)(_.isInstanceOf[OneRowRelation])
    roundTrip(alone)
    val joined = spark.sql("SELECT m.k, c.c FROM m CROSS JOIN (SELECT 2 AS c) c WHERE m.k >= c.c OR m.k IS NULL")
    roundTrip(joined, optimized = false)
    roundTrip(joined)
  }

  test("struct fields: of a struct column (NULL structs, NULL fields) and of merged scalar subqueries") {
    bothPlans("SELECT s, s.p, s.q FROM st")
    val merged = spark.sql("""SELECT (SELECT count(*) FROM m WHERE k > 1) AS n, (SELECT avg(x) FROM m WHERE k > 1) AS a,
      (SELECT sum(d) FROM m WHERE k > 1) AS s""")
    holds(merged)(_.expressions.exists(_.exists(_.isInstanceOf[GetStructField])))
    holds(merged)(_.expressions.exists(_.exists(_.isInstanceOf[CreateNamedStruct])))
    roundTrip(merged)
  }

  test("existence joins (EXISTS under OR): a match, no match, NULL keys on both sides, an empty right side") {
    for (right <- Seq("m", "m0")) {
      val df = spark.sql(s"""SELECT a.g, a.k FROM m a
        WHERE EXISTS (SELECT 1 FROM $right b WHERE b.k = a.k + 1) OR a.x > 3""")
      holds(df)(p => p.isInstanceOf[Join] && p.asInstanceOf[Join].joinType.isInstanceOf[ExistenceJoin])
      roundTrip(df)
      roundTrip(df, optimized = false)
    }
  }

  test("a UNION's branches selecting a bare NULL (void, cast above the branch) in analyzed plans, as q27 and q36") {
    for (table <- Seq("m", "m0")) {
      // As q27: each level of a hand-written rollup selects NULL for the keys it rolls up.
      val df = spark.sql(s"""SELECT g, k, lvl, a FROM (
          SELECT g, k, 0 AS lvl, avg(d) AS a FROM $table GROUP BY g, k
          UNION ALL SELECT g, NULL AS k, 1 AS lvl, avg(d) AS a FROM $table GROUP BY g
          UNION ALL SELECT NULL AS g, NULL AS k, 2 AS lvl, avg(d) AS a FROM $table) u
        ORDER BY g NULLS FIRST, k NULLS FIRST, lvl LIMIT 100""")
      holds(df, optimized = false)(_.expressions.exists(_.exists {
        case org.apache.spark.sql.catalyst.expressions.Literal(null, org.apache.spark.sql.types.NullType) => true
        case _ => false
      }))
      roundTrip(df, ordered = true, optimized = false)
      roundTrip(df, ordered = true)
      // As q36: a window over the union's columns, the NULL keys among its partitions.
      bothPlans(s"""SELECT g, k, s, rank() OVER (PARTITION BY lvl ORDER BY s DESC) AS r FROM (
          SELECT g, k, 0 AS lvl, sum(x) AS s FROM $table GROUP BY g, k
          UNION ALL SELECT g, NULL AS k, 1 AS lvl, sum(x) AS s FROM $table GROUP BY g
          UNION ALL SELECT NULL AS g, NULL AS k, 2 AS lvl, sum(x) AS s FROM $table) u""")
    }
  }

  test("a bare NULL column reaching the output, or used uncast, stays refused (Substrait has no void type)") {
    def refusedAnalyzed(sql: String): Unit = {
      val e =
        intercept[io.sparksubstrait.errors.SubstraitException](PlanWriter.write(spark.sql(sql), optimized = false))
      assert(e.getCondition == "SUBSTRAIT_UNWRITABLE_PLAN" && e.getMessage.contains("void"), e.getMessage)
    }
    refusedAnalyzed("SELECT k, NULL AS n FROM m")
    refusedAnalyzed("SELECT NULL AS n FROM m UNION ALL SELECT NULL AS n FROM m")
    refusedAnalyzed("SELECT n, CAST(n AS INT) AS i FROM (SELECT NULL AS n FROM m)")
    refusedAnalyzed("SELECT CAST(n AS INT) AS i FROM (SELECT k, NULL AS n FROM m) WHERE n IS NULL")
  }

  test("the analyzer's NULL of a CASE without ELSE (a cast void NULL) in analyzed plans") {
    roundTripSql(
      "SELECT k, CASE WHEN k > 2 THEN d ELSE NULL END AS c, avg(CASE WHEN k = 3 THEN x ELSE NULL END) AS a " +
        "FROM m GROUP BY k, d", optimized = false)
  }
}
