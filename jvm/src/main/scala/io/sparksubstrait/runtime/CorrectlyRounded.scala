package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal}

/**
 * Floating-point results rounded as a plan's `rounding` option asks: the exact value of the
 * operation, rounded once to fp64 (or fp32) toward the nearest (ties to even or away from
 * zero), toward zero (TRUNCATE), toward +∞ (CEILING) or toward −∞ (FLOOR) — IEEE 754's
 * rounding-direction attributes, which the YAML's option names. Mappings call these only when
 * a plan names a mode; the JVM's own arithmetic is the nearest-even case.
 *
 * The basic operations first check whether the JVM's nearest result is exact (an error-free
 * transformation: the sum's error by TwoSum, the product's and quotient's by fused
 * multiply-add), which it is for most inputs; otherwise the exact value is a BigDecimal.
 * The other functions are evaluated by [[BigMath]] to 50 digits, then 110, then 230 until
 * the rounding is decided (Ziv's strategy); their exact results (exp(0), log2(8)) and their
 * tiny arguments, where the function differs from its first term by far less than any
 * working precision, are answered from the function's known shape.
 */
final class CorrectlyRounded private ()

object CorrectlyRounded {
  final val TieToEven = 0
  final val TieAwayFromZero = 1
  final val Truncate = 2
  final val Ceiling = 3
  final val Floor = 4

  /** The mode code of a `rounding` option value. */
  val modes: Map[String, Int] = Map("TIE_TO_EVEN" -> TieToEven, "TIE_AWAY_FROM_ZERO" -> TieAwayFromZero,
    "TRUNCATE" -> Truncate, "CEILING" -> Ceiling, "FLOOR" -> Floor)

  // ---- the basic operations ----------------------------------------------------------------------
  def add(a: Double, b: Double, mode: Int): Double = {
    val s = a + b
    if (s.isNaN || (s.isInfinite && (a.isInfinite || b.isInfinite))) return s
    if (s == 0.0) return zeroSum(a, b, mode)
    if (!s.isInfinite) {
      val bb = s - a
      val err = (a - (s - bb)) + (b - bb)
      if (err == 0.0) return s
    }
    round(exact(a).add(exact(b)), mode, single = false)
  }

  def subtract(a: Double, b: Double, mode: Int): Double = add(a, -b, mode)

  def multiply(a: Double, b: Double, mode: Int): Double = {
    val p = a * b
    if (p.isNaN || a.isInfinite || b.isInfinite || a == 0.0 || b == 0.0) return p
    // fma gives the product's exact error unless the product is near the subnormal range.
    if (!p.isInfinite && math.abs(p) > 1e-290 && Math.fma(a, b, -p) == 0.0) return p
    round(exact(a).multiply(exact(b)), mode, single = false)
  }

  /** a / b with IEEE's special values (the callers decide division by zero and NaN first). */
  def divide(a: Double, b: Double, mode: Int): Double = {
    val q = a / b
    if (q.isNaN || a.isInfinite || b.isInfinite || b == 0.0 || a == 0.0) return q
    if (!q.isInfinite && math.abs(q) > 1e-290 && math.abs(a) > 1e-290 && Math.fma(-q, b, a) == 0.0) return q
    round(quotient(exact(a), exact(b)), mode, single = false)
  }

  def addFloat(a: Float, b: Float, mode: Int): Float = {
    val s = a + b
    if (s.isNaN || (s.isInfinite && (a.isInfinite || b.isInfinite))) return s
    if (s == 0.0f) return zeroSum(a.toDouble, b.toDouble, mode).toFloat
    round(exact(a.toDouble).add(exact(b.toDouble)), mode, single = true).toFloat
  }

  def subtractFloat(a: Float, b: Float, mode: Int): Float = addFloat(a, -b, mode)

  def multiplyFloat(a: Float, b: Float, mode: Int): Float = {
    val p = a * b
    if (p.isNaN || a.isInfinite || b.isInfinite || a == 0.0f || b == 0.0f) return p
    // A product of two floats is exact in double.
    round(exact(a.toDouble * b.toDouble), mode, single = true).toFloat
  }

