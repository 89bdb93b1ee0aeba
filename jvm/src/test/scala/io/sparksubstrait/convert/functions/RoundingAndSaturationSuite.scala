package io.sparksubstrait
package convert.functions

import java.math.{BigDecimal => JBigDecimal}

import io.sparksubstrait.errors.SubstraitFunctionException
import io.sparksubstrait.proto.{Expression, Plan, Type}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * round in each of the ten modes of functions_rounding(_decimal) (integers, floats at their
 * exact binary value, decimals; the scale a column or a literal), decimal arithmetic with
 * overflow SATURATE, and the decimal power's overflow option: rows worked out by hand from
 * the YAMLs' words.
 */
class RoundingAndSaturationSuite extends SparkSuite with SubstraitAssertions {
  private val Modes =
    Seq("TIE_TO_EVEN", "TIE_AWAY_FROM_ZERO", "TRUNCATE", "CEILING", "FLOOR", "AWAY_FROM_ZERO", "TIE_DOWN",
      "TIE_UP", "TIE_TOWARDS_ZERO", "TIE_TO_ODD")

  /** `ext:fn` over each row of a virtual table of `types`; `args` picks columns or literals. */
  private def scalar(ext: String, fn: String, options: Seq[(String, Seq[String])], types: Seq[Type],
    rows: Seq[Seq[Expression]],
    args: Seq[Expression]): Plan = {
    val pb = new PlanBuilder()
    val table = readVirtual(schema(types.zipWithIndex.map { case (t, i) => s"c$i" -> t }: _*), rows)
    pb.plan(emit(project(table, pb.callWith(pb.fn(ext, fn), options, None, args: _*)), types.size), "r")
  }

  private def values(p: Plan): Seq[Any] = run(p).collect().toSeq.map(_.get(0))

  private def functionError(p: Plan): SubstraitFunctionException = {
    val e = intercept[Exception](run(p).collect())
    causes(e).collectFirst { case f: SubstraitFunctionException =>
      f
    }
      .getOrElse(fail(s"not a function error: $e"))
  }

  /** round(x, s) for every mode, s a column (its own column per row) and x a column. */
  private def roundEachMode(ext: String, sig: String, xType: Type, rows: Seq[(Expression, Int)])
    : Map[String, Seq[Any]] =
    Modes.map { mode =>
      val p = scalar(ext, s"round:$sig", Seq("rounding" -> Seq(mode)), Seq(xType, i32()),
        rows.map { case (x, s) => Seq(x, litI32(s)) }, Seq(field(0), field(1)))
      mode -> values(p)
    }.toMap

  private def negativeZero(v: Any): Boolean = v == -0.0 && 1.0 / v.asInstanceOf[Double] < 0

  test("round of fp64 in every mode: the exact binary value (2.675 is 2.67499…), ties only where the value is one") {
    val got = roundEachMode("functions_rounding", "fp64_i32", fp64(),
      Seq(litFp64(0.125) -> 2, litFp64(-0.125) -> 2, litFp64(2.675) -> 2, litFp64(-0.001) -> 2, litFp64(1234.5) -> -2))
    val expected = Map(
      //                        0.125  -0.125  2.675  -0.001  1234.5 @ -2
      "TIE_TO_EVEN" -> Seq(0.12, -0.12, 2.67, -0.0, 1200.0),
      "TIE_AWAY_FROM_ZERO" -> Seq(0.13, -0.13, 2.67, -0.0, 1200.0),
      "TRUNCATE" -> Seq(0.12, -0.12, 2.67, -0.0, 1200.0),
      "CEILING" -> Seq(0.13, -0.12, 2.68, -0.0, 1300.0),
      "FLOOR" -> Seq(0.12, -0.13, 2.67, -0.01, 1200.0),
      "AWAY_FROM_ZERO" -> Seq(0.13, -0.13, 2.68, -0.01, 1300.0),
      "TIE_DOWN" -> Seq(0.12, -0.13, 2.67, -0.0, 1200.0),
      "TIE_UP" -> Seq(0.13, -0.12, 2.67, -0.0, 1200.0),
      "TIE_TOWARDS_ZERO" -> Seq(0.12, -0.12, 2.67, -0.0, 1200.0),
      "TIE_TO_ODD" -> Seq(0.13, -0.13, 2.67, -0.0, 1200.0))
    for (mode <- Modes) {
      assert(got(mode) == expected(mode), mode)
      // A zero result keeps the sign of x.
      assert(got(mode)(3) != -0.0 || negativeZero(got(mode)(3)), mode)
    }
    // NaN, the infinities and NULL round to themselves; s a literal, and far beyond the value's digits.
    val special = values(scalar("functions_rounding", "round:fp64_i32", Seq("rounding" -> Seq("CEILING")), Seq(fp64()),
        Seq(Seq(litFp64(Double.NaN)), Seq(litFp64(Double.NegativeInfinity)), Seq(litNull(fp64())), Seq(litFp64(1e300))),
        Seq(field(0), litI32(-400))))
    assert(special(0).asInstanceOf[Double].isNaN && special.drop(1) == Seq(Double.NegativeInfinity, null,
        Double.PositiveInfinity),
      special)
    val huge = values(scalar("functions_rounding", "round:fp64_i32", Seq("rounding" -> Seq("FLOOR")), Seq(fp64()),
        Seq(Seq(litFp64(0.1))), Seq(field(0), litI32(Int.MaxValue))))
    assert(huge == Seq(0.1))
  }

