package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal, BigInteger}

/**
 * An exact sum of binary fractions (doubles, their squares and pairwise products): every term
 * is an integer times a power of two, so the sum is one too, kept as 32-bit digits in longs
 * (a "superaccumulator"). A term touches at most five digits and carries are settled lazily
 * (a digit absorbs 2^30 terms before it could overflow), so adding costs a few long additions
 * and no allocation, whatever the terms' magnitudes: no rounding ever happens, so the order of
 * the rows (and of merges) cannot change the sum.
 *
 * Digit i of `digits` weighs 2^(32·(offset + i)); the window grows as terms need it.
 */
private[runtime] final class ExactAccumulator extends Serializable {
  private var digits: Array[Long] = null
  private var offset = 0
  private var pending = 0

  def isZero: Boolean = digits == null || { settle(); digits.forall(_ == 0L) }

  /** Adds ±(hi·2^64 + lo)·2^exponent (`hi`, `lo` unsigned, hi < 2^62). */
  def add(negative: Boolean, hi: Long, lo: Long, exponent: Int): Unit = {
    if (hi == 0L && lo == 0L) return
    val index = Math.floorDiv(exponent, 32)
    val shift = Math.floorMod(exponent, 32)
    // (hi, lo) shifted left by `shift`: three longs, l2 the highest (no tuple: this runs per row).
    val l0 = lo << shift
    val l1 = if (shift == 0) hi else (hi << shift) | (lo >>> (64 - shift))
    val l2 = if (shift == 0) 0L else hi >>> (64 - shift)
    ensure(index, index + 5)
    val i = index - offset
    val d = digits
    if (negative) {
      d(i) -= l0 & 0xffffffffL; d(i + 1) -= l0 >>> 32; d(i + 2) -= l1 & 0xffffffffL; d(i + 3) -= l1 >>> 32;
      d(i + 4) -= l2
    } else {
      d(i) += l0 & 0xffffffffL; d(i + 1) += l0 >>> 32; d(i + 2) += l1 & 0xffffffffL; d(i + 3) += l1 >>> 32;
      d(i + 4) += l2
    }
    pending += 1
    if (pending >= (1 << 30)) settle()
  }

  /** Adds ±m·2^exponent, m < 2^63. */
  def add(negative: Boolean, m: Long, exponent: Int): Unit = add(negative, 0L, m, exponent)

  /** Adds ±(a·b)·2^exponent for a, b < 2^63: the 126-bit product exactly. */
  def addProduct(negative: Boolean, a: Long, b: Long, exponent: Int): Unit =
    add(negative, Math.multiplyHigh(a, b), a * b, exponent)

  def merge(other: ExactAccumulator): Unit = if (other.digits != null) {
    other.settle()
    settle()
    ensure(other.offset, other.offset + other.digits.length)
    val shift = other.offset - offset
    var k = 0
    while (k < other.digits.length) { digits(shift + k) += other.digits(k); k += 1 }
    pending = 1
  }

  /** The sum as m·2^e: (m, e). */
  def value: (BigInteger, Int) = {
    if (digits == null) return (BigInteger.ZERO, 0)
    settle()
    var m = BigInteger.ZERO
    var k = digits.length - 1
    while (k >= 0) { m = m.shiftLeft(32).add(BigInteger.valueOf(digits(k))); k -= 1 }
    (m, 32 * offset)
  }

  /** Every digit in [0, 2^32) except the top one, which carries the sign. */
  private def settle(): Unit = if (digits != null && pending > 0) {
    var k = 0
    while (k < digits.length - 1) {
      val carry = digits(k) >> 32
      digits(k) -= carry << 32
      digits(k + 1) += carry
      k += 1
    }
    // Keep the top digit small, so later terms cannot overflow it.
    val top = digits(digits.length - 1)
    if (top >= (1L << 32) || top < -(1L << 32)) {
      ensure(offset + digits.length, offset + digits.length + 2)
      pending = 1
      settle()
    }
    pending = 0
  }

  /** Makes digits [from, until) (absolute indices) part of the window. */
  private def ensure(from: Int, until: Int): Unit = {
    if (digits == null) {
      digits = new Array[Long](math.max(8, until - from + 2))
      offset = from - 1
    } else if (from < offset || until > offset + digits.length) {
      val newOffset = math.min(offset, from - 4)
      val newEnd = math.max(offset + digits.length, until + 4)
      val grown = new Array[Long](newEnd - newOffset)
      System.arraycopy(digits, 0, grown, offset - newOffset, digits.length)
      digits = grown
      offset = newOffset
    }
  }

  def write(out: java.io.DataOutputStream): Unit = {
    if (digits == null) { out.writeInt(-1); return }
    settle()
    out.writeInt(digits.length)
    out.writeInt(offset)
    digits.foreach(out.writeLong)
  }
}

