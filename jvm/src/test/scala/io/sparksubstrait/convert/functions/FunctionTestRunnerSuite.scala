package io.sparksubstrait
package convert.functions

import org.apache.spark.sql.SparkSession
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import io.sparksubstrait.functiontests._

/**
 * The function-test runner itself (dev/function-tests runs it over the spec's files): its
 * parser reads every form, and its judge catches wrong values, so a passing count means
 * something.
 */
class FunctionTestRunnerSuite extends AnyFunSuite with BeforeAndAfterAll {
  @transient private var spark: SparkSession = _
  override def beforeAll(): Unit = {
    SparkSession.getActiveSession.foreach(_.stop())
    spark = FunctionTests.session()
  }
  override def afterAll(): Unit = if (spark != null) spark.stop()

  private def scalarFile(body: String) =
    TestFileParser.parse(
      "### SUBSTRAIT_SCALAR_TEST: v1.0\n### SUBSTRAIT_INCLUDE: extension:io.substrait:functions_arithmetic\n\n# basic: x\n" +
        body, "t.test")

  private def outcomes(file: FunctionTestFile): Seq[Outcome] = {
    val runner = new CaseRunner(spark)
    file.cases.map(runner.run(file, _))
  }

  test("parses scalar cases: values, types, options, errors") {
    val f = scalarFile(
      """add(120::i8, 5::i8) = 125::i8
        |add(120::i8, 10::i8) [overflow:ERROR, rounding:TIE_TO_EVEN] = <!ERROR>
        |add(null::dec?<38, 2>, 1.5::dec<2,1>) = null::dec?<38, 2>
        |concat('a b'::vchar<3>, 'c'::str) = 'a bc'::str
        |extract(YEAR::enum, 2016-12-31T13:30:15-08:00::ptstz<6>) = 2016::i64
        |add(P1D::iday, PT10H::iday) = P1DT10H0M0S::iday
        |sort([3, Null]::list<i32?>) = [Null, 3]::list<i32?>
        |all_match([1]::list<i32>, (x -> gt(x, 0::i32))::func<i32 -> bool?>) = true::bool?
        |add(1::i8, 1::i8) [overflow:SILENT] = <!UNDEFINED>""".stripMargin)
    assert(f.extension == "functions_arithmetic")
    val Seq(c0, c1, c2, c3, c4, c5, c6, c7, c8) = f.cases
    assert(c0.call == Call("add",
      Seq(TypedValue(Token("120"), TestType("i8", false)), TypedValue(Token("5"), TestType("i8", false)))))
    assert(c0.expected == ExpectValue(TypedValue(Token("125"), TestType("i8", false))))
    assert(c0.group == "basic" && c0.line == 5)
    assert(c1.options == Seq("overflow" -> "ERROR", "rounding" -> "TIE_TO_EVEN") && c1.expected == ExpectError)
    assert(c2.call.args.head == TypedValue(NullValue, TestType("dec", true, Seq(IntParam(38), IntParam(2)))))
    assert(c3.call.args.head == TypedValue(QuotedString("a b"), TestType("vchar", false, Seq(IntParam(3)))))
    assert(c4.call.args == Seq(EnumValue("YEAR"),
      TypedValue(Token("2016-12-31T13:30:15-08:00"), TestType("ptstz", false, Seq(IntParam(6))))))
    assert(c5.expected == ExpectValue(TypedValue(Token("P1DT10H0M0S"), TestType("iday", false))))
    assert(c6.call.args.head == TypedValue(ListValue(Seq(Token("3"), NullValue)),
      TestType("list", false, Seq(TypeParam(TestType("i32", true))))))
    assert(c7.call.args(1).isInstanceOf[LambdaValue])
    assert(c8.expected == ExpectUndefined)
  }

