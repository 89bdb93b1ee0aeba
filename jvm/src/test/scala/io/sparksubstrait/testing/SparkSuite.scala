package io.sparksubstrait.testing

import java.nio.file.Files

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** One small local SparkSession per suite, with the extension enabled. */
trait SparkSuite extends AnyFunSuite with BeforeAndAfterAll {
  protected def withExtension: Boolean = true

  @transient private var _spark: SparkSession = _
  protected def spark: SparkSession = _spark

  override def beforeAll(): Unit = {
    super.beforeAll()
    SparkSession.getActiveSession.foreach(_.stop())
    SparkSession.clearActiveSession()
    SparkSession.clearDefaultSession()
    val warehouse = Files.createTempDirectory("substrait-warehouse").toFile
    val builder = SparkSession.builder()
      .master("local[2]")
      .appName(getClass.getSimpleName)
      .config("spark.ui.enabled", "false")
      .config("spark.sql.shuffle.partitions", "2")
      .config("spark.sql.warehouse.dir", warehouse.getAbsolutePath)
      .config("spark.driver.host", "127.0.0.1")
    if (withExtension) builder.config("spark.sql.extensions", "io.sparksubstrait.SubstraitExtensions")
    _spark = builder.getOrCreate()
  }

  override def afterAll(): Unit = {
    try if (_spark != null) _spark.stop()
    finally super.afterAll()
  }

  /** Rows of both frames as multisets (or in order), with a readable diff on failure. */
  protected def assertSameRows(actual: DataFrame, expected: DataFrame, ordered: Boolean = false): Unit =
    assertRows(actual, expected.collect().toSeq, ordered)

  protected def assertRows(actual: DataFrame, expected: Seq[Row], ordered: Boolean = false): Unit = {
    val got = actual.collect().toSeq
    def norm(rows: Seq[Row]) = if (ordered) rows.map(_.toString) else rows.map(_.toString).sorted
    assert(norm(got) == norm(expected),
      s"\nactual:   ${got.mkString(", ")}\nexpected: ${expected.mkString(", ")}")
  }
}
