package io.sparksubstrait.testing

import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.scalatest.Suite

/**
 * The test suites the docs name by simple name ("`JoinsSuite` › a test's name"), wherever their
 * area folder puts them: found by their source file under jvm/src/test, their class name read
 * from its package clauses. A suite of another Spark version's test folder (spark-4/…) is not
 * built by this build; its test names are then read from the source.
 */
object TestSuites {
  private val testRoot = Paths.get("jvm/src/test")
  private val PackageClause = """(?m)^package ([\w.]+)\s*$""".r
  private val TestName = """test\("((?:[^"\\]|\\.)*)"""".r

  /** The source of the suite `simpleName`, in any test folder; fails when there is none or several. */
  def source(simpleName: String): Path = {
    val walk = Files.walk(testRoot)
    val found = try walk.iterator.asScala.filter(_.getFileName.toString == s"$simpleName.scala").toList
    finally walk.close()
    found match {
      case Seq(one) => one
      case Nil => throw new NoSuchElementException(s"no test suite $simpleName under $testRoot")
      case many => throw new IllegalStateException(s"test suite $simpleName is defined ${many.size} times: $many")
    }
  }

  /** The suite's fully qualified class name: its package clauses (chained ones joined) and name. */
  def className(simpleName: String): String = {
    val text = new String(Files.readAllBytes(source(simpleName)), "UTF-8")
    (PackageClause.findAllMatchIn(text).map(_.group(1)).toSeq :+ simpleName).mkString(".")
  }

  /** The names of the suite's tests: from an instance when built here, else from its source text. */
  def testNames(simpleName: String): Set[String] =
    try Class.forName(className(simpleName)).getDeclaredConstructor().newInstance().asInstanceOf[Suite].testNames
    catch {
      case _: ClassNotFoundException =>
        val text = new String(Files.readAllBytes(source(simpleName)), "UTF-8")
        TestName.findAllMatchIn(text).map(_.group(1)).toSet
    }
}
