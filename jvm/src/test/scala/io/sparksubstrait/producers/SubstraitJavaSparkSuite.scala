package io.sparksubstrait
package producers

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

import org.apache.spark.sql.Row

import io.sparksubstrait.proto.Plan
import io.sparksubstrait.testing.{ProducerFixtures, SparkSuite, SubstraitAssertions}

/**
 * Real plans of substrait-java's Spark module 0.36.0 (Spark 3.4.2; tests/fixtures/producers/
 * substrait-java-spark/0.36.0, written by dev/producer-matrix) whose functions are its dialect's
 * (`/spark.yml`), against Spark SQL's rows for the same query on the same data (tables.json:
 * NULLs, a duplicate row, an empty table) and rows worked out by hand. The module names its
 * catalog tables in full (spark_catalog.default.emp), so the tables are catalog tables here.
 */
class SubstraitJavaSparkSuite extends SparkSuite with SubstraitAssertions {
  private val folder = Paths.get("tests/fixtures/producers/substrait-java-spark/0.36.0")

  override def beforeAll(): Unit = {
    super.beforeAll()
    ProducerFixtures.registerTables(spark)
    for (t <- Seq("emp", "dept", "nothing"))
      spark.sql(s"CREATE TABLE IF NOT EXISTS spark_catalog.default.$t USING parquet AS SELECT * FROM $t")
  }

  private def bytes(query: String): Array[Byte] = Files.readAllBytes(folder.resolve(s"$query.bin"))
  private def fixture(query: String): Plan = Plan.parseFrom(bytes(query))

  test("0.36.0's year:date under the URI /spark.yml: Spark SQL's YEAR, NULLs and duplicates kept") {
    // The plan names the dialect by the URI, as 0.35 to 0.65 wrote it.
    assert(new String(bytes("s01_year"), StandardCharsets.ISO_8859_1).contains("/spark.yml"))
    val df = run(fixture("s01_year"))
    // emp.hired: 2020-01-15, 2019-06-30, 2021-03-01 (twice), 2018-12-31, NULL, 2020-02-29, 2022-07-04.
    assertRows(df,
      Seq(Row(1, 2020), Row(2, 2019), Row(3, 2021), Row(3, 2021), Row(4, 2018), Row(5, null),
        Row(6, 2020), Row(null, 2022)))
    assertSameRows(df, spark.sql("SELECT id, YEAR(hired) AS y FROM emp"))
  }

  test("0.36.0's unscaled:dec (Spark's AVG of a small decimal over its unscaled longs): Spark SQL's AVG") {
    val df = run(fixture("s03_small_decimal_avg"))
    val expected = spark.sql("SELECT dept, AVG(CAST(salary AS DECIMAL(7,2))) AS a FROM emp GROUP BY dept")
    assertSameRows(df, expected)
    // dept 10: (1000.50 + 2000.00 + 10.10) / 3 = 1003.533333...; dept 30: only a NULL salary.
    val byDept = df.collect().map(r => Option(r.get(0)) -> r.get(1)).toMap
    assert(byDept(Some(10)) == new java.math.BigDecimal("1003.533333"))
    assert(byDept(Some(30)) == null)
  }

  test("a plan of 0.36.0 over an empty table of emp's columns: no rows") {
    spark.sql("CREATE TABLE IF NOT EXISTS spark_catalog.default.emz USING parquet AS SELECT * FROM emp WHERE false")
    // The plan's table name `emp` (NamedTable.names, field 1: bytes 0A 03 'e' 'm' 'p') as `emz`,
    // the same length, so no other byte of the plan changes (its extension URIs, which the
    // pinned proto no longer has fields for, stay as written).
    val in = bytes("s01_year")
    val at = in.indexOfSlice(Seq[Byte](0x0a, 0x03, 'e', 'm', 'p'))
    assert(at >= 0 && in.indexOfSlice(Seq[Byte](0x0a, 0x03, 'e', 'm', 'p'), at + 1) < 0)
    val renamed = in.clone()
    renamed(at + 4) = 'z'.toByte
    assert(SubstraitPlans.read(spark, renamed).collect().isEmpty)
  }
}
