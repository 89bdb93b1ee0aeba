package io.sparksubstrait.testing

import java.nio.file.Path

import org.apache.spark.sql.DataFrame

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.decode.FileAccessPolicy
import io.sparksubstrait.proto.Plan
import io.sparksubstrait.write.{PlanWriter, WriteTarget}

/**
 * The writer's first test: write a DataFrame, read the plan back through our own reader,
 * and compare rows with the DataFrame's own. Tables are Parquet files under a temp folder
 * (registered as temp views over them), so the optimizer cannot fold the query into
 * constants and every operator is written; the folder is the reader's allowed prefix.
 */
trait RoundTrips extends SparkSuite with SubstraitAssertions {
  protected lazy val dataDir: Path = tempDir("substrait-write")

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.conf.set(FileAccessPolicy.ConfKey, dataDir.toRealPath().toString)
  }

  /** Registers `name` as a temp view over Parquet files holding `sql`'s rows. */
  protected def parquetView(name: String, sql: String): Unit = {
    val path = dataDir.resolve(name).toString
    spark.sql(sql).write.mode("overwrite").parquet(path)
    spark.read.parquet(path).createOrReplaceTempView(name)
  }

  /** Replaces the temp view `name` by one over Parquet files of its rows. */
  protected def asParquet(name: String): Unit = parquetView(name, s"SELECT * FROM $name")

  /**
   * Writes `df` (its optimized plan, or analyzed), reads it back, and checks the rows (a
   * multiset, or in order) and the column names; returns the written plan.
   */
  protected def roundTrip(df: DataFrame, ordered: Boolean = false, optimized: Boolean = true,
    target: WriteTarget = WriteTarget.Current): Plan = {
    val plan = PlanWriter.write(df, optimized, target)
    val back = SubstraitPlans.read(spark, plan.toByteArray)
    assert(back.columns.toSeq == df.columns.toSeq, s"columns ${back.columns.mkString(", ")}")
    assertRows(back, df.collect().toSeq, ordered)
    plan
  }

  protected def roundTripSql(sql: String, ordered: Boolean = false, optimized: Boolean = true): Plan =
    roundTrip(spark.sql(sql), ordered, optimized)

  /** Writing `df` fails with SUBSTRAIT_UNWRITABLE_PLAN naming `node`. */
  protected def assertUnwritable(df: => DataFrame, node: String, target: WriteTarget = WriteTarget.Current)
    : SubstraitException = {
    val e = intercept[SubstraitException](PlanWriter.write(df, target = target))
    assert(e.getCondition == "SUBSTRAIT_UNWRITABLE_PLAN", e.getMessage)
    assert(e.getMessage.contains(node), s"'$node' not named in: ${e.getMessage}")
    e
  }
}