private[runtime] object ExactAccumulator {
  def read(in: java.io.DataInputStream): ExactAccumulator = {
    val acc = new ExactAccumulator
    val length = in.readInt()
    if (length >= 0) {
      acc.offset = in.readInt()
      acc.digits = Array.fill(length)(in.readLong())
    }
    acc
  }

  /** A finite non-zero double as ±m·2^e (m < 2^53): its sign, m and e. */
  @inline def significand(bits: Long): Long = {
    val fraction = bits & ((1L << 52) - 1)
    if (((bits >>> 52) & 0x7ff) == 0) fraction else fraction | (1L << 52)
  }
  @inline def exponent(bits: Long): Int = {
    val biased = ((bits >>> 52) & 0x7ff).toInt
    if (biased == 0) -1074 else biased - 1075
  }
}

/**
 * Exact rationals num·2^exp2 / den rounded once to binary64 or binary32 in an IEEE mode
 * ([[CorrectlyRounded]]'s codes), and their square roots: the exact statistics' last step.
 * The quotient (or root) is taken as an integer q of at least 62 bits at a power of two
 * 2^-k, so every rounding boundary of the result (a representable value or a midpoint, both
 * multiples of 2^(e-53) at the result's exponent e) is a multiple of 2^-k: a value strictly
 * between q·2^-k and (q+1)·2^-k rounds as (q + 1/2)·2^-k does, which [[CorrectlyRounded.round]]
 * rounds exactly.
 */
object ExactRatio {
  private val Bits = 62

  /** num·2^exp2 / den (den > 0) rounded in `mode`. */
  def ratio(num: BigInteger, exp2: Int, den: BigInteger, mode: Int, single: Boolean): Double = {
    if (num.signum == 0) return 0.0
    val a = num.abs
    val k = Bits - (a.bitLength - den.bitLength + exp2)
    // a·2^(exp2 + k) / den
    val shift = exp2 + k
    val (n, d) = if (shift >= 0) (a.shiftLeft(shift), den) else (a, den.shiftLeft(-shift))
    val qr = n.divideAndRemainder(d)
    val v = fromScaled(qr(0), qr(1).signum != 0, k)
    CorrectlyRounded.round(if (num.signum < 0) v.negate() else v, mode, single)
  }

  /** ±sqrt(num·2^exp2 / den) (num ≥ 0, den > 0) rounded in `mode`. */
  def sqrtRatio(num: BigInteger, exp2: Int, den: BigInteger, negative: Boolean, mode: Int, single: Boolean): Double = {
    if (num.signum == 0) return if (negative) -0.0 else 0.0
    // An even power of two comes out of the root: num·2^exp2 = (num·2^(exp2 & 1))·2^(2h).
    val odd = exp2 & 1
    val m = num.shiftLeft(odd)
    val h = (exp2 - odd) / 2
    // s = isqrt(m·4^j / den) has at least Bits bits; the root is s·2^(h - j) plus less than one unit.
    val j = math.max(-(1 << 20), (2 * Bits + 2 - (m.bitLength - den.bitLength) + 1) / 2)
    val (n, d) = if (j >= 0) (m.shiftLeft(2 * j), den) else (m, den.shiftLeft(-2 * j))
    val qr = n.divideAndRemainder(d)
    val s = qr(0).sqrt()
    val exact = qr(1).signum == 0 && s.multiply(s).equals(qr(0))
    val v = fromScaled(s, !exact, j - h)
    CorrectlyRounded.round(if (negative) v.negate() else v, mode, single)
  }

  /** q·2^-k exactly, or (q + 1/2)·2^-k for a value strictly between q·2^-k and (q + 1)·2^-k. */
  private def fromScaled(q: BigInteger, inexact: Boolean, k: Int): JBigDecimal = {
    val (m, scale) = if (inexact) (q.shiftLeft(1).add(BigInteger.ONE), k + 1) else (q, k)
    if (scale <= 0) new JBigDecimal(m.shiftLeft(-scale))
    // m / 2^scale = m·5^scale / 10^scale, exactly.
    else new JBigDecimal(m.multiply(BigInteger.valueOf(5).pow(scale)), scale)
  }
}
