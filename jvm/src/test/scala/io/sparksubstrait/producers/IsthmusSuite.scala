package io.sparksubstrait
package producers

import org.apache.spark.sql.Row

import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.decode.readings.AppliedReading
import io.sparksubstrait.testing.{Isthmus, SparkSuite, SubstraitAssertions, TpchData, TpchSchema}

/**
 * Plans from a real producer, isthmus (Calcite), against the same queries in Spark SQL on
 * the same data. isthmus declares Calcite's result types (e.g. SUM of DECIMAL(15,2) is
 * DECIMAL(15,2)); the plan's types are the contract, so the SQL casts to them.
 */
class IsthmusSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); TpchData.registerLineitem(spark) }

  private def isthmus(sql: String): io.sparksubstrait.proto.Plan = Isthmus.plan(sql, TpchData.LineitemDdl)

  test("TPC-H Q6 from isthmus") {
    val df = run(isthmus(TpchData.Q6))
    val expected = spark.sql("""select cast(sum(l_extendedprice * l_discount) as decimal(19,4)) as revenue from lineitem
      where l_shipdate >= date '1994-01-01' and l_shipdate < date '1994-01-01' + interval '1' year
      and l_discount between 0.05 and 0.07 and l_quantity < 24""")
    assert(expected.collect().head.get(0) != null)
    assertSameRows(df, expected)
    assert(df.columns.toSeq == Seq("REVENUE"))
  }

  test("TPC-H Q1 from isthmus") {
    val df = run(isthmus(TpchData.Q1))
    val expected = spark.sql("""select l_returnflag, l_linestatus, cast(sum(l_quantity) as decimal(15,2)),
      cast(sum(l_extendedprice) as decimal(15,2)), cast(sum(l_extendedprice * (1 - l_discount)) as decimal(19,4)),
      cast(sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as decimal(19,6)), cast(avg(l_quantity) as decimal(15,2)),
      cast(avg(l_extendedprice) as decimal(15,2)), cast(avg(l_discount) as decimal(15,2)), count(*)
      from lineitem where l_shipdate <= date '1998-12-01' - interval '120' day
      group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus""")
    assert(expected.count() == 6)
    assertSameRows(df, expected, ordered = true)
  }

  test("ROLLUP and CUBE from isthmus: grouping sets with the grouping-set index, as Spark SQL groups them") {
    // Calcite writes ROLLUP (a, b) as the sets (a, b), (a), () and selects the grouping columns
    // and measures, leaving out the set index: the rows are SQL's own.
    for (kind <- Seq("rollup", "cube")) {
      val sql =
        s"select l_returnflag, l_linestatus, count(*) as n, sum(l_quantity) as q from lineitem group by $kind(l_returnflag, l_linestatus)"
      val expected = spark.sql(sql.replace("sum(l_quantity)", "cast(sum(l_quantity) as decimal(15,2))"))
      assert(expected.count() > 6)
      assertSameRows(run(isthmus(sql)), expected)
    }
  }

  private def readingsOf(plan: io.sparksubstrait.proto.Plan): Seq[AppliedReading] =
    PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active).readings

  test(
    "isthmus-decimal-precision-19: a known bug, a product declared with 19 digits overflows as written, with a warning") {
    // 9999999999999.99 * 100000 needs 18 digits before the point; isthmus declares the product
    // of DECIMAL(15,2) and BIGINT DECIMAL(19,2), which holds 17 (the spec's type: DECIMAL(35,2)).
    spark.sql(
      """CREATE OR REPLACE TEMP VIEW stock AS SELECT CAST(v AS DECIMAL(15,2)) AS v, CAST(q AS BIGINT) AS q FROM VALUES
      (1.50, 3), (1.50, 3), (NULL, 7), (2.25, NULL), (9999999999999.99, 10) AS t(v, q)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW stock_big AS SELECT * FROM stock UNION ALL SELECT 9999999999999.99, 100000")
    spark.sql("CREATE OR REPLACE TEMP VIEW stock_none AS SELECT * FROM stock WHERE false")
    def product(table: String) = Isthmus.plan(s"SELECT v * q AS p FROM $table",
      s"CREATE TABLE $table (v DECIMAL(15,2), q BIGINT)")
    val applied = readingsOf(product("stock"))
    assert(applied.map(_.name) == Seq("isthmus-decimal-precision-19") && applied.head.isWarning, applied)
    assert(
      applied.head.where.exists(_.endsWith(
          "multiply of DECIMAL(15,2) and DECIMAL(19,0) declared DECIMAL(19,2), the spec's type DECIMAL(35,2)")),
      applied.head.where)
    // Values the declared type holds: the SQL's rows, and worked out by hand.
    val p = (s: String) => Row(BigDecimal(s).bigDecimal)
    assertRows(run(product("stock")), Seq(p("4.50"), p("4.50"), Row(null), Row(null), p("99999999999999.90")))
    assertSameRows(run(product("stock")), spark.sql("SELECT CAST(v * q AS DECIMAL(19,2)) AS p FROM stock"))
    assertRows(run(product("stock_none")), Nil)
    // Beyond it, as written: an overflow error under ANSI, NULL without (the SQL's product is 999999999999999000.00).
    withConf("spark.sql.ansi.enabled", "true") {
      val e = intercept[Exception](run(product("stock_big")).collect())
      assert(causes(e).exists(
          _.getMessage.contains("NUMERIC_VALUE_OUT_OF_RANGE")), e)
    }
    withConf("spark.sql.ansi.enabled", "false") {
      assertRows(run(product("stock_big")),
        Seq(p("4.50"), p("4.50"), Row(null), Row(null), p("99999999999999.90"), Row(null)))
    }
    assert(spark.sql("SELECT v * q FROM stock_big WHERE q = 100000").head().getDecimal(0).compareTo(
      new java.math.BigDecimal("999999999999999000")) == 0)
    // A product whose digits add up to 19 is exact, not capped: no warning.
    val exact = Isthmus.plan("SELECT a * b AS p FROM small", "CREATE TABLE small (a DECIMAL(10,2), b DECIMAL(9,0))")
    assert(readingsOf(exact).isEmpty)
    // TPC-H Q11: its threshold sum(ps_supplycost * ps_availqty) * 0.0001000000 declared DECIMAL(19,12), which
    // overflows at scale factor 10 (docs/performance.md).
    val q11 = TpchSchema.isthmus(TpchSchema.calciteSpelling(11, TpchSchema.query(11)))
      .fold(e => fail(s"isthmus refused TPC-H Q11: $e"), identity)
    assert(readingsOf(q11).flatMap(_.where).exists(_.contains("declared DECIMAL(19,12)")), readingsOf(q11))
  }

  test(
    "isthmus-decimal-sum-type: a decimal sum declared with its argument's type is read as the spec's DECIMAL(38,s)") {
    // Calcite types SUM(DECIMAL(7,2)) DECIMAL(7,2), the spec DECIMAL(38,2): group b's total, 199999.99,
    // does not fit the declared type; the engines isthmus users run the query in (DuckDB below) sum it.
    spark.sql("""CREATE OR REPLACE TEMP VIEW pay AS SELECT k, CAST(v AS DECIMAL(7,2)) AS v FROM VALUES
      ('a', 1.50), ('a', 1.50), ('a', NULL), ('b', 99999.99), ('b', 0.01), ('b', 99999.99), ('c', NULL), (NULL, 2.25)
      AS t(k, v)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW pay_none AS SELECT * FROM pay WHERE false")
    def summed(table: String) =
      Isthmus.plan(s"SELECT k, SUM(v) AS s FROM $table GROUP BY k",
        s"CREATE TABLE $table (k VARCHAR(1), v DECIMAL(7,2))")
    val applied = readingsOf(summed("pay"))
    assert(applied.map(_.name) == Seq("isthmus-decimal-sum-type") && applied.head.isWarning, applied)
    assert(applied.head.where.exists(_.endsWith("sum declared DECIMAL(7,2), read as the spec's DECIMAL(38,2)")),
      applied.head.where)
    val d = (s: String) => BigDecimal(s).bigDecimal
    // DuckDB 1.1.3: SELECT k, SUM(v) FROM pay GROUP BY k (a DECIMAL(38,2)), under ANSI as without it.
    for (ansi <- Seq("true", "false")) withConf("spark.sql.ansi.enabled", ansi) {
      val df = run(summed("pay"))
      assertRows(df, Seq(Row("a", d("3.00")), Row("b", d("199999.99")), Row("c", null), Row(null, d("2.25"))))
      assert(df.schema("S").dataType == org.apache.spark.sql.types.DecimalType(38, 2), df.schema)
    }
    assertSameRows(run(summed("pay")), spark.sql("SELECT k, CAST(SUM(v) AS DECIMAL(38,2)) FROM pay GROUP BY k"))
    assertRows(run(summed("pay_none")), Nil)
    // A sum of integers: no reading.
    assert(readingsOf(Isthmus.plan("SELECT SUM(n) AS s FROM ints", "CREATE TABLE ints (n INTEGER)")).isEmpty)
    // The same plan stamped by another producer: not read so (its declared type is run as written).
    val other = summed("pay").toBuilder
    other.getVersionBuilder.setProducer("someone")
    assert(readingsOf(other.build()).isEmpty)
  }
}