  test("parses the three aggregate forms and window cases") {
    val agg = TestFileParser.parse(
      """### SUBSTRAIT_AGGREGATE_TEST: v1.0
        |### SUBSTRAIT_INCLUDE: extension:io.substrait:functions_arithmetic
        |count((1, Null, 3)::i16) = 2::i64
        |((1.0), (2.0)) variance(SAMPLE::enum, col0::fp64) = 0.5::fp64?
        |(()) variance(SAMPLE::enum, col0::fp64) = Null::fp64?
        |DEFINE t1(fp64, fp64) = ((1.0, 2.0), (2.0, 4.0))
        |corr(t1.col0, t1.col1) = 1.0::fp64?""".stripMargin, "a.test")
    val Seq(single, compact, empty, defined) = agg.cases
    assert(single.table.contains(TestTable(Seq(TestType("i16", false)),
          Seq(Seq(Token("1")), Seq(NullValue), Seq(Token("3"))))))
    assert(compact.table.get.rows.size == 2 && compact.call.args.head == EnumValue("SAMPLE"))
    assert(empty.table.get.rows.isEmpty && empty.table.get.columnTypes.size == 1)
    assert(defined.table.get.columnTypes.size == 2 && defined.call.args == Seq(ColumnRef(0, None), ColumnRef(1, None)))
    val window = TestFileParser.parse(
      """### SUBSTRAIT_WINDOW_TEST: v1.0
        |### SUBSTRAIT_INCLUDE: extension:io.substrait:functions_arithmetic
        |DEFINE f1(i32) = ((5), (6))
        |lag(col0) OVER f1 = (Null, 5)::i32?""".stripMargin, "w.test")
    assert(window.cases.head.expected == ExpectColumn(Seq(NullValue, Token("5")), TestType("i32", true)))
  }

  test("a malformed line is a syntax error naming the file and line") {
    val e = intercept[TestFileSyntaxError](scalarFile("add(1::i8, 2::i8 = 3::i8"))
    assert(e.getMessage.startsWith("t.test:5:"))
  }

  test("the judge: right values pass, wrong values and missing errors are wrong, refusals are unsupported") {
    val f = scalarFile(
      """add(1::i8, 2::i8) = 3::i8
        |add(1::i8, 2::i8) = 4::i8
        |add(1::i8, 2::i8) = <!ERROR>
        |add(127::i8, 1::i8) [overflow:ERROR] = <!ERROR>
        |add(127::i8, 1::i8) [overflow:ERROR] = 0::i8
        |no_such_function(1::i8) = 1::i8
        |add(1::i8, 2::i8) [overflow:SILENT] = <!UNDEFINED>
        |divide(1.0::fp64, 3.0::fp64) = 0.333333333333333::fp64
        |divide(1.0::fp64, 3.0::fp64) = 0.3333::fp64""".stripMargin)
    val got = outcomes(f)
    assert(got(0) == Outcome.Passed)
    assert(got(1) == Outcome.Wrong("expected 4, got 3"))
    assert(got(2).isInstanceOf[Outcome.Wrong])
    assert(got(3) == Outcome.Passed, "Spark's ANSI overflow is the overflow the option asks for")
    assert(got(4).isInstanceOf[Outcome.Failed])
    assert(got(5).isInstanceOf[Outcome.Unsupported])
    assert(got(6) == Outcome.Passed)
    assert(got(7) == Outcome.Passed, "fp64 within a relative 1e-12")
    assert(got(8).isInstanceOf[Outcome.Wrong], "but not within 1e-4")
  }

  test("aggregate and window cases run as plans with rows, NULLs and empty input") {
    def aggregates(ext: String, lines: String) =
      outcomes(TestFileParser.parse(
          s"### SUBSTRAIT_AGGREGATE_TEST: v1.0\n### SUBSTRAIT_INCLUDE: extension:io.substrait:$ext\n$lines", "a.test"))
    val counts =
      aggregates("functions_aggregate_generic", "count((1, Null, 3, 3)::i16) = 3::i64\ncount((1, Null)::i16) = 2::i64")
    assert(counts.head == Outcome.Passed && counts(1).isInstanceOf[Outcome.Wrong])
    assert(aggregates("functions_arithmetic", "sum(()::i32) = Null::i64?\nmax((Null, Null)::i32) = Null::i32?") ==
      Seq(Outcome.Passed, Outcome.Passed))
    val window = TestFileParser.parse(
      """### SUBSTRAIT_WINDOW_TEST: v1.0
        |### SUBSTRAIT_INCLUDE: extension:io.substrait:functions_arithmetic
        |DEFINE f1(i32) = ((5), (Null), (7))
        |lag(col0) OVER f1 = (Null, 5, Null)::i32?
        |lag(col0) OVER f1 = (Null, 5, 7)::i32?""".stripMargin, "w.test")
    assert(outcomes(window).map(_.getClass) == Seq(Outcome.Passed.getClass, classOf[Outcome.Wrong]))
  }

