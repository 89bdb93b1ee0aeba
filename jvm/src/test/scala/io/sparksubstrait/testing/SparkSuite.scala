package io.sparksubstrait.testing

import java.nio.file.{Files, Path}
import java.util.Comparator

import scala.collection.mutable

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** One small local SparkSession per suite, with the extension enabled. */
trait SparkSuite extends AnyFunSuite with BeforeAndAfterAll {
  protected def withExtension: Boolean = true

  @transient private var _spark: SparkSession = _
  protected def spark: SparkSession = _spark

  private val tempDirs = mutable.Buffer.empty[Path]

  /**
   * A fresh folder under the system's temporary folder, deleted with its contents when the suite
   * ends (a full test run made over a thousand of them otherwise).
   */
  protected def tempDir(prefix: String): Path = tempDirs.synchronized {
    val dir = Files.createTempDirectory(prefix).toRealPath()
    tempDirs += dir
    dir
  }

  override def beforeAll(): Unit = {
    super.beforeAll()
    SparkSession.getActiveSession.foreach(_.stop())
    SparkSession.clearActiveSession()
    SparkSession.clearDefaultSession()
    val warehouse = tempDir("substrait-warehouse").toFile
    val builder = SparkSession.builder()
      .master("local[2]")
      .appName(getClass.getSimpleName)
      .config("spark.ui.enabled", "false")
      .config("spark.sql.shuffle.partitions", "2")
      .config("spark.sql.warehouse.dir", warehouse.getAbsolutePath)
      .config("spark.driver.host", "127.0.0.1")
      // Spark 4's default, set so that Spark 3.5 (where it is off) runs the same expectations.
      .config("spark.sql.ansi.enabled", "true")
      .config("spark.substrait.test.verifySkippedAnalysis", "true")
      // As Spark's own test sessions: generated code that does not compile fails the test
      // instead of running interpreted unnoticed (DecimalQuotient's checked throw did).
      .config("spark.sql.codegen.fallback", "false")
      .config("spark.sql.codegen.factoryMode", "CODEGEN_ONLY")
    if (withExtension) builder.config("spark.sql.extensions", "io.sparksubstrait.SubstraitExtensions")
    _spark = builder.getOrCreate()
  }

  override def afterAll(): Unit = {
    try if (_spark != null) _spark.stop()
    finally {
      tempDirs.synchronized(tempDirs.foreach(deleteTree))
      super.afterAll()
    }
  }

  private def deleteTree(dir: Path): Unit = {
    val paths = Files.walk(dir)
    try paths.sorted(Comparator.reverseOrder[Path]()).forEach(p => Files.deleteIfExists(p))
    finally paths.close()
  }

  /** `body` with one session setting changed, restored afterwards. */
  protected def withConf[T](key: String, value: String)(body: => T): T = {
    val old = spark.conf.getOption(key)
    spark.conf.set(key, value)
    try body
    finally old match {
        case Some(v) => spark.conf.set(key, v)
        case None => spark.conf.unset(key)
      }
  }

  /** Rows of both frames as multisets (or in order), with a readable diff on failure. */
  protected def assertSameRows(actual: DataFrame, expected: DataFrame, ordered: Boolean = false): Unit =
    assertRows(actual, expected.collect().toSeq, ordered)

  /** A row as text, binary values by content (arrays have no useful toString). */
  private def render(v: Any): String = v match {
    case r: Row => r.toSeq.map(render).mkString("[", ",", "]")
    case b: Array[Byte] => b.map("%02x".format(_)).mkString("0x", "", "")
    case s: scala.collection.Seq[_] => s.map(render).mkString("Seq(", ",", ")")
    case m: scala.collection.Map[_, _] =>
      m.toSeq.map { case (k, x) => s"${render(k)}->${render(x)}" }.sorted.mkString("Map(", ",", ")")
    case null => "null"
    case other => other.toString
  }

  protected def assertRows(actual: DataFrame, expected: Seq[Row], ordered: Boolean = false): Unit = {
    val got = actual.collect().toSeq
    def norm(rows: Seq[Row]) = { val r = rows.map(render); if (ordered) r else r.sorted }
    assert(norm(got) == norm(expected),
      s"\nactual:   ${got.map(render).mkString(", ")}\nexpected: ${expected.map(render).mkString(", ")}")
  }
}
