package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal, MathContext, RoundingMode}

/**
 * Elementary functions of exact decimal arguments to a given number of significant digits,
 * for [[CorrectlyRounded]]: each result's relative error stays below 10^-(digits - 2). Every
 * function reduces its argument exactly (BigDecimal arithmetic on a double is exact) and sums a
 * short series; the reductions are chosen so that no step cancels digits near a zero of the
 * function (asin and acos near ±1, log1p near 0, asinh and acosh through log1p).
 */
private[runtime] final class BigMath(val digits: Int) {
  private val mc = new MathContext(digits + 10, RoundingMode.HALF_EVEN)
  private val stop = JBigDecimal.ONE.movePointLeft(digits + 12)
  private val Two = JBigDecimal.valueOf(2)

  private def small(term: JBigDecimal, sum: JBigDecimal): Boolean =
    term.signum == 0 || term.abs.compareTo(sum.abs.multiply(stop)) <= 0

  /** 2·atanh(t) = ln((1 + t) / (1 - t)), for |t| ≤ 0.2. */
  private def twiceAtanh(t: JBigDecimal): JBigDecimal = {
    val t2 = t.multiply(t, mc)
    var power = t
    var sum = t
    var k = 1
    var done = t.signum == 0
    while (!done) {
      power = power.multiply(t2, mc)
      k += 2
      val term = power.divide(JBigDecimal.valueOf(k.toLong), mc)
      sum = sum.add(term, mc)
      done = small(term, sum)
    }
    sum.multiply(Two, mc)
  }

  lazy val ln2: JBigDecimal = twiceAtanh(JBigDecimal.ONE.divide(JBigDecimal.valueOf(3), mc))
  lazy val ln10: JBigDecimal = ln2.multiply(JBigDecimal.valueOf(3), mc).add(ln(new JBigDecimal("1.25")), mc)

  /** atan(x) for |x| ≤ 1/4 by its series. */
  private def atanSeries(x: JBigDecimal): JBigDecimal = {
    val x2 = x.multiply(x, mc)
    var power = x
    var sum = x
    var k = 1
    var sign = 1
    var done = x.signum == 0
    while (!done) {
      power = power.multiply(x2, mc)
      k += 2
      sign = -sign
      val term = power.divide(JBigDecimal.valueOf(k.toLong), mc)
      sum = if (sign > 0) sum.add(term, mc) else sum.subtract(term, mc)
      done = small(term, sum)
    }
    sum
  }

  /** π, to this instance's digits plus `extra` (argument reduction of large angles needs more). */
  def pi(extra: Int): JBigDecimal = BigMath.pi(digits + extra + 10)
  lazy val piValue: JBigDecimal = pi(10)
  lazy val halfPi: JBigDecimal = piValue.divide(Two, mc)

  /** e^x for |x| ≤ 800 (the callers send larger arguments to overflow or underflow). */
  def exp(x: JBigDecimal): JBigDecimal = {
    if (x.signum == 0) return JBigDecimal.ONE
    // x = k·ln2 + r with |r| ≤ ln2/2, then r halved 8 times: the series converges quickly and
    // squaring back doubles the relative error 8 times (covered by the working digits).
    val k = x.divide(ln2, MathContext.DECIMAL64).setScale(0, RoundingMode.HALF_EVEN).intValueExact()
    val r = x.subtract(ln2.multiply(JBigDecimal.valueOf(k.toLong), mc), mc)
    val reduced = r.divide(JBigDecimal.valueOf(256), mc)
    var term = JBigDecimal.ONE
    var sum = JBigDecimal.ONE
    var n = 0
    var done = false
    while (!done) {
      n += 1
      term = term.multiply(reduced, mc).divide(JBigDecimal.valueOf(n.toLong), mc)
      sum = sum.add(term, mc)
      done = small(term, sum)
    }
    var result = sum
    for (_ <- 0 until 8) result = result.multiply(result, mc)
    scaleByPowerOfTwo(result, k)
  }

  /** e^x - 1, keeping its relative precision for x near 0 (the series there). */
  def expm1(x: JBigDecimal): JBigDecimal = {
    if (x.abs.compareTo(new JBigDecimal("0.5")) >= 0) return exp(x).subtract(JBigDecimal.ONE, mc)
    var term = x
    var sum = x
    var n = 1
    var done = x.signum == 0
    while (!done) {
      n += 1
      term = term.multiply(x, mc).divide(JBigDecimal.valueOf(n.toLong), mc)
      sum = sum.add(term, mc)
      done = small(term, sum)
    }
    sum
  }

  private def scaleByPowerOfTwo(v: JBigDecimal, k: Int): JBigDecimal =
    if (k >= 0) v.multiply(Two.pow(k), mc) else v.divide(Two.pow(-k), mc)

  /** ln(x) for x > 0: x = m·2^e with m in [3/4, 3/2), ln m = 2·atanh((m - 1) / (m + 1)). */
  def ln(x: JBigDecimal): JBigDecimal = {
    require(x.signum > 0)
    var e = java.lang.Math.getExponent(x.doubleValue()).toInt
    if (x.doubleValue() == 0.0 || x.doubleValue().isInfinite) e = estimateExponent(x)
    var m = if (e >= 0) x.divide(Two.pow(e)) else x.multiply(Two.pow(-e))
    val low = new JBigDecimal("0.75")
    val high = new JBigDecimal("1.5")
    while (m.compareTo(high) >= 0) { m = m.divide(Two); e += 1 }
    while (m.compareTo(low) < 0) { m = m.multiply(Two); e -= 1 }
    val t = m.subtract(JBigDecimal.ONE).divide(m.add(JBigDecimal.ONE), mc)
    val lnM = twiceAtanh(t)
    if (e == 0) lnM else lnM.add(ln2.multiply(JBigDecimal.valueOf(e.toLong), mc), mc)
  }

  private def estimateExponent(x: JBigDecimal): Int = {
    val bits = x.unscaledValue.bitLength
    (bits - 1 - math.ceil(x.scale * math.log(10) / math.log(2))).toInt
  }

  /** ln(1 + x) for x > -1, keeping its relative precision for x near 0. */
  def log1p(x: JBigDecimal): JBigDecimal = {
    val y = JBigDecimal.ONE.add(x)
    if (y.compareTo(new JBigDecimal("0.75")) >= 0 && y.compareTo(new JBigDecimal("1.5")) < 0)
      twiceAtanh(x.divide(Two.add(x), mc))
    else ln(y)
  }

  /** sin and cos of a reduced angle |r| ≤ π/4, by their series. */
  private def sinCosSeries(r: JBigDecimal, sine: Boolean): JBigDecimal = {
    val r2 = r.multiply(r, mc)
    var term = if (sine) r else JBigDecimal.ONE
    var sum = term
    var n = if (sine) 1 else 0
    var done = term.signum == 0
    while (!done) {
      term = term.multiply(r2, mc).divide(JBigDecimal.valueOf(((n + 1) * (n + 2)).toLong), mc).negate()
      n += 2
      sum = sum.add(term, mc)
      done = small(term, sum)
    }
    sum
  }

  /**
   * sin or cos of x: x = k·π/2 + r with π to as many more digits as x has before its point, so
   * r keeps its relative precision even where x nearly is a multiple of π/2.
   */
  def sinCos(x: JBigDecimal, sine: Boolean): JBigDecimal = {
    val before = math.max(0, x.precision - x.scale)
    val p = pi(before + 30)
    val wideMc = new MathContext(digits + before + 40, RoundingMode.HALF_EVEN)
    val half = p.divide(Two, wideMc)
    val k = x.divide(half, new MathContext(before + 5, RoundingMode.HALF_EVEN)).setScale(0, RoundingMode.HALF_EVEN)
    val r = x.subtract(half.multiply(k, wideMc), wideMc).round(mc)
    val quadrant = k.toBigInteger.mod(java.math.BigInteger.valueOf(4)).intValue
    val (fromSine, negative) = (sine, quadrant) match {
      case (true, 0) => (true, false)
      case (true, 1) => (false, false)
      case (true, 2) => (true, true)
      case (true, _) => (false, true)
      case (false, 0) => (false, false)
      case (false, 1) => (true, true)
      case (false, 2) => (false, true)
      case (false, _) => (true, false)
    }
    val v = sinCosSeries(r, fromSine)
    if (negative) v.negate() else v
  }

  /** atan(x): the complement for |x| > 1, then two halvings atan(x) = 2·atan(x / (1 + √(1 + x²))). */
  def atan(x: JBigDecimal): JBigDecimal = {
    if (x.signum == 0) return x
    val a = x.abs
    if (a.compareTo(JBigDecimal.ONE) > 0) {
      val v = halfPi.subtract(atan(JBigDecimal.ONE.divide(a, mc)), mc)
      return if (x.signum < 0) v.negate() else v
    }
    var y = a
    var doublings = 0
    while (y.compareTo(new JBigDecimal("0.25")) > 0) {
      y = y.divide(JBigDecimal.ONE.add(JBigDecimal.ONE.add(y.multiply(y, mc)).sqrt(mc)), mc)
      doublings += 1
    }
    val v = atanSeries(y).multiply(Two.pow(doublings), mc)
    if (x.signum < 0) v.negate() else v
  }

  def sqrt(x: JBigDecimal): JBigDecimal = x.sqrt(mc)
  private[runtime] def machinPi: JBigDecimal = {
    val a = atanSeries(JBigDecimal.ONE.divide(JBigDecimal.valueOf(5), mc))
    val b = atanSeries(JBigDecimal.ONE.divide(JBigDecimal.valueOf(239), mc))
    a.multiply(JBigDecimal.valueOf(16), mc).subtract(b.multiply(JBigDecimal.valueOf(4), mc), mc)
  }
  def divide(a: JBigDecimal, b: JBigDecimal): JBigDecimal = a.divide(b, mc)
  def multiply(a: JBigDecimal, b: JBigDecimal): JBigDecimal = a.multiply(b, mc)
  def add(a: JBigDecimal, b: JBigDecimal): JBigDecimal = a.add(b, mc)
}

private[runtime] object BigMath {

  /** π to 800 digits, computed once (Machin's formula): enough to reduce any double's angle. */
  private lazy val pi800: JBigDecimal = new BigMath(800).machinPi

  def pi(digits: Int): JBigDecimal = {
    require(digits <= 790, s"π to $digits digits")
    pi800.round(new MathContext(digits, RoundingMode.HALF_EVEN))
  }
}
