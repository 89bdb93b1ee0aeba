package io.sparksubstrait.runtime

import java.math.BigInteger

import org.apache.spark.sql.types.Decimal

/**
 * Exact integer arithmetic that Spark has no expression for, called from generated code
 * through StaticInvoke (so executors need this jar, which a cluster library provides).
 * Every method is pure; overflow and domain errors throw ArithmeticException.
 */
/** Holds the static forwarders of [[ExactMath$]] that generated code calls. */
final class ExactMath private ()

object ExactMath {
  /** base^exponent for a non-negative exponent; overflow is an error. */
  def power(base: Long, exponent: Long): Long = {
    if (exponent < 0) throw new ArithmeticException(s"power: negative exponent $exponent of an integer")
    var result = 1L
    var b = base
    var e = exponent
    // Square-and-multiply; a square that overflows is only an error if it is still needed.
    while (e > 0) {
      if ((e & 1) == 1) result = Math.multiplyExact(result, b)
      e >>= 1
      if (e > 0) b = Math.multiplyExact(b, b)
    }
    result
  }

  /** base^exponent modulo 2^64 (overflow SILENT). */
  def powerWrapping(base: Long, exponent: Long): Long = {
    if (exponent < 0) throw new ArithmeticException(s"power: negative exponent $exponent of an integer")
    BigInteger.valueOf(base).pow(Math.toIntExact(exponent)).longValue
  }

  def decimalAnd(a: Decimal, b: Decimal): Decimal = Decimal(new java.math.BigDecimal(integer(a).and(integer(b))))
  def decimalOr(a: Decimal, b: Decimal): Decimal = Decimal(new java.math.BigDecimal(integer(a).or(integer(b))))
  def decimalXor(a: Decimal, b: Decimal): Decimal = Decimal(new java.math.BigDecimal(integer(a).xor(integer(b))))

  /** n! of a whole decimal: an error below 0 or beyond 38 digits. */
  def decimalFactorial(n: Decimal): Decimal = {
    val k = integer(n)
    if (k.signum < 0) throw new ArithmeticException(s"factorial of a negative number $k")
    if (k.compareTo(BigInteger.valueOf(33)) > 0) throw new ArithmeticException(s"factorial($k) exceeds 38 digits")
    Decimal(new java.math.BigDecimal((2 to k.intValue).foldLeft(BigInteger.ONE)((acc, i) => acc.multiply(BigInteger.valueOf(i)))))
  }

  /** The value of a decimal of scale 0 as an integer (two's complement for the bitwise operations). */
  private def integer(d: Decimal): BigInteger = d.toJavaBigDecimal.toBigIntegerExact
}
