package io.sparksubstrait.runtime

import java.math.BigInteger

import org.apache.spark.sql.types.Decimal
import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.errors.SubstraitErrors

/**
 * Exact integer arithmetic that Spark has no expression for, called from generated code
 * through StaticInvoke (so executors need this jar, which a cluster library provides).
 * Every method is pure. The power functions raise the plan's overflow and domain errors
 * (SUBSTRAIT_ARITHMETIC_OVERFLOW, SUBSTRAIT_DOMAIN_ERROR) at `location`, the function's place
 * in the plan; the callers of the others rule out their errors first.
 */
/** Holds the static forwarders of [[ExactMath$]] that generated code calls. */
final class ExactMath private ()

object ExactMath {

  /** base^exponent for a non-negative exponent; overflow is an error. */
  def power(base: Long, exponent: Long, location: UTF8String): Long = {
    nonNegative(exponent, location)
    var result = 1L
    var b = base
    var e = exponent
    // Square-and-multiply; a square that overflows is only an error if it is still needed.
    try {
      while (e > 0) {
        if ((e & 1) == 1) result = Math.multiplyExact(result, b)
        e >>= 1
        if (e > 0) b = Math.multiplyExact(b, b)
      }
    } catch {
      case _: ArithmeticException => throw SubstraitErrors.functionError("SUBSTRAIT_ARITHMETIC_OVERFLOW",
          location.toString, "power", s"$base^$exponent exceeds i64")
    }
    result
  }

  /** A day-time interval (microseconds) times an integer; overflow is our error, not Java's. */
  def dayTimeTimes(micros: Long, n: Long, location: UTF8String): Long =
    try Math.multiplyExact(micros, n)
    catch {
      case _: ArithmeticException => throw intervalOverflow(micros, n, location)
    }

  /** A year-month interval (months) times an integer. */
  def yearMonthTimes(months: Int, n: Long, location: UTF8String): Int =
    try Math.toIntExact(Math.multiplyExact(months.toLong, n))
    catch {
      case _: ArithmeticException => throw intervalOverflow(months, n, location)
    }

  private def intervalOverflow(interval: Long, n: Long, location: UTF8String): Throwable =
    SubstraitErrors.functionError("SUBSTRAIT_ARITHMETIC_OVERFLOW", location.toString, "multiply",
      s"$n times an interval of $interval exceeds the interval type")

  /** base^exponent clamped to [min, max] (overflow SATURATE): exact, then the nearer bound. */
  def powerSaturating(base: Long, exponent: Long, min: Long, max: Long, location: UTF8String): Long = {
    nonNegative(exponent, location)
    val b = BigInteger.valueOf(base)
    // |base| >= 2 to a power of 64 or more is beyond every bound: only its sign matters.
    val odd = (exponent & 1) == 1
    val exact =
      if (base == 0) (if (exponent == 0) BigInteger.ONE else BigInteger.ZERO)
      else if (base == 1) BigInteger.ONE
      else if (base == -1) (if (odd) BigInteger.ONE.negate() else BigInteger.ONE)
      else if (exponent >= 64) (if (base < 0 && odd) BigInteger.valueOf(min).subtract(BigInteger.ONE)
                                else BigInteger.valueOf(max).add(BigInteger.ONE))
      else b.pow(exponent.toInt)
    if (exact.compareTo(BigInteger.valueOf(max)) > 0) max
    else if (exact.compareTo(BigInteger.valueOf(min)) < 0) min
    else exact.longValue
  }

  /** base^exponent modulo 2^64 (overflow SILENT). */
  def powerWrapping(base: Long, exponent: Long, location: UTF8String): Long = {
    nonNegative(exponent, location)
    BigInteger.valueOf(base).modPow(BigInteger.valueOf(exponent), BigInteger.ONE.shiftLeft(64)).longValue
  }

  /** An integer to a negative power is not an integer. */
  private def nonNegative(exponent: Long, location: UTF8String): Unit =
    if (exponent < 0) throw SubstraitErrors.functionError("SUBSTRAIT_DOMAIN_ERROR", location.toString, "power",
      s"the integer power has a negative exponent $exponent")

  def decimalAnd(a: Decimal, b: Decimal, precision: Int, location: UTF8String): Decimal =
    whole(integer(a).and(integer(b)), precision, location, "bitwise_and")
  def decimalOr(a: Decimal, b: Decimal, precision: Int, location: UTF8String): Decimal =
    whole(integer(a).or(integer(b)), precision, location, "bitwise_or")
  def decimalXor(a: Decimal, b: Decimal, precision: Int, location: UTF8String): Decimal =
    whole(integer(a).xor(integer(b)), precision, location, "bitwise_xor")

  /** A two's complement result in DECIMAL(precision, 0), or the overflow it is (-MAX & -2 needs 39 digits). */
  private def whole(v: BigInteger, precision: Int, location: UTF8String, function: String): Decimal = {
    if (v.abs.compareTo(BigInteger.TEN.pow(precision)) >= 0) throw SubstraitErrors.functionError(
      "SUBSTRAIT_ARITHMETIC_OVERFLOW", location.toString, function, s"$v exceeds DECIMAL($precision, 0)")
    Decimal(new java.math.BigDecimal(v), precision, 0)
  }

  /**
   * -x and |x| of a decimal, exactly: Spark's decimal negation goes through Scala's BigDecimal,
   * whose MathContext (34 digits) rounds 38-digit values; a negated decimal always fits.
   */
  def negateDecimal(x: Decimal): Decimal = Decimal(x.toJavaBigDecimal.negate, x.precision, x.scale)
  def absDecimal(x: Decimal): Decimal = Decimal(x.toJavaBigDecimal.abs, x.precision, x.scale)

  /** n! of a whole decimal from 0 to 33 (the callers raise the plan's errors for the others). */
  def decimalFactorial(n: Decimal): Decimal = {
    val k = integer(n)
    if (k.signum < 0) throw new ArithmeticException(s"factorial of a negative number $k")
    if (k.compareTo(BigInteger.valueOf(33)) > 0) throw new ArithmeticException(s"factorial($k) exceeds 38 digits")
    Decimal(new java.math.BigDecimal((2 to k.intValue).foldLeft(BigInteger.ONE)((acc, i) =>
          acc.multiply(BigInteger.valueOf(i)))))
  }

  /**
   * The product of two unsigned integers (DECIMAL(38,0) values from 0 to `max`) brought into
   * [0, max] by the overflow option (`mode` error, saturate or wrap): the exact product of two
   * u64 values needs 39 digits, more than a Spark decimal holds.
   */
  def unsignedProduct(a: Decimal, b: Decimal, max: Decimal, mode: UTF8String, location: UTF8String): Decimal = {
    val product = integer(a).multiply(integer(b))
    val top = integer(max)
    val inRange =
      if (product.compareTo(top) <= 0) product
      else mode.toString match {
        case "error" => throw SubstraitErrors.functionError("SUBSTRAIT_ARITHMETIC_OVERFLOW", location.toString,
            "multiply", s"$a * $b exceeds $top")
        case "saturate" => top
        case _ => product.mod(top.add(BigInteger.ONE))
      }
    Decimal(new java.math.BigDecimal(inRange), 38, 0)
  }

  /** The value of a decimal of scale 0 as an integer (two's complement for the bitwise operations). */
  private def integer(d: Decimal): BigInteger = d.toJavaBigDecimal.toBigIntegerExact
}