  test("saturating arithmetic keeps NULLs NULL, signed and unsigned") {
    val signed = scalarFile(
      """add(120::i8, 10::i8) [overflow:SATURATE] = 127::i8
        |add(120::i8, null::i8?) [overflow:SATURATE] = null::i8?
        |negate(-128::i8) [overflow:SATURATE] = 127::i8""".stripMargin)
    assert(outcomes(signed) == Seq(Outcome.Passed, Outcome.Passed, Outcome.Passed))
    val unsigned = TestFileParser.parse(
      """### SUBSTRAIT_SCALAR_TEST: v1.0
        |### SUBSTRAIT_INCLUDE: extension:io.substrait:unsigned_integers
        |add(('200')::u!u8, ('100')::u!u8) [overflow:SATURATE] = ('255')::u!u8
        |add(('200')::u!u8, null::u!u8?) [overflow:SATURATE] = null::u!u8?
        |subtract(('0')::u!u8, ('1')::u!u8) [overflow:SATURATE] = ('0')::u!u8""".stripMargin, "u.test")
    assert(outcomes(unsigned) == Seq(Outcome.Passed, Outcome.Passed, Outcome.Passed))
    // u64 products need 39 digits, beyond a Spark decimal: (2^64 - 1)^2 is 1 modulo 2^64.
    val products = TestFileParser.parse(
      """### SUBSTRAIT_SCALAR_TEST: v1.0
        |### SUBSTRAIT_INCLUDE: extension:io.substrait:unsigned_integers
        |multiply(('18446744073709551615')::u!u64, ('18446744073709551615')::u!u64) [overflow:SILENT] = ('1')::u!u64
        |multiply(('18446744073709551615')::u!u64, ('2')::u!u64) [overflow:SILENT] = ('18446744073709551614')::u!u64
        |multiply(('18446744073709551615')::u!u64, ('18446744073709551615')::u!u64) [overflow:SATURATE] = ('18446744073709551615')::u!u64
        |multiply(('18446744073709551615')::u!u64, ('18446744073709551615')::u!u64) [overflow:ERROR] = <!ERROR>
        |multiply(('4294967296')::u!u64, ('4294967295')::u!u64) [overflow:ERROR] = ('18446744069414584320')::u!u64
        |multiply(('200')::u!u8, ('2')::u!u8) [overflow:SILENT] = ('144')::u!u8""".stripMargin, "m.test")
    assert(outcomes(products) == Seq.fill(6)(Outcome.Passed))
  }

  private def arithmetic(line: String): (FunctionTestFile, FunctionTestCase) = {
    val f = scalarFile(line)
    (f, f.cases.head)
  }

  test("an <!ERROR> case passes only on the kind of error its options ask for, told by the condition") {
    val runner = new CaseRunner(spark)
    val (_, overflow) = arithmetic("add(127::i8, 1::i8) [overflow:ERROR] = <!ERROR>")
    def substraitError(condition: String) = Left(io.sparksubstrait.errors.SubstraitErrors.functionError(
        condition, "relations[0]", "add", "made up for the test"))
    assert(runner.judge(overflow, substraitError("SUBSTRAIT_ARITHMETIC_OVERFLOW")) == Outcome.Passed)
    assert(runner.judge(overflow, substraitError("SUBSTRAIT_DOMAIN_ERROR")).isInstanceOf[Outcome.Failed])
    assert(runner.judge(overflow, Left(new RuntimeException("a conversion bug"))).isInstanceOf[Outcome.Failed])
    assert(runner.judge(overflow, Left(new IllegalStateException("overflow"))).isInstanceOf[Outcome.Failed],
      "the word is not the condition")
    // Real runs: each option's error from the product, with its condition.
    assert(outcomes(scalarFile("divide(5::i8, 0::i8) [on_division_by_zero:ERROR] = <!ERROR>")) == Seq(Outcome.Passed))
    val logs = TestFileParser.parse(
      """### SUBSTRAIT_SCALAR_TEST: v1.0
        |### SUBSTRAIT_INCLUDE: extension:io.substrait:functions_logarithmic
        |ln(-1.0::fp64) [on_domain_error:ERROR] = <!ERROR>
        |ln(0.0::fp64) [on_log_zero:ERROR] = <!ERROR>
        |ln(0.0::fp64) [on_domain_error:ERROR] = <!ERROR>""".stripMargin, "l.test")
    val got = outcomes(logs)
    assert(got.take(2) == Seq(Outcome.Passed, Outcome.Passed))
    assert(got(2).isInstanceOf[Outcome.Wrong],
      "ln(0) is not a domain error: -inf (on_log_zero's default), not an error")
    val (_, unnamed) = arithmetic("add(1::i8, 1::i8) = <!ERROR>")
    assert(runner.judge(unnamed, substraitError("SUBSTRAIT_ARITHMETIC_OVERFLOW")).detail.contains("no kind is listed"))
  }

