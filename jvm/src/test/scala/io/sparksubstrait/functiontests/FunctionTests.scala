package io.sparksubstrait.functiontests

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import org.apache.spark.sql.SparkSession

/**
 * `dev/function-tests`: runs every case of the spec's function test files through the
 * extension and reports, per extension YAML, how many passed, are errata (our value the
 * hand-worked one), ambiguous, failed, wrong or unsupported.
 *
 * Usage: FunctionTests TESTCASES_DIR [--report docs/function-tests.md] [--check]
 * `--check` exits non-zero when any case returned a wrong value, or a file did not parse.
 */
object FunctionTests {
  final case class Result(file: FunctionTestFile, c: FunctionTestCase, outcome: Outcome)

  def main(args: Array[String]): Unit = {
    val root =
      Paths.get(args.headOption.getOrElse(sys.error("usage: FunctionTests TESTCASES_DIR [--report FILE] [--check]")))
    val report = args.sliding(2).collectFirst { case Array("--report", f) => Paths.get(f) }
    val check = args.contains("--check")
    val spark = session()
    val (results, syntaxErrors, audit) = try {
      val (rs, errors) = runAll(spark, root)
      (rs, errors, OverloadAudit.audit(spark, root.resolveSibling("extensions")))
    } finally spark.stop()
    val summary = FunctionTestReport.summary(results, syntaxErrors)
    println(summary.table)
    syntaxErrors.foreach(e => println(s"syntax error: ${e.getMessage}"))
    report.foreach { f =>
      Files.write(f, FunctionTestReport.markdown(results, syntaxErrors, root, audit).getBytes(StandardCharsets.UTF_8))
      println(s"report written to $f")
    }
    println(
      s"overloads of the standard YAMLs: ${audit.count(_.refused.isEmpty)} convert, ${audit.count(_.refused.nonEmpty)} refused, " +
        s"${audit.count(_.typeDiffers.nonEmpty)} with another result type than the YAML's")
    val wrong = results.count(_.outcome.isInstanceOf[Outcome.Wrong])
    println(s"wrong values: $wrong")
    println(summary.lastLine)
    if (check && (wrong > 0 || syntaxErrors.nonEmpty)) sys.exit(1)
  }

  def runAll(spark: SparkSession, root: Path): (Seq[Result], Seq[TestFileSyntaxError]) = {
    val runner = new CaseRunner(spark)
    val parsed = TestFileParser.testFiles(root).map { p =>
      try Right(TestFileParser.parseFile(p))
      catch { case e: TestFileSyntaxError => Left(e) }
    }
    val files = parsed.collect { case Right(f) => f }
    val results = files.flatMap(f => f.cases.map(c => Result(f, c, runner.run(f, c))))
    (results, parsed.collect { case Left(e) => e })
  }

  def session(): SparkSession = {
    val s = SparkSession.builder().master("local[1]").appName("substrait-function-tests")
      .config("spark.ui.enabled", "false")
      .config("spark.sql.shuffle.partitions", "1")
      .config("spark.driver.host", "127.0.0.1")
      .config("spark.sql.datetime.java8API.enabled", "true")
      .config("spark.sql.session.timeZone", "UTC")
      // precision_time cases need Spark's TIME (4.1+), which is off by default; older Sparks ignore the key.
      .config("spark.sql.timeType.enabled", "true")
      .config("spark.sql.extensions", "io.sparksubstrait.SubstraitExtensions")
      .getOrCreate()
    s.sparkContext.setLogLevel("OFF")
    s
  }
}
