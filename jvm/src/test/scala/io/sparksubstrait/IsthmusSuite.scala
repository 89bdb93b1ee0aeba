package io.sparksubstrait

import io.sparksubstrait.testing.{Isthmus, SparkSuite, SubstraitAssertions, TpchData}

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
      val sql = s"select l_returnflag, l_linestatus, count(*) as n, sum(l_quantity) as q from lineitem group by $kind(l_returnflag, l_linestatus)"
      val expected = spark.sql(sql.replace("sum(l_quantity)", "cast(sum(l_quantity) as decimal(15,2))"))
      assert(expected.count() > 6)
      assertSameRows(run(isthmus(sql)), expected)
    }
  }
}