  def divideFloat(a: Float, b: Float, mode: Int): Float = {
    val q = a / b
    if (q.isNaN || a.isInfinite || b.isInfinite || b == 0.0f || a == 0.0f) return q
    round(quotient(exact(a.toDouble), exact(b.toDouble)), mode, single = true).toFloat
  }

  /** The sign of an exact zero sum (IEEE 754 §6.3): −0 for −0 + −0, and under FLOOR for any zero sum. */
  private def zeroSum(a: Double, b: Double, mode: Int): Double = {
    val bothNegativeZeros = a == 0.0 && b == 0.0 && (1.0 / a) < 0 && (1.0 / b) < 0
    val bothPositiveZeros = a == 0.0 && b == 0.0 && (1.0 / a) > 0 && (1.0 / b) > 0
    if (bothNegativeZeros || (mode == Floor && !bothPositiveZeros)) -0.0 else 0.0
  }

  private def exact(d: Double): JBigDecimal = new JBigDecimal(d)

  /** a / b to enough digits that its rounding is decided, or exactly when it terminates. */
  private def quotient(a: JBigDecimal, b: JBigDecimal): JBigDecimal =
    try a.divide(b)
    catch {
      case _: ArithmeticException => a.divide(b, new java.math.MathContext(60))
    }

  // ---- rounding an exact or approximate value -------------------------------------------------------
  /** An exact non-zero value rounded to the format in the mode (overflow as IEEE 754 §7.4 says). */
  private[runtime] def round(v: JBigDecimal, mode: Int, single: Boolean): Double =
    roundWithin(v, JBigDecimal.ZERO, mode, single).get

  /**
   * `v`, known to within `error` (absolute), rounded to the format in the mode; None when a
   * rounding boundary lies within the error (a more precise `v` is needed).
   */
  private def roundWithin(v: JBigDecimal, error: JBigDecimal, mode: Int, single: Boolean): Option[Double] = {
    if (v.signum == 0) return Some(0.0)
    val negative = v.signum < 0
    val a = v.abs
    val (lo, hi) = bracket(a, single) // lo <= a <= hi, adjacent magnitudes (hi may be the overflow bound)
    val loValue = exact(lo)
    val hiValue = if (hi.isInfinite) overflowBound(single) else exact(hi)
    if (error.signum == 0 && a.compareTo(loValue) == 0) return Some(signed(lo, negative))
    def decided(boundary: JBigDecimal): Boolean = a.subtract(boundary).abs.compareTo(error) > 0
    val up = mode match {
      case Truncate => Some(false)
      case Ceiling => Some(!negative)
      case Floor => Some(negative)
      case _ => None
    }
    val magnitude: Option[Double] = up match {
      case Some(away) =>
        if (error.signum != 0 && (!decided(loValue) || !decided(hiValue))) None
        else Some(if (away) hi else lo)
      case None =>
        val mid = loValue.add(hiValue).divide(JBigDecimal.valueOf(2))
        val cmp = a.compareTo(mid)
        if (error.signum != 0 && !decided(mid)) None
        else if (cmp < 0) Some(lo)
        else if (cmp > 0) Some(hi)
        else if (mode == TieAwayFromZero) Some(hi)
        else Some(if (evenSignificand(lo, single)) lo else hi)
    }
    magnitude.map(m => signed(m, negative))
  }

  private def signed(m: Double, negative: Boolean): Double = if (negative) -m else m

  /** The largest finite magnitude not above `a` and the next one (+∞ past the largest finite). */
  private[runtime] def bracket(a: JBigDecimal, single: Boolean): (Double, Double) = {
    val max = if (single) Float.MaxValue.toDouble else Double.MaxValue
    if (a.compareTo(exact(max)) >= 0) return (max, Double.PositiveInfinity)
    var d = if (single) a.floatValue().toDouble else a.doubleValue()
    if (d.isInfinite) d = max
    while (exact(d).compareTo(a) > 0) d = down(d, single)
    var next = up(d, single)
    while (!next.isInfinite && exact(next).compareTo(a) <= 0) { d = next; next = up(d, single) }
    (d, next)
  }

