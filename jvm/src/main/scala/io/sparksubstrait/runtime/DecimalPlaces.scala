package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal, RoundingMode}

import org.apache.spark.sql.types.Decimal
import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.errors.SubstraitErrors

/**
 * round(x, s) in every rounding mode of functions_rounding(_decimal): the exact value of x
 * (a float's binary value, whose decimal expansion BigDecimal holds exactly) rounded to s
 * decimal places, then brought into the result type. Spark's round and bround know two ties
 * (HALF_UP, HALF_EVEN), read a double as its shortest decimal string and take only a constant
 * scale; this takes any mode and a scale per row. Called from generated code (StaticInvoke).
 */
final class DecimalPlaces private ()

object DecimalPlaces {

  /** The YAML's rounding values, in its order: the codes the mapping passes. */
  val modes: Map[String, Int] = Seq("TIE_TO_EVEN", "TIE_AWAY_FROM_ZERO", "TRUNCATE", "CEILING", "FLOOR",
    "AWAY_FROM_ZERO", "TIE_DOWN", "TIE_UP", "TIE_TOWARDS_ZERO", "TIE_TO_ODD").zipWithIndex.toMap
  final val TieAwayFromZero = 1
  private final val TieDown = 6
  private final val TieUp = 7
  private final val TieToOdd = 9

  /**
   * `x` rounded to `places` decimal places (a negative `places` rounds to a multiple of
   * 10^-places). The nine modes Java has, directly or by the sign of x: TIE_DOWN and TIE_UP
   * send ties toward -inf / +inf, which is HALF_DOWN or HALF_UP by the sign; TIE_TO_ODD, which
   * Java lacks, is the one of HALF_UP's and HALF_DOWN's answers (they differ only at a tie)
   * with an odd last digit.
   */
  def rounded(x: JBigDecimal, places: Int, mode: Int): JBigDecimal = {
    if (places >= x.scale) return x
    val negative = x.signum < 0
    mode match {
      case TieToOdd =>
        val up = x.setScale(places, RoundingMode.HALF_UP)
        val down = x.setScale(places, RoundingMode.HALF_DOWN)
        if (up.compareTo(down) == 0 || up.unscaledValue.testBit(0)) up else down
      case m => x.setScale(places, javaMode(m, negative))
    }
  }

  private def javaMode(mode: Int, negative: Boolean): RoundingMode = mode match {
    case 0 => RoundingMode.HALF_EVEN
    case 1 => RoundingMode.HALF_UP
    case 2 => RoundingMode.DOWN
    case 3 => RoundingMode.CEILING
    case 4 => RoundingMode.FLOOR
    case 5 => RoundingMode.UP
    case TieDown => if (negative) RoundingMode.HALF_UP else RoundingMode.HALF_DOWN
    case TieUp => if (negative) RoundingMode.HALF_DOWN else RoundingMode.HALF_UP
    case 8 => RoundingMode.HALF_DOWN
    case _ => throw new IllegalArgumentException(s"rounding mode $mode")
  }

  /**
   * Every finite double is below 10^309: rounding to 10^400 (or coarser) gives 0 or a multiple
   * beyond every double (an infinity after conversion), so coarser scales need no larger power
   * of ten.
   */
  private final val CoarsestForDoubles = -400

  /**
   * A double rounded to `places`, then to the nearest double (BigDecimal.doubleValue rounds
   * correctly). NaN and the infinities round to themselves; a zero result keeps x's sign
   * (IEEE 754's roundToIntegral).
   */
  def roundDouble(x: Double, places: Int, mode: Int): Double = {
    if (x.isNaN || x.isInfinite || x == 0.0) return x
    val r = rounded(new JBigDecimal(x), math.max(places, CoarsestForDoubles), mode)
    if (r.signum == 0) java.lang.Math.copySign(0.0, x) else r.doubleValue
  }

  /** A float rounded to `places`, then to the nearest float (one rounding: no double in between). */
  def roundFloat(x: Float, places: Int, mode: Int): Float = {
    if (x.isNaN || x.isInfinite || x == 0.0f) return x
    val r = rounded(new JBigDecimal(x.toDouble), math.max(places, CoarsestForDoubles), mode)
    if (r.signum == 0) java.lang.Math.copySign(0.0f, x) else r.floatValue
  }

  /**
   * An integer of [min, max] rounded to a multiple of 10^-places (places >= 0 leaves it as it
   * is). A result beyond [min, max] is NULL (`nullOnOverflow`, the legacy session) or
   * SUBSTRAIT_ARITHMETIC_OVERFLOW at `location`.
   */
  def roundLong(x: Long, places: Int, mode: Int, min: Long, max: Long, nullOnOverflow: Boolean,
    location: UTF8String): java.lang.Long = {
    if (places >= 0) return x
    // |x| < 10^19: a multiple of 10^20 is 0 or beyond every integer type.
    val r = rounded(JBigDecimal.valueOf(x), math.max(places, -20), mode)
    if (r.compareTo(JBigDecimal.valueOf(min)) < 0 || r.compareTo(JBigDecimal.valueOf(max)) > 0) {
      if (nullOnOverflow) null
      else throw overflow(location, s"round($x, $places) = ${r.toBigInteger} is beyond the integer type")
    } else r.longValueExact
  }

  /**
   * A decimal rounded to `places`, at the result type's `scale` (decimal<min(P+1, 38), S>):
   * beyond its `precision` digits NULL or SUBSTRAIT_ARITHMETIC_OVERFLOW, as for integers.
   */
  def roundDecimal(x: Decimal, places: Int, mode: Int, precision: Int, scale: Int, nullOnOverflow: Boolean,
    location: UTF8String): Decimal = {
    val exact = x.toJavaBigDecimal
    // |x| < 10^38: a multiple of 10^39 is 0 or beyond 38 digits.
    val r = rounded(exact, math.max(places, -39), mode).setScale(scale)
    if (r.precision - r.scale > precision - scale && r.signum != 0) {
      if (nullOnOverflow) null
      else throw overflow(location, s"round(${exact.toPlainString}, $places) exceeds DECIMAL($precision, $scale)")
    } else Decimal(r, precision, scale)
  }

  private def overflow(location: UTF8String, detail: String) =
    SubstraitErrors.functionError("SUBSTRAIT_ARITHMETIC_OVERFLOW", location.toString, "round", detail)
}