  test("an erratum is judged against its hand-worked value: the same value is an erratum, another is wrong") {
    val runner = new CaseRunner(spark)
    val (f, saturate) = arithmetic("multiply(-13::i8, -10::i8) [overflow:SATURATE] = -128::i8")
    val erratum = Errata.of(saturate).getOrElse(fail("multiply saturate is a listed erratum"))
    assert(erratum.answer == ValueAnswer("127::i8"))
    assert(runner.run(f, saturate).isInstanceOf[Outcome.Erratum], "the product saturates to 127, the hand-worked value")
    assert(runner.judge(saturate, Right(Seq(java.lang.Byte.valueOf(127.toByte)))).isInstanceOf[Outcome.Erratum])
    assert(runner.judge(saturate, Right(Seq(java.lang.Byte.valueOf(-128.toByte)))).isInstanceOf[Outcome.Wrong],
      "the spec's own value is wrong too")
    // The computation changed (SILENT wraps 130 to -126) under the same case text: wrong, not an erratum.
    val changed = runner.run(f, saturate.copy(options = Seq("overflow" -> "SILENT")))
    assert(changed == Outcome.Wrong("erratum (hand-worked 127::i8): expected 127, got -126"))
  }

  test("an erratum of an aggregate: a changed computation under the same case text is wrong") {
    val agg = TestFileParser.parse(
      """### SUBSTRAIT_AGGREGATE_TEST: v1.0
        |### SUBSTRAIT_INCLUDE: extension:io.substrait:functions_arithmetic
        |((-5.0), (-3.0), (-1.0), (1.0), (3.0), (5.0)) variance(SAMPLE::enum, col0::fp64) = 15.166666666666666::fp64?""".stripMargin,
      "v.test")
    val runner = new CaseRunner(spark)
    val c = agg.cases.head
    assert(runner.run(agg, c).isInstanceOf[Outcome.Erratum], "70 / 5 = 14, the hand-worked sample variance")
    val population = c.copy(call = c.call.copy(args = EnumValue("POPULATION") +: c.call.args.tail))
    assert(runner.run(agg, population).isInstanceOf[Outcome.Wrong], "70 / 6 is not the hand-worked 14")
  }

  test("an ambiguous case is reported with its readings when ours holds, and wrong when it does not") {
    val f = TestFileParser.parse(
      """### SUBSTRAIT_SCALAR_TEST: v1.0
        |### SUBSTRAIT_INCLUDE: extension:io.substrait:functions_string
        |regexp_replace('abc'::str, '(.*)c'::str, '\1e'::str) = 'abe'::str""".stripMargin, "r.test")
    val runner = new CaseRunner(spark)
    val c = f.cases.head
    runner.run(f, c) match {
      case a: Outcome.Ambiguous => assert(a.detail.contains("ICU") && a.detail.contains("'1e'"))
      case other => fail(s"expected ambiguous, got $other")
    }
    assert(runner.judge(c, Right(Seq("1e"))).isInstanceOf[Outcome.Wrong], "the other reading's value is not ours")
  }
}