  private def up(d: Double, single: Boolean): Double =
    if (single) { val f = Math.nextUp(d.toFloat); if (f.isInfinite) Double.PositiveInfinity else f.toDouble }
    else Math.nextUp(d)
  private def down(d: Double, single: Boolean): Double =
    if (single) Math.nextDown(d.toFloat).toDouble else Math.nextDown(d)

  /** 2^1024 (2^128 for fp32): where rounding to nearest overflows, as IEEE 754 places it. */
  private def overflowBound(single: Boolean): JBigDecimal = JBigDecimal.valueOf(2).pow(if (single) 128 else 1024)

  private def evenSignificand(d: Double, single: Boolean): Boolean =
    if (single) (java.lang.Float.floatToRawIntBits(d.toFloat) & 1) == 0
    else (java.lang.Double.doubleToRawLongBits(d) & 1L) == 0

  // ---- the other functions -----------------------------------------------------------------------------
  /** The functions [[apply1]] and [[apply2]] compute, by code (literals in generated code). */
  val functions: Map[String, Int] = Seq("exp", "ln", "log10", "log2", "log1p", "sqrt", "sin", "cos", "tan", "sinh",
    "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "radians", "degrees", "atan2", "logb")
    .zipWithIndex.toMap

  def apply1(fn: Int, x: Double, mode: Int): Double = Elementary.of(fn, x, mode, single = false)

  /** Of an i64 argument, taken exactly (a double holds only 53 bits of it). */
  def apply1Long(fn: Int, x: Long, mode: Int): Double = Elementary.ofLong(fn, x, mode)

  /** Of a decimal argument, taken exactly. */
  def apply1Decimal(fn: Int, x: org.apache.spark.sql.types.Decimal, mode: Int): Double =
    Elementary.ofExact(fn, x.toJavaBigDecimal, mode)
  def apply2Decimal(fn: Int, a: org.apache.spark.sql.types.Decimal, b: org.apache.spark.sql.types.Decimal, mode: Int)
    : Double =
    Elementary.logbExact(a.toJavaBigDecimal, b.toJavaBigDecimal, mode)
  def apply1Float(fn: Int, x: Float, mode: Int): Float = Elementary.of(fn, x.toDouble, mode, single = true).toFloat
  def apply2(fn: Int, a: Double, b: Double, mode: Int): Double = Elementary.of2(fn, a, b, mode, single = false)
  def apply2Float(fn: Int, a: Float, b: Float, mode: Int): Float =
    Elementary.of2(fn, a.toDouble, b.toDouble, mode, single = true).toFloat

  /** Ziv's loop: the value at increasing precision until its rounding is decided. */
  private[runtime] def settle(value: BigMath => JBigDecimal, mode: Int, single: Boolean): Double = {
    var last: JBigDecimal = null
    for (digits <- Seq(50, 110, 230)) {
      val v = value(new BigMath(digits))
      val error = v.abs.multiply(JBigDecimal.ONE.movePointLeft(digits - 3))
      roundWithin(v, error, mode, single) match {
        case Some(d) => return d
        case None => last = v
      }
    }
    round(last, mode, single)
  }

  /**
   * A tiny argument's result: the function is `reference` plus a correction far smaller than
   * half a unit in the last place, whose direction is `above` (true: larger than reference).
   */
  private[runtime] def nearReference(reference: Double, above: Boolean, mode: Int, single: Boolean): Double = {
    val r = if (single) reference.toFloat.toDouble else reference
    mode match {
      case Ceiling => if (above) up(r, single) else r
      case Floor => if (above) r else down(r, single)
      case Truncate => if (r > 0 && !above) down(r, single) else if (r < 0 && above) up(r, single) else r
      case _ => r
    }
  }
}
