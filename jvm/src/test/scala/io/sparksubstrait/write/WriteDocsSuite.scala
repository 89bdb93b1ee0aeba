package io.sparksubstrait
package write

import java.nio.file.{Files, Paths}

import org.scalatest.funsuite.AnyFunSuite

import io.sparksubstrait.testing.TestSuites
import io.sparksubstrait.write.expr.FunctionWrites

/** Keeps docs/writing.md honest: every "Proved by" names a real test; the function table is the writer's. */
class WriteDocsSuite extends AnyFunSuite {
  private val doc = new String(Files.readAllBytes(Paths.get("docs/writing.md")), "UTF-8")
  private def rows(section: String): Seq[Seq[String]] = {
    val body = doc.split("\n### ").find(_.startsWith(section)).getOrElse(fail(s"no section $section"))
      .split("\n## ").head.linesIterator
    body.filter(l => l.startsWith("|") && !l.startsWith("|---")).map(
      _.split("\\|").map(_.trim).filter(_.nonEmpty).toSeq)
      .filterNot(_.head == "Catalyst").toSeq
  }

  test("every row of docs/writing.md's feature tables names a test that exists") {
    val proofs = Seq("Relations", "Expressions", "Functions").flatMap(rows).map(_.last)
    assert(proofs.size > 30)
    proofs.foreach { p =>
      val Array(suite, name) = p.split("›", 2).map(_.trim)
      assert(TestSuites.testNames(suite.stripPrefix("`").stripSuffix("`")).contains(name),
        s"$suite has no test '$name'")
    }
  }

  test("the function table lists exactly the writer's reverse function table") {
    val listed = rows("Functions").flatMap(_.head.split(",").map(_.trim.stripPrefix("`").stripSuffix("`"))).toSet
    val written = FunctionWrites.allRows.map(_.catalyst.getSimpleName).toSet
    assert(written -- listed == Set.empty, "written but not in docs/writing.md")
    assert(listed -- written == Set.empty, "in docs/writing.md but not written")
  }
}
