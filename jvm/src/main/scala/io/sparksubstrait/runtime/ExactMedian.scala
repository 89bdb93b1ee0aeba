package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal, RoundingMode}

import org.apache.spark.sql.catalyst.util.ArrayData
import org.apache.spark.sql.types.Decimal

/**
 * The exact median of a group's values (collected by collect_list, which drops NULLs): the
 * middle value, or the mean of the two middle values rounded once in the plan's mode
 * ([[CorrectlyRounded]]'s codes). Spark's percentile interpolates in double instead: it rounds
 * i64 values beyond 2^53, overflows for the mean of -MAX and MAX, and rounds to nearest only.
 * No values: NULL. Called from generated code (StaticInvoke).
 */
final class ExactMedian private ()

object ExactMedian {

  /**
   * Integers (widened to i64): the mean of the middle values is an integer or ends in .5; the
   * mode decides the half ("how the median should be rounded if it ends up midway").
   */
  def ofLongs(values: ArrayData, mode: Int): java.lang.Long = {
    val n = values.numElements()
    if (n == 0) return null
    val sorted = values.toLongArray()
    java.util.Arrays.sort(sorted)
    val a = sorted((n - 1) / 2)
    val b = sorted(n / 2)
    // floor((a + b) / 2) without overflow, and whether a half is left over.
    val floor = (a >> 1) + (b >> 1) + (((a & 1) + (b & 1)) >> 1)
    if (((a ^ b) & 1) == 0) return floor
    val positive = floor >= 0 // the mean is floor + 1/2: positive exactly when floor >= 0
    val up = mode match {
      case CorrectlyRounded.TieToEven => (floor & 1) != 0
      case CorrectlyRounded.TieAwayFromZero => positive
      case CorrectlyRounded.Truncate => !positive
      case CorrectlyRounded.Ceiling => true
      case _ => false
    }
    if (up) floor + 1 else floor
  }

  /**
   * Decimals of any precision (Spark's Decimal, DECIMAL(precision, scale)): the middle value,
   * or the mean of the two middle values (exact: one more digit) rounded once to `scale` in the
   * plan's mode. The mean of two values of a type lies between them, so it fits the type.
   */
  def ofDecimals(values: ArrayData, mode: Int, precision: Int, scale: Int): Decimal = {
    val n = values.numElements()
    if (n == 0) return null
    val sorted = Array.tabulate(n)(i => values.getDecimal(i, precision, scale).toJavaBigDecimal)
      .sortWith((x, y) => x.compareTo(y) < 0)
    val a = sorted((n - 1) / 2)
    val b = sorted(n / 2)
    val mean = a.add(b).divide(JBigDecimal.valueOf(2)).setScale(scale, roundingMode(mode))
    Decimal(mean, precision, scale)
  }

  private def roundingMode(mode: Int): RoundingMode = mode match {
    case CorrectlyRounded.TieToEven => RoundingMode.HALF_EVEN
    case CorrectlyRounded.TieAwayFromZero => RoundingMode.HALF_UP
    case CorrectlyRounded.Truncate => RoundingMode.DOWN
    case CorrectlyRounded.Ceiling => RoundingMode.CEILING
    case _ => RoundingMode.FLOOR
  }

  /**
   * Floating-point values (fp32 widened to double exactly; `single`: round to binary32). The
   * order is IEEE 754's totalOrder as java.util.Arrays.sort has it (-0.0 below 0.0, NaN above
   * +∞): a NaN among the middle values gives NaN, an infinity that value (opposite infinities
   * NaN), and two zeros -0.0 only when both are.
   */
  def ofDoubles(values: ArrayData, mode: Int, single: Boolean): java.lang.Double = {
    val n = values.numElements()
    if (n == 0) return null
    val sorted = values.toDoubleArray()
    java.util.Arrays.sort(sorted)
    val a = sorted((n - 1) / 2)
    val b = sorted(n / 2)
    if (a.isNaN || b.isNaN || a.isInfinite || b.isInfinite) return a + b // IEEE: inf + -inf is NaN
    if (a == 0.0 && b == 0.0) return if (1 / a < 0 && 1 / b < 0) -0.0 else 0.0
    if (a == b) return a // the same value: no rounding (a double of an fp32 column is an fp32)
    val mean = new JBigDecimal(a).add(new JBigDecimal(b)).divide(JBigDecimal.valueOf(2))
    if (mean.signum == 0) 0.0 else CorrectlyRounded.round(mean, mode, single)
  }
}
