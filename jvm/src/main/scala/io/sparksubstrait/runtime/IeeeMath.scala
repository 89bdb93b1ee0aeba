package io.sparksubstrait.runtime

/**
 * IEEE 754 floating-point operations Spark's expressions do not give as they are: Spark's
 * division returns NULL (or raises) for a zero divisor, where a plan asking for IEEE gets ±∞
 * or NaN. Called from generated code.
 */
final class IeeeMath private ()

object IeeeMath {
  def divide(a: Double, b: Double): Double = a / b

  /**
   * IEEE 754's pow (§9.2.1, as C's): pow(+1, y) is 1 for any y, NaN too, and pow(-1, ±∞) is 1,
   * where Java's Math.pow (and so Spark's) gives NaN; otherwise Java's.
   */
  def pow(x: Double, y: Double): Double =
    if (x == 1.0 || (x == -1.0 && y.isInfinite) || y == 0.0) 1.0 else Math.pow(x, y)
  def divideFloat(a: Float, b: Float): Float = a / b

  /** on_division_by_zero LIMIT: ±∞ with the sign of the quotient, whatever the dividend (0 / 0 too). */
  def limit(a: Double, b: Double): Double = Math.copySign(Double.PositiveInfinity, a) * Math.copySign(1.0, b)
  def limitFloat(a: Float, b: Float): Float = Math.copySign(Float.PositiveInfinity, a) * Math.copySign(1.0f, b)
}
