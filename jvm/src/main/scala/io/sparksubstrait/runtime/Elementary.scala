package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal}

import io.sparksubstrait.runtime.CorrectlyRounded.{nearReference, round, settle}

/**
 * The elementary functions of [[CorrectlyRounded]]: each one's special values (IEEE 754 §9.2:
 * NaN, infinities, signed zeros, poles), its exact results, its tiny arguments (where it
 * differs from its first term by less than 2^-80 relatively, so only the direction of the
 * difference matters), and otherwise its value from [[BigMath]] by Ziv's loop.
 */
private[runtime] object Elementary {
  private val names: IndexedSeq[String] = CorrectlyRounded.functions.toSeq.sortBy(_._2).map(_._1).toIndexedSeq

  /** 2^-40: below it, sin x and the other odd functions are x to within 2^-80 relatively. */
  private val Tiny = 9.094947017729282e-13
  private val Huge = new JBigDecimal("1e400")
  private val Minute = new JBigDecimal("1e-400")
  private val Two = JBigDecimal.valueOf(2)

  private def big(x: Double) = new JBigDecimal(x)
  private def isZero(x: Double) = x == 0.0

  /** A tiny odd function's value: x, moved toward zero (`towardZero`) or away by less than an ulp. */
  private def odd(x: Double, towardZero: Boolean, mode: Int, single: Boolean): Double =
    nearReference(x, above = (x > 0) != towardZero, mode, single)

  def of(fn: Int, x: Double, mode: Int, single: Boolean): Double = {
    if (x.isNaN) return Double.NaN
    val bx = if (x.isInfinite) null else big(x)
    def ziv(f: BigMath => JBigDecimal) = settle(f, mode, single)
    names(fn) match {
      case "exp" =>
        if (x == Double.PositiveInfinity) x
        else if (x == Double.NegativeInfinity) 0.0
        else if (isZero(x)) 1.0
        else if (math.abs(x) < 5.551115123125783e-17) nearReference(1.0, above = x > 0, mode, single)
        else if (x > 800) round(Huge, mode, single)
        else if (x < -800) round(Minute, mode, single)
        else ziv(_.exp(bx))
      case "ln" | "log10" | "log2" =>
        if (x < 0) Double.NaN
        else if (isZero(x)) Double.NegativeInfinity
        else if (x.isInfinite) x
        else if (x == 1.0) 0.0
        else exactLogarithm(names(fn), x).getOrElse(ziv(m =>
            names(fn) match {
              case "ln" => m.ln(bx)
              case "log10" => m.divide(m.ln(bx), m.ln10)
              case _ => m.divide(m.ln(bx), m.ln2)
            }))
      case "log1p" =>
        if (x < -1) Double.NaN
        else if (x == -1) Double.NegativeInfinity
        else if (x.isInfinite || isZero(x)) x
        // log1p(x) = x - x²/2 + …: below x, by less than half an ulp only for |x| < 2^-60.
        else if (math.abs(x) < 8.673617379884035e-19) nearReference(x, above = false, mode, single)
        else ziv(_.log1p(bx))
      case "sqrt" =>
        if (x < 0) Double.NaN
        else if (isZero(x) || x.isInfinite) x
        else {
          val s = math.sqrt(x)
          if (big(s).multiply(big(s)).compareTo(bx) == 0 && (!single || s.toFloat.toDouble == s)) s else ziv(_.sqrt(bx))
        }
      case "sin" =>
        if (x.isInfinite) Double.NaN
        else if (isZero(x)) x
        else if (math.abs(x) < Tiny) odd(x, towardZero = true, mode, single)
        else ziv(_.sinCos(bx, sine = true))
      case "cos" =>
        if (x.isInfinite) Double.NaN
        else if (isZero(x)) 1.0
        else if (math.abs(x) < 7.450580596923828e-9) nearReference(1.0, above = false, mode, single)
        else ziv(_.sinCos(bx, sine = false))
      case "tan" =>
        if (x.isInfinite) Double.NaN
        else if (isZero(x)) x
        else if (math.abs(x) < Tiny) odd(x, towardZero = false, mode, single)
        else ziv(m => m.divide(m.sinCos(bx, sine = true), m.sinCos(bx, sine = false)))
      case "sinh" =>
        if (x.isInfinite || isZero(x)) x
        else if (math.abs(x) < Tiny) odd(x, towardZero = false, mode, single)
        else if (math.abs(x) > 800) round(if (x > 0) Huge else Huge.negate(), mode, single)
        else ziv { m =>
          // (u + u / (u + 1)) / 2 with u = e^|x| - 1: no digit cancels.
          val u = m.expm1(bx.abs)
          val v = m.add(u, m.divide(u, u.add(JBigDecimal.ONE))).divide(Two)
          if (x < 0) v.negate() else v
        }
      case "cosh" =>
        if (x.isInfinite) Double.PositiveInfinity
        else if (isZero(x)) 1.0
        else if (math.abs(x) < 1.4901161193847656e-8) nearReference(1.0, above = true, mode, single)
        else if (math.abs(x) > 800) round(Huge, mode, single)
        else ziv { m =>
          val e = m.exp(bx.abs); m.add(e, m.divide(JBigDecimal.ONE, e)).divide(Two)
        }
      case "tanh" =>
        if (x.isInfinite) math.signum(x)
        else if (isZero(x)) x
        else if (math.abs(x) < Tiny) odd(x, towardZero = true, mode, single)
        else if (math.abs(x) >= 25) nearReference(math.signum(x), above = x < 0, mode, single)
        else ziv { m =>
          val u = m.expm1(bx.abs.multiply(Two))
          val v = m.divide(u, u.add(Two))
          if (x < 0) v.negate() else v
        }
      case "asin" =>
        if (math.abs(x) > 1) Double.NaN
        else if (isZero(x)) x
        else if (math.abs(x) < Tiny) odd(x, towardZero = false, mode, single)
        else if (math.abs(x) == 1) ziv(m => if (x > 0) m.halfPi else m.halfPi.negate())
        else ziv(m => m.atan(m.divide(bx, m.sqrt(JBigDecimal.ONE.subtract(bx.multiply(bx))))))
      case "acos" =>
        if (math.abs(x) > 1) Double.NaN
        else if (x == 1) 0.0
        else if (x == -1) ziv(_.piValue)
        else ziv(m => m.atan(m.sqrt(m.divide(JBigDecimal.ONE.subtract(bx), JBigDecimal.ONE.add(bx)))).multiply(Two))
      case "atan" =>
        if (x.isInfinite) ziv(m => if (x > 0) m.halfPi else m.halfPi.negate())
        else if (isZero(x)) x
        else if (math.abs(x) < Tiny) odd(x, towardZero = true, mode, single)
        else ziv(_.atan(bx))
      case "asinh" =>
        if (x.isInfinite || isZero(x)) x
        else if (math.abs(x) < Tiny) odd(x, towardZero = true, mode, single)
        else ziv { m =>
          val a = bx.abs
          val a2 = a.multiply(a)
          val u = m.add(a, m.divide(a2, JBigDecimal.ONE.add(m.sqrt(JBigDecimal.ONE.add(a2)))))
          val v = m.log1p(u)
          if (x < 0) v.negate() else v
        }
      case "acosh" =>
        if (x < 1) Double.NaN
        else if (x == 1) 0.0
        else if (x.isInfinite) x
        else ziv { m =>
          val xm1 = bx.subtract(JBigDecimal.ONE)
          m.log1p(m.add(xm1, m.sqrt(xm1.multiply(bx.add(JBigDecimal.ONE)))))
        }
      case "atanh" =>
        if (math.abs(x) > 1) Double.NaN
        else if (math.abs(x) == 1) x * Double.PositiveInfinity
        else if (isZero(x)) x
        else if (math.abs(x) < Tiny) odd(x, towardZero = false, mode, single)
        else ziv(m => m.log1p(m.divide(bx.multiply(Two), JBigDecimal.ONE.subtract(bx))).divide(Two))
      case "radians" =>
        if (isZero(x) || x.isInfinite) x else ziv(m => m.divide(m.multiply(bx, m.piValue), JBigDecimal.valueOf(180)))
      case "degrees" =>
        if (isZero(x) || x.isInfinite) x else ziv(m => m.divide(bx.multiply(JBigDecimal.valueOf(180)), m.piValue))
      case other => throw new IllegalArgumentException(s"$other takes two arguments")
    }
  }

  /** Of an i64 argument, exactly: beyond 2^53 it is no double. */
  def ofLong(fn: Int, x: Long, mode: Int): Double =
    if (math.abs(x) <= (1L << 53)) of(fn, x.toDouble, mode, single = false)
    else ofExact(fn, JBigDecimal.valueOf(x), mode)

  /**
   * Of an exact argument that may be no double (a large i64, a decimal): sqrt, exp and the
   * logarithms, the functions with such overloads. A value a double holds goes to [[of]].
   */
  def ofExact(fn: Int, x: JBigDecimal, mode: Int): Double = {
    val d = x.doubleValue()
    if (!d.isInfinite && new JBigDecimal(d).compareTo(x) == 0) return of(fn, d, mode, single = false)
    def ziv(f: BigMath => JBigDecimal) = settle(f, mode, single = false)
    names(fn) match {
      case "exp" => of(fn, d, mode, single = false) // |x| > 2^53: overflow or underflow
      case "sqrt" | "ln" | "log10" | "log2" if x.signum <= 0 =>
        if (x.signum == 0) of(fn, 0.0, mode, single = false) else Double.NaN
      case "log1p" if x.compareTo(JBigDecimal.ONE.negate()) < 0 => Double.NaN
      case "sqrt" =>
        val s = math.sqrt(d)
        val exact = new JBigDecimal(s)
        if (exact.multiply(exact).compareTo(x) == 0) s else ziv(_.sqrt(x))
      case "ln" => ziv(_.ln(x))
      case "log1p" => ziv(_.log1p(x))
      case "log10" =>
        val stripped = x.stripTrailingZeros()
        if (stripped.unscaledValue == java.math.BigInteger.ONE) -stripped.scale.toDouble
        else ziv(m => m.divide(m.ln(x), m.ln10))
      case "log2" =>
        val k = math.rint(math.log(d) / math.log(2)).toInt
        val power =
          if (k >= 0) JBigDecimal.valueOf(2).pow(k) else JBigDecimal.ONE.divide(JBigDecimal.valueOf(2).pow(-k))
        if (power.compareTo(x) == 0) k.toDouble else ziv(m => m.divide(m.ln(x), m.ln2))
      case other => throw new IllegalArgumentException(s"$other takes no exact argument")
    }
  }

  /** logb of exact arguments (positive; base not 1): the caller answers the rest. */
  def logbExact(x: JBigDecimal, base: JBigDecimal, mode: Int): Double = {
    val (dx, db) = (x.doubleValue(), base.doubleValue())
    if (new JBigDecimal(dx).compareTo(x) == 0 && new JBigDecimal(db).compareTo(base) == 0)
      return logb(dx, db, mode, single = false)
    if (x.compareTo(JBigDecimal.ONE) == 0) return if (base.compareTo(JBigDecimal.ONE) < 0) -0.0 else 0.0
    if (x.compareTo(base) == 0) return 1.0
    exactRatio(x, base, math.log(dx) / math.log(db))
      .getOrElse(settle(m => m.divide(m.ln(x), m.ln(base)), mode, single = false))
  }

  /** log2 of a power of two and log10 of a power of ten are integers. */
  private def exactLogarithm(fn: String, x: Double): Option[Double] = fn match {
    case "log2" =>
      val k = Math.getExponent(x) match {
        case e if e < java.lang.Double.MIN_EXPONENT =>
          -1074 + java.lang.Long.numberOfTrailingZeros(java.lang.Double.doubleToRawLongBits(x))
        case e => e
      }
      if (Math.scalb(1.0, k) == x) Some(k.toDouble) else None
    case "log10" => (0 to 22).find(k => math.pow(10, k) == x).map(_.toDouble)
    case _ => None
  }

  def of2(fn: Int, a: Double, b: Double, mode: Int, single: Boolean): Double = names(fn) match {
    case "atan2" => atan2(a, b, mode, single)
    case "logb" => logb(a, b, mode, single)
    case other => throw new IllegalArgumentException(s"$other takes one argument")
  }

  /** atan2(y, x): IEEE 754's special values, then the angle of (x, y) from its exact ratio. */
  private def atan2(y: Double, x: Double, mode: Int, single: Boolean): Double = {
    if (y.isNaN || x.isNaN) return Double.NaN
    val negativeX = x < 0 || (x == 0 && 1.0 / x < 0)
    def angle(f: BigMath => JBigDecimal) =
      settle(m => if (y > 0 || (y == 0 && 1.0 / y > 0)) f(m) else f(m).negate(), mode, single)
    if (y == 0) return if (negativeX) angle(_.piValue) else y
    if (x == 0) return angle(_.halfPi)
    if (x.isInfinite && y.isInfinite) return angle(m =>
      if (negativeX) m.piValue.multiply(JBigDecimal.valueOf(3)).divide(JBigDecimal.valueOf(4))
      else m.piValue.divide(JBigDecimal.valueOf(4)))
    if (x.isInfinite) return if (negativeX) angle(_.piValue) else (if (y > 0) 0.0 else -0.0)
    if (y.isInfinite) return angle(_.halfPi)
    val ratio = y / x
    // A tiny ratio t = y / x: atan(t) is t moved toward zero by far less than an ulp, so where t
    // itself is exactly a value of the format (or, rounding to nearest, exactly between two),
    // only that direction decides; elsewhere the computed value does.
    if (!negativeX && math.abs(ratio) < Tiny) {
      val (ay, ax) = (big(math.abs(y)), big(math.abs(x)))
      val (lo, hi) = CorrectlyRounded.bracket(ay.divide(ax, new java.math.MathContext(80)), single)
      val sign = if (y < 0) -1.0 else 1.0
      def exactly(v: JBigDecimal) = v.multiply(ax).compareTo(ay) == 0
      val nearest = mode == CorrectlyRounded.TieToEven || mode == CorrectlyRounded.TieAwayFromZero
      if (lo != 0 && exactly(big(lo))) return odd(sign * lo, towardZero = true, mode, single)
      if (!hi.isInfinite && exactly(big(hi))) return odd(sign * hi, towardZero = true, mode, single)
      if (nearest && !hi.isInfinite && exactly(big(lo).add(big(hi)).divide(Two))) return sign * lo
    }
    angle { m =>
      val t = m.atan(m.divide(big(math.abs(y)), big(math.abs(x))))
      if (negativeX) m.piValue.subtract(t) else t
    }
  }

  /** ln(x) / ln(base) for x > 0 and a positive base other than 1 (the caller answers the rest). */
  private def logb(x: Double, base: Double, mode: Int, single: Boolean): Double = {
    if (x.isNaN || base.isNaN) return Double.NaN
    if (x.isInfinite || base.isInfinite || x <= 0 || base <= 0 || base == 1) return math.log(x) / math.log(base)
    // ln(1) / ln(base): a zero with the sign of the quotient, as the plain division gives it.
    if (x == 1) return if (base < 1) -0.0 else 0.0
    if (x == base) return 1.0
    val bx = big(x)
    val bb = big(base)
    val approx = math.log(x) / math.log(base)
    exactRatio(bx, bb, approx).getOrElse(settle(m => m.divide(m.ln(bx), m.ln(bb)), mode, single))
  }

  /** n / 2^j (|n| ≤ 4096, j ≤ 3) when x^(2^j) is exactly base^n: a rational logarithm. */
  private def exactRatio(x: JBigDecimal, base: JBigDecimal, approx: Double): Option[Double] =
    (0 to 3).iterator.flatMap { j =>
      val scaled = approx * (1 << j)
      val n = math.rint(scaled)
      if (math.abs(n) > 4096 || math.abs(scaled - n) > 1e-9) None
      else {
        val lhs = x.pow(1 << j)
        val k = n.toInt
        val same =
          if (k >= 0) lhs.compareTo(base.pow(k)) == 0 else lhs.multiply(base.pow(-k)).compareTo(JBigDecimal.ONE) == 0
        if (same) Some(n / (1 << j)) else None
      }
    }.find(_ => true)
}
