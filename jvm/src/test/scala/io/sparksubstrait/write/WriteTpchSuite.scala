package io.sparksubstrait
package write

import io.sparksubstrait.testing.{RoundTrips, TpchGenerator, TpchSchema}

/**
 * All 22 TPC-H queries written from `spark.sql` (the optimized plan: file reads, semi and
 * anti joins for EXISTS / IN, decorrelated scalar subqueries) and read back through our
 * reader: the same rows as Spark SQL gives, on TpchGenerator's tables stored as Parquet.
 */
class WriteTpchSuite extends RoundTrips {
  override def beforeAll(): Unit = {
    super.beforeAll()
    TpchGenerator.register(spark)
    TpchSchema.Tables.map(_._1).foreach(asParquet)
  }

  for (n <- TpchSchema.QueryNumbers) {
    test(f"TPC-H Q$n%02d written from Spark SQL reads back with the same rows") {
      val df = spark.sql(TpchSchema.query(n))
      assert(df.collect().nonEmpty, "the generated data gives this query no rows")
      roundTrip(df)
    }
  }

  test("TPC-H from the analyzed plan (views as NamedTable, subqueries as written) reads back the same") {
    for (n <- Seq(1, 4, 6, 13, 15, 17, 20, 21, 22)) roundTrip(spark.sql(TpchSchema.query(n)), optimized = false)
  }
}
