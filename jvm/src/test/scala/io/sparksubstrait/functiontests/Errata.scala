package io.sparksubstrait.functiontests

import io.sparksubstrait.functiontests.ErrorKind.InvalidPlan

/**
 * Cases of the spec's test files whose expected value contradicts the extension YAML they
 * test (or arithmetic), each with the value worked out by hand and a one-line derivation.
 * The runner reports such a case as an erratum only when our value is the hand-worked one;
 * any other value is wrong. Keyed by the case's text as written, so a corrected test file
 * makes its entry inert (and a removed one is reported by FunctionTestRunnerSuite).
 */
object Errata {
  private def value(source: String, correct: String, derivation: String) =
    Erratum(source, ValueAnswer(correct), derivation)
  private def invalid(source: String, derivation: String) = Erratum(source, ErrorAnswer(InvalidPlan), derivation)

  private val NanChosen = "on_domain_error NAN asks for NaN outside the domain; the case expects NULL, the NULL choice"
  private val LogZeroNan = "on_log_zero NAN asks for NaN for the logarithm of 0; the case expects NULL"
  private val DomainNone =
    "NONE is not a value of on_domain_error (the YAML lists NAN, NULL, ERROR): the plan is invalid"
  private val EveryMatch =
    "occurrence 0, the 3-argument form's default, replaces every match (the YAML); the case replaces the first only"
  private val Rows6 = "((-5.0), (-3.0), (-1.0), (1.0), (3.0), (5.0)) "
  private val Rows5a = "((1.1), (2.2), (3.3), (4.4), (5.5)) "
  private val Rows5b = "((0.0), (100.0), (50.0), (25.0), (75.0)) "
  private val Var6 = "mean 0, squared deviations 25+9+1+1+9+25 = 70; sample variance 70/(6-1) = 14"
  private val Var5a = "mean 3.3, squared deviations 2(2.2^2 + 1.1^2) = 12.1; sample variance 12.1/4 = 3.025"
  private val Var5b = "mean 50, squared deviations 2500+2500+0+625+625 = 6250"
  private val LogbOrder =
    "the YAML's logb(x, base) = log_base(x) takes x first (DataFusion writes it so); the case puts the base first"

