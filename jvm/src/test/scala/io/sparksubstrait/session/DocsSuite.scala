package io.sparksubstrait
package session

import java.nio.file.{Files, Paths}

import org.scalatest.funsuite.AnyFunSuite

import io.sparksubstrait.convert.functions.{FunctionAliases, FunctionCatalog}
import io.sparksubstrait.testing.TestSuites

/** Keeps docs/ honest: every "proved by" names a real test; functions.md lists exactly the catalog. */
class DocsSuite extends AnyFunSuite {
  private def read(path: String) = new String(Files.readAllBytes(Paths.get(path)), "UTF-8")

  test("every row of docs/supported.md names a test that exists") {
    // The spec coverage section is generated (SpecCoverageSuite keeps it honest): its rows name no test.
    val doc = read("docs/supported.md")
    val generated = "(?s)<!-- spec-coverage:begin -->.*<!-- spec-coverage:end -->".r
    val rows =
      generated.replaceAllIn(doc, "").linesIterator.filter(l => l.startsWith("|") && !l.startsWith("|---")).toSeq
    val proofs = rows.map(_.split("\\|").map(_.trim).filter(_.nonEmpty).last).filterNot(_ == "Proved by")
    assert(proofs.size > 30)
    proofs.foreach {
      case p if p.startsWith("`tests/") || p.startsWith("`dev/") =>
        val file = p.stripPrefix("`").takeWhile(_ != '`')
        assert(Files.exists(Paths.get(file)), s"$file named in docs/supported.md does not exist")
        // Python tests named after the file (`tests/x.py` › test_a, test_b) must be defined there.
        p.split("›", 2).drop(1).flatMap(_.split(",")).map(_.trim).filter(_.nonEmpty).foreach { name =>
          assert(read(file).contains(s"def $name("), s"$file has no test '$name' (docs/supported.md)")
        }
      case p =>
        val (suite, name) = p.split("›", 2) match {
          case Array(s, n) => (s.trim.stripPrefix("`").stripSuffix("`"), n.trim)
          case _ => fail(s"unreadable proof '$p'")
        }
        assert(TestSuites.testNames(suite).contains(name), s"$suite has no test '$name'")
    }
  }

  test("docs/functions.md lists exactly the mapped functions and aliases") {
    val doc = read("docs/functions.md")
    val listed =
      doc.linesIterator.filter(l => l.startsWith("| ") && !l.startsWith("| Function") && !l.startsWith("| Written"))
        .flatMap(_.split("\\|")(1).split(",").map(_.trim.stripPrefix("`").stripSuffix("`"))).toSet
    val mapped = (FunctionCatalog.scalarNames ++ FunctionCatalog.aggregateNames ++ FunctionCatalog.windowNames).map(
      _._1).toSet
    val aliases = FunctionAliases.all.keySet
    assert(mapped -- listed == Set.empty, "mapped but not in docs/functions.md")
    assert(aliases -- listed == Set.empty, "aliases not in docs/functions.md")
    assert(listed -- mapped -- aliases == Set.empty, "in docs/functions.md but not mapped")
  }

  test("docs/performance.md's plan shapes table lists exactly the converter's shapes, each with a test") {
    val doc = read("docs/performance.md")
    val section = doc.substring(doc.indexOf("## Plan shapes"), doc.indexOf("## TPC-H"))
    val listed = section.linesIterator.filter(l => l.startsWith("| `")).map(
      _.split("\\|")(1).trim.stripPrefix("`").stripSuffix("`")).toSeq
    val shapes = io.sparksubstrait.shape.PlanShapes.all.map(_.name)
    assert(listed.sorted == shapes.sorted)
    val tests = TestSuites.testNames("PlanShapesSuite")
    shapes.foreach(name => assert(tests.exists(_.startsWith(name + ":")), s"PlanShapesSuite has no test of $name"))
  }

  test("docs/errors.md documents every error condition") {
    val doc = read("docs/errors.md")
    val json = read("jvm/src/main/resources/io/sparksubstrait/error-conditions.json")
    val conditions = "\"(SUBSTRAIT_[A-Z_]+)\"".r.findAllMatchIn(json).map(_.group(1)).toSet
    assert(conditions.size >= 10)
    conditions.foreach(c => assert(doc.contains(s"`$c`"), s"$c missing from docs/errors.md"))
  }
}
