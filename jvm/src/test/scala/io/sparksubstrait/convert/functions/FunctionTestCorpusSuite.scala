package io.sparksubstrait
package convert.functions

import java.nio.file.{Files, Path, Paths}

import org.apache.spark.sql.SparkSession
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import io.sparksubstrait.functiontests._

/**
 * The spec's own function test cases (the pinned substrait-extensions package in .venv, or
 * $SUBSTRAIT_TESTCASES), every one run through the extension: per extension YAML, no case
 * may return a wrong value, every listed erratum must give its hand-worked value, and overall
 * at least 90% must pass. dev/function-tests runs the
 * same cases and writes the counts to docs/function-tests.md.
 */
class FunctionTestCorpusSuite extends AnyFunSuite with BeforeAndAfterAll {
  private val cases: Option[Path] = FunctionTestCorpusSuite.locate()

  @transient private var spark: SparkSession = _
  private lazy val (results, syntaxErrors) = FunctionTests.runAll(spark, cases.get)

  override def beforeAll(): Unit = if (cases.nonEmpty) {
    SparkSession.getActiveSession.foreach(_.stop())
    spark = FunctionTests.session()
  }
  override def afterAll(): Unit = if (spark != null) spark.stop()

  private def wrongOnes(rs: Seq[FunctionTests.Result]): Seq[String] =
    rs.collect { case r @ FunctionTests.Result(_, c, Outcome.Wrong(d)) => s"${c.file}:${c.line} ${c.source}: $d" }

  private def requireCases(): Unit =
    assume(cases.nonEmpty, "substrait-extensions is not installed in .venv (run dev/test)")

  test("every test file parses") {
    requireCases()
    assert(syntaxErrors.isEmpty, syntaxErrors.map(_.getMessage).mkString("\n"))
  }

  test("all spec cases: no wrong value, at least 90% passed") {
    requireCases()
    assert(wrongOnes(results).isEmpty, wrongOnes(results).mkString("\n"))
    val counts = FunctionTestReport.Counts.of(results)
    assert(counts.total > 1000)
    assert(counts.passed >= 0.9 * counts.total, FunctionTestReport.summary(results, syntaxErrors).table)
  }

  test("every listed erratum and ambiguity is a case of the pinned spec, and no case is wrong or failed among them") {
    requireCases()
    val sources = results.map(_.c.source).toSet
    assert(Errata.all.map(_.source).filterNot(sources).isEmpty, "errata no longer in the spec's files: remove them")
    assert(Ambiguities.all.map(_.source).filterNot(sources).isEmpty,
      "ambiguities no longer in the spec's files: remove them")
    val listed = (Errata.all.map(_.source) ++ Ambiguities.all.map(_.source)).toSet
    val unconfirmed = results.filter(r =>
      listed(r.c.source) &&
        (r.outcome match {
          case _: Outcome.Erratum | _: Outcome.Ambiguous | _: Outcome.Unsupported => false
          case _ => true
        }))
    assert(unconfirmed.isEmpty, unconfirmed.map(r => s"${r.c.source}: ${r.outcome}").mkString("\n"))
  }

  test("every standard function is mapped or has a reason for not being mapped (and only those)") {
    requireCases()
    val standard = StandardFunctions.list(cases.get.resolveSibling("extensions"))
    assert(standard.nonEmpty)
    val unmapped = standard.filterNot(_.mapped).map(f => (f.extension, f.name)).toSet
    assert(unmapped.filterNot(UnmappedFunctions.all.contains).isEmpty, "unmapped without a reason in UnmappedFunctions")
    assert(UnmappedFunctions.all.keySet.filterNot(unmapped).isEmpty,
      "mapped, or not a standard function, yet listed in UnmappedFunctions")
  }

  test("every catalog entry names only extensions whose YAML defines the function") {
    requireCases()
    val defined = StandardFunctions.list(cases.get.resolveSibling("extensions")).map(f => (f.extension, f.name)).toSet
    val entries = io.sparksubstrait.convert.functions.FunctionCatalog
    // substrait-java's Spark dialect is no spec YAML (SparkDialectFunctionsSuite tests it).
    val claimed = (entries.scalarNames ++ entries.aggregateNames ++ entries.windowNames).flatMap { case (n, exts) =>
      exts.filterNot(_ == io.sparksubstrait.foundation.ExtensionUrns.SparkDialect).map(_ -> n)
    }
    assert(claimed.filterNot(defined).isEmpty, "claimed by the catalog, not defined by that YAML")
  }

  FunctionTestCorpusSuite.Extensions.foreach { ext =>
    test(s"spec cases of $ext: none wrong, some passed") {
      requireCases()
      val mine = results.filter(_.file.extension == ext)
      assert(mine.nonEmpty, s"no cases for $ext")
      assert(wrongOnes(mine).isEmpty, wrongOnes(mine).mkString("\n"))
      assert(mine.exists(_.outcome == Outcome.Passed))
    }
  }
}

object FunctionTestCorpusSuite {

  /** The extension YAMLs the spec's test files cover (one test each). */
  val Extensions: Seq[String] = Seq("functions_aggregate_approx", "functions_aggregate_generic", "functions_arithmetic",
    "functions_arithmetic_decimal", "functions_boolean", "functions_comparison", "functions_datetime", "functions_list",
    "functions_logarithmic", "functions_rounding", "functions_rounding_decimal", "functions_string",
    "unsigned_integers")

  /** $SUBSTRAIT_TESTCASES, else the pinned spec release's (build/sbt exports where build/substrait-spec put it). */
  def locate(): Option[Path] = sys.env.get("SUBSTRAIT_TESTCASES").map(Paths.get(_))
    .orElse(sys.env.get("SUBSTRAIT_SPEC_DIR").map(Paths.get(_, "testcases")))
    .filter(Files.isDirectory(_))
}