  val all: Seq[Erratum] = Seq(
    value("sqrt(-1::i64) [on_domain_error:NAN] = null::fp64?", "nan::fp64", NanChosen),
    value("sqrt(-9223372036854775800::i64) [on_domain_error:NAN] = null::fp64?", "nan::fp64", NanChosen),
    value("shift_left(301989888::i64, 8::i32) = 19791209299968::i64", "77309411328::i64",
      "301989888 = 0x12000000; << 8 is 0x1200000000 = 77309411328 (the case's value is << 16)"),
    value("multiply(-13::i8, -10::i8) [overflow:SATURATE] = -128::i8", "127::i8",
      "-13 * -10 = 130 > 127 saturates to the i8 maximum 127"),
    invalid("divide(5::i8, 0::i8) [on_division_by_zero:NAN] = null::i8?",
      "integer divide's on_division_by_zero is NULL or ERROR (IEEE and LIMIT are the floating-point overloads'); NAN is neither"),
    invalid("acosh(0.5::fp32) [on_domain_error:NONE] = null::fp32?",
      "NONE is not a value of acosh's on_domain_error (the YAML lists NAN, ERROR): the plan is invalid"),

    value(Rows6 + "variance(SAMPLE::enum, col0::fp32) = 15.166667::fp32?", "14.0::fp32?", Var6),
    value(Rows6 + "variance(SAMPLE::enum, col0::fp64) = 15.166666666666666::fp64?", "14.0::fp64?", Var6),
    value(Rows5a + "variance(SAMPLE::enum, col0::fp32) [rounding:TIE_TO_EVEN] = 3.03::fp32?", "3.025::fp32?", Var5a),
    value(Rows5a + "variance(SAMPLE::enum, col0::fp64) [rounding:TRUNCATE] = 3.0299999999999994::fp64?", "3.025::fp64?",
      Var5a),
    value(Rows5b + "variance(SAMPLE::enum, col0::fp32) = 1681.25::fp32?", "1562.5::fp32?",
      s"$Var5b; sample variance 6250/4 = 1562.5"),
    value(Rows5b + "variance(POPULATION::enum, col0::fp64) = 1345.0::fp64?", "1250.0::fp64?",
      s"$Var5b; population variance 6250/5 = 1250"),
    value(Rows6 + "std_dev(SAMPLE::enum, col0::fp32) = 3.8944404::fp32?", "3.7416573867739413::fp32?",
      s"$Var6; sqrt(14) = 3.74166"),
    value(Rows6 + "std_dev(SAMPLE::enum, col0::fp64) = 3.8944404818493075::fp64?", "3.7416573867739413::fp64?",
      s"$Var6; sqrt(14) = 3.74166"),
    value(Rows5a + "std_dev(SAMPLE::enum, col0::fp32) [rounding:TIE_TO_EVEN] = 1.7406897::fp32?",
      "1.7392527130926085::fp32?",
      s"$Var5a; sqrt(3.025) = 1.73925"),
    value(Rows5a + "std_dev(SAMPLE::enum, col0::fp64) [rounding:TRUNCATE] = 1.7406897166664838::fp64?",
      "1.7392527130926085::fp64?",
      s"$Var5a; sqrt(3.025) = 1.73925"),
    value(Rows5b + "std_dev(SAMPLE::enum, col0::fp32) = 41.010193::fp32?", "39.528470752104745::fp32?",
      s"$Var5b; sqrt(6250/4) = 39.5285"),
    value(Rows5b + "std_dev(POPULATION::enum, col0::fp64) = 36.66060555964672::fp64?", "35.35533905932738::fp64?",
      s"$Var5b; sqrt(6250/5) = 35.3553"),

    value("extract(SUNDAY_DAY_OF_WEEK::enum, 2016-12-25T13:30:15::pts<6>) = 7::i64", "1::i64",
      "2016-12-25 is a Sunday, the first day of a week from Sunday: 1 counting from 1 (0 with indexing ZERO, never 7); the case omits indexing, read as before spec 0.30 (from 1)"),
    value("extract(MONDAY_DAY_OF_WEEK::enum, 2016-12-25T13:30:15::pts<6>) = 0::i64", "7::i64",
      "2016-12-25 is a Sunday, the seventh day of a week from Monday: 7 counting from 1 (6 with indexing ZERO, never 0); the case omits indexing, read as before spec 0.30 (from 1)"),
    value("extract(MILLISECOND::enum, 2016-12-31T13:30:15::pts<6>) = 15000::i64", "0::i64",
      "the YAML's MILLISECOND counts milliseconds since the last full second: 15.000 s has 0 (the case counts the 15 s too)"),
    value("extract(MICROSECOND::enum, 2016-12-31T13:30:15.220000::pts<6>) = 15220000::i64", "0::i64",
      "the YAML's MICROSECOND counts microseconds since the last full millisecond: 15.220000 s is 15220 ms and 0 us"),
    value("extract(MILLISECOND::enum, 01:02:03.155::pt<6>) = 3155::i64", "155::i64",
      "milliseconds since the last full second: 03.155 s has 155 (the case counts the 3 s too)"),
    value("extract(MICROSECOND::enum, 01:02:03.45::pt<6>) = 3450000::i64", "0::i64",
      "microseconds since the last full millisecond: 03.45 s is 3450 ms and 0 us"),

    invalid("ln(-inf::fp64) [on_domain_error:NONE] = null::fp64?", DomainNone),
    value("ln(0.0::fp64) [on_log_zero:NAN] = null::fp64?", "nan::fp64", LogZeroNan),
    invalid("log10(-inf::fp64) [on_domain_error:NONE] = null::fp64?", DomainNone),
    value("log10(0.0::fp64) [on_log_zero:NAN] = null::fp64?", "nan::fp64", LogZeroNan),
    invalid("log2(-inf::fp64) [on_domain_error:NONE] = null::fp64?", DomainNone),
    value("log2(0.0::fp64) [on_log_zero:NAN] = null::fp64?", "nan::fp64", LogZeroNan),
    value("logb(10::i64, 100000::i64) = 5.0::fp64", "0.2::fp64", s"$LogbOrder: log_100000(10) = 1/5"),
    value("logb(7::fp64, 1.0::fp64) = 0::fp64", "nan::fp64",
      s"$LogbOrder: log_1(7) has no value (ln 1 = 0), a domain error, NaN when on_domain_error is not given"),
    value("logb(2::fp64, 7::fp64) = 2.8073549220576041::fp64", "0.3562071871080222::fp64",
      s"$LogbOrder: log_7(2) = ln 2 / ln 7"),
    value("logb(2.34::fp64, inf::fp64) = inf::fp64", "0.0::fp64", s"$LogbOrder: log_inf(2.34) = ln 2.34 / inf = 0"),
    invalid("logb(10::fp64, -inf::fp64) [on_domain_error:NONE] = null::fp64?", DomainNone),
    value("logb(2.0::fp64, 0.0::fp64) [on_log_zero:ERROR] = <!ERROR>", "nan::fp64",
      s"$LogbOrder: base 0 is outside the domain (x = 2 is not zero), NaN when on_domain_error is not given"),
    value("logb(2.0::fp64, 0.0::fp64) [on_log_zero:NAN] = null::fp64?", "nan::fp64",
      s"$LogbOrder: base 0 is outside the domain (x = 2 is not zero), NaN when on_domain_error is not given"),
    value("logb(2.0::fp64, 0.0::fp64) [on_log_zero:MINUS_INFINITY] = -inf::fp64", "nan::fp64",
      s"$LogbOrder: base 0 is outside the domain (x = 2 is not zero), NaN when on_domain_error is not given"),

    value("regexp_replace('a bcdef'::str, '\\S'::str, ','::str, 1::i64, 0::i64) = ', bcdef'::str", "', ,,,,,'::str",
      EveryMatch),
    value("regexp_replace(' abcdef'::str, '\\w'::str, '1'::str, 1::i64, 0::i64) = ' 1bcdef'::str", "' 111111'::str",
      EveryMatch),
    value("regexp_replace('a bcdef'::str, '\\S'::str, ','::str) = ', bcdef'::str", "', ,,,,,'::str", EveryMatch),
    value("regexp_replace(' abcdef'::str, '\\w'::str, '1'::str) = ' 1bcdef'::str", "' 111111'::str", EveryMatch),
    value("regexp_replace('abcabcabc'::str, '[bc]'::str, 'dd'::str, 1::i64, 0::i64) = 'addcabcabc'::str",
      "'addddaddddadddd'::str", EveryMatch),
    value("regexp_replace('abcabcabc'::str, '[bc]'::str, 'dd'::str) = 'addcabcabc'::str", "'addddaddddadddd'::str",
      EveryMatch)
  )

  private val bySource: Map[String, Erratum] = all.map(e => e.source -> e).toMap
  require(bySource.size == all.size, "an erratum listed twice")

  def of(c: FunctionTestCase): Option[Erratum] = bySource.get(c.source)
}