  test("round of fp32 in every mode rounds the float's value once to a float") {
    val got = roundEachMode("functions_rounding", "fp32_i32", fp32(), Seq(litFp32(0.375f) -> 2, litFp32(-2.5f) -> 0))
    val expected = Map(
      "TIE_TO_EVEN" -> Seq(0.38f, -2.0f), "TIE_AWAY_FROM_ZERO" -> Seq(0.38f, -3.0f), "TRUNCATE" -> Seq(0.37f, -2.0f),
      "CEILING" -> Seq(0.38f, -2.0f), "FLOOR" -> Seq(0.37f, -3.0f), "AWAY_FROM_ZERO" -> Seq(0.38f, -3.0f),
      "TIE_DOWN" -> Seq(0.37f, -3.0f), "TIE_UP" -> Seq(0.38f, -2.0f), "TIE_TOWARDS_ZERO" -> Seq(0.37f, -2.0f),
      "TIE_TO_ODD" -> Seq(0.37f, -3.0f))
    for (mode <- Modes) assert(got(mode) == expected(mode), mode)
  }

  test("round of integers in every mode to a multiple of 10^-s; beyond the type an overflow error") {
    val got = roundEachMode("functions_rounding", "i32_i32", i32(),
      Seq(litI32(25) -> -1, litI32(-25) -> -1, litI32(-21) -> -1, litI32(7) -> 3, litNull(i32()) -> -1))
    val expected = Map(
      "TIE_TO_EVEN" -> Seq(20, -20, -20, 7, null), "TIE_AWAY_FROM_ZERO" -> Seq(30, -30, -20, 7, null),
      "TRUNCATE" -> Seq(20, -20, -20, 7, null), "CEILING" -> Seq(30, -20, -20, 7, null),
      "FLOOR" -> Seq(20, -30, -30, 7, null),
      "AWAY_FROM_ZERO" -> Seq(30, -30, -30, 7, null), "TIE_DOWN" -> Seq(20, -30, -20, 7, null),
      "TIE_UP" -> Seq(30, -20, -20, 7, null), "TIE_TOWARDS_ZERO" -> Seq(20, -20, -20, 7, null),
      "TIE_TO_ODD" -> Seq(30, -30, -20, 7, null))
    for (mode <- Modes) assert(got(mode) == expected(mode), mode)
    // i64 digits beyond 2^53 are kept; MAX rounded up leaves the type.
    val exact = values(scalar("functions_rounding", "round:i64_i32", Seq("rounding" -> Seq("TRUNCATE")), Seq(i64()),
        Seq(Seq(litI64(9007199254740993L))), Seq(field(0), litI32(-1))))
    assert(exact == Seq(9007199254740990L))
    val e = functionError(scalar("functions_rounding", "round:i32_i32", Seq("rounding" -> Seq("CEILING")), Seq(i32()),
        Seq(Seq(litI32(Int.MaxValue))), Seq(field(0), litI32(-1))))
    assert(e.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW", e.getMessage)
  }

  test("round of decimals in every mode, at the input's scale in decimal<P+1, S>; beyond 38 digits an overflow error") {
    def d(v: String) = new JBigDecimal(v)
    val got = roundEachMode("functions_rounding_decimal", "dec_i32", decimal(5, 2),
      Seq(litDecimal(d("2.25"), 5, 2) -> 1, litDecimal(d("-2.25"), 5, 2) -> 1, litDecimal(d("999.99"), 5, 2) -> 0))
    def ds(vs: String*) = vs.map(d)
    val expected = Map(
      "TIE_TO_EVEN" -> ds("2.20", "-2.20", "1000.00"), "TIE_AWAY_FROM_ZERO" -> ds("2.30", "-2.30", "1000.00"),
      "TRUNCATE" -> ds("2.20", "-2.20", "999.00"), "CEILING" -> ds("2.30", "-2.20", "1000.00"),
      "FLOOR" -> ds("2.20", "-2.30", "999.00"), "AWAY_FROM_ZERO" -> ds("2.30", "-2.30", "1000.00"),
      "TIE_DOWN" -> ds("2.20", "-2.30", "1000.00"), "TIE_UP" -> ds("2.30", "-2.20", "1000.00"),
      "TIE_TOWARDS_ZERO" -> ds("2.20", "-2.20", "1000.00"), "TIE_TO_ODD" -> ds("2.30", "-2.30", "1000.00"))
    for (mode <- Modes) assert(got(mode) == expected(mode), mode)
    val nines = d("9" * 38)
    val e = functionError(scalar("functions_rounding_decimal", "round:dec_i32", Seq("rounding" -> Seq("TIE_TO_EVEN")),
        Seq(decimal(38, 0)), Seq(Seq(litDecimal(nines, 38, 0))), Seq(field(0), litI32(-1))))
    assert(e.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW", e.getMessage)
    assert(values(scalar("functions_rounding_decimal", "round:dec_i32", Seq("rounding" -> Seq("FLOOR")),
        Seq(decimal(38, 0)),
        Seq(Seq(litDecimal(nines, 38, 0))), Seq(field(0), litI32(-1)))) == Seq(d("9" * 37 + "0")))
  }

  private val Decimal = "functions_arithmetic_decimal"
  private val Saturate = Seq("overflow" -> Seq("SATURATE"))

  test("decimal add, subtract, multiply and divide with overflow SATURATE clamp to ±(10^p - 1) / 10^s") {
    val nines = new JBigDecimal("9" * 38)
    val big = litDecimal(nines, 38, 0)
    val negBig = litDecimal(nines.negate, 38, 0)
    val t = Seq(decimal(38, 0), decimal(38, 0))
    def both(fn: String, rows: Seq[Seq[Expression]]) =
      values(scalar(Decimal, fn, Saturate, t, rows, Seq(field(0), field(1))))
    val one = litDecimal(JBigDecimal.ONE, 38, 0)
    val minusOne = litDecimal(JBigDecimal.ONE.negate, 38, 0)
    assert(both("add:dec_dec",
      Seq(Seq(big, one), Seq(negBig, minusOne), Seq(big, minusOne), Seq(big, litNull(decimal(38, 0))))) ==
      Seq(nines, nines.negate, nines.subtract(JBigDecimal.ONE), null))
    assert(both("subtract:dec_dec", Seq(Seq(negBig, one), Seq(big, minusOne), Seq(one, one))) ==
      Seq(nines.negate, nines, JBigDecimal.ZERO))
    // multiply: decimal<38,0> × decimal<38,0> is decimal<38,0>; the sign of the product decides.
    assert(both("multiply:dec_dec",
      Seq(Seq(big, litDecimal(new JBigDecimal(-2), 38, 0)), Seq(negBig, litDecimal(new JBigDecimal(-2), 38, 0)),
        Seq(minusOne, big))) == Seq(nines.negate, nines, nines.negate))
    // divide: decimal<38,0> / decimal<2,1> is decimal<38,6> (32 integer digits); 10^37 / 0.1 = 10^38 is beyond it.
    val quotientMax = new JBigDecimal("9" * 32 + "." + "9" * 6)
    val tenPow37 = litDecimal(JBigDecimal.TEN.pow(37), 38, 0)
    val q = values(scalar(Decimal, "divide:dec_dec", Saturate, Seq(decimal(38, 0), decimal(2, 1)),
        Seq(Seq(tenPow37, litDecimal(new JBigDecimal("0.1"), 2, 1)),
          Seq(tenPow37, litDecimal(new JBigDecimal("-0.1"), 2, 1)),
          Seq(litDecimal(new JBigDecimal(3), 38, 0), litDecimal(new JBigDecimal("0.4"), 2, 1))),
        Seq(field(0), field(1))))
    assert(q == Seq(quotientMax, quotientMax.negate, new JBigDecimal("7.500000")), q)
    // A zero divisor is no overflow: the session's division by zero (the decimal YAML has no option for it).
    val e = functionError(scalar(Decimal, "divide:dec_dec", Saturate, Seq(decimal(38, 0), decimal(2, 1)),
        Seq(Seq(tenPow37, litDecimal(JBigDecimal.ZERO, 2, 1))), Seq(field(0), field(1))))
    assert(e.getCondition == "SUBSTRAIT_DIVISION_BY_ZERO", e.getMessage)
    // A NULL operand is NULL before the divisor is looked at.
    assert(values(scalar(Decimal, "divide:dec_dec", Saturate, Seq(decimal(38, 0), decimal(2, 1)),
        Seq(Seq(litNull(decimal(38, 0)), litDecimal(JBigDecimal.ZERO, 2, 1))), Seq(field(0), field(1)))) == Seq(null))
    // modulus never overflows (|x mod y| < |y|): SATURATE is accepted and changes nothing.
    assert(values(scalar(Decimal, "modulus:dec_dec", Saturate, Seq(decimal(38, 0), decimal(2, 1)),
        Seq(Seq(litDecimal(new JBigDecimal(-7), 38, 0), litDecimal(new JBigDecimal("2.5"), 2, 1))),
        Seq(field(0), field(1)))) ==
      Seq(new JBigDecimal("-2.0")))
  }

  test("decimal negate and abs are exact at 38 digits; a bitwise result beyond the type is an overflow error") {
    val tiny = litDecimal(new JBigDecimal("1E-10"), 38, 10)
    val max = new JBigDecimal("9" * 28 + "." + "9" * 10)
    val rows =
      Seq(Seq(tiny), Seq(litDecimal(max, 38, 10)), Seq(litDecimal(max.negate, 38, 10)), Seq(litNull(decimal(38, 10))))
    assert(values(scalar(Decimal, "negate:dec", Nil, Seq(decimal(38, 10)), rows, Seq(field(0)))) ==
      Seq(new JBigDecimal("-1E-10").setScale(10), max.negate, max, null))
    assert(values(scalar(Decimal, "abs:dec", Nil, Seq(decimal(38, 10)), rows, Seq(field(0)))) ==
      Seq(new JBigDecimal("1E-10").setScale(10), max, max, null))
    val nines = new JBigDecimal("9" * 38)
    // -(10^38 - 1) & -2 is -10^38 in two's complement: 39 digits.
    val e = functionError(scalar(Decimal, "bitwise_and:dec_dec", Nil, Seq(decimal(38, 0), decimal(38, 0)),
        Seq(Seq(litDecimal(nines.negate, 38, 0), litDecimal(new JBigDecimal(-2), 38, 0))), Seq(field(0), field(1))))
    assert(e.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW", e.getMessage)
    assert(values(scalar(Decimal, "bitwise_xor:dec_dec", Nil, Seq(decimal(38, 0), decimal(38, 0)),
        Seq(Seq(litDecimal(new JBigDecimal(6), 38, 0), litDecimal(new JBigDecimal(-3), 38, 0))),
        Seq(field(0), field(1)))) ==
      Seq(new JBigDecimal(-5)))
  }

  test("logb with a NULL argument is NULL, before a bad base or a zero x is looked at") {
    val got = values(scalar("functions_logarithmic", "logb:fp64_fp64", Nil, Seq(fp64(), fp64()),
        Seq(Seq(litNull(fp64()), litFp64(0.0)), Seq(litNull(fp64()), litFp64(1.0)), Seq(litFp64(0.0), litNull(fp64())),
          Seq(litFp64(8.0), litFp64(2.0))), Seq(field(0), field(1))))
    assert(got == Seq(null, null, null, 3.0), got)
  }

  test(
    "the decimal power's overflow: ERROR raises, SATURATE gives ±the largest double, SILENT infinity; 0^-1 is no overflow") {
    def power(overflow: String, x: String, y: String) = scalar(Decimal, "power:dec_dec",
      Seq("overflow" -> Seq(overflow)),
      Seq(decimal(5, 0), decimal(5, 0)),
      Seq(Seq(litDecimal(new JBigDecimal(x), 5, 0), litDecimal(new JBigDecimal(y), 5, 0))),
      Seq(field(0), field(1)))
    assert(functionError(power("ERROR", "10", "400")).getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW")
    assert(values(power("SATURATE", "10", "400")) == Seq(Double.MaxValue))
    assert(values(power("SATURATE", "-10", "401")) == Seq(-Double.MaxValue))
    assert(values(power("SILENT", "10", "400")) == Seq(Double.PositiveInfinity))
    assert(values(power("ERROR", "0", "-1")) == Seq(Double.PositiveInfinity))
    assert(values(power("SATURATE", "2", "10")) == Seq(1024.0))
  }
}
