package io.sparksubstrait.convert.functions

import scala.util.Try

import org.apache.spark.network.util.JavaUtils
import org.apache.spark.sql.catalyst.expressions.{
  Add, And, Cast, Expression, GreaterThan, If, IntegralDivide, Literal, Multiply, OctetLength, Subtract
}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{LongType, StringType}

import io.sparksubstrait.errors.SubstraitErrors

/**
 * How large a string a function whose result size an argument sets (repeat, lpad, rpad,
 * center) may return: `spark.substrait.maxStringBytes` (64 MiB by default). A plan of a few
 * bytes could otherwise ask every row for 2 GB and end the driver or an executor in an
 * OutOfMemoryError. A size fixed by constants is refused at conversion; one that comes with
 * the data is SUBSTRAIT_RESULT_TOO_LARGE when the row is computed, before Spark allocates it.
 */
private[functions] object StringSizeLimit {
  val Key = "spark.substrait.maxStringBytes"
  val Default: Long = 64L * 1024 * 1024

  def maxBytes(conf: SQLConf): Long = {
    val raw = conf.getConfString(Key, Default.toString)
    Try(JavaUtils.byteStringAsBytes(raw.trim)).toOption.filter(_ > 0)
      .getOrElse(throw SubstraitErrors.invalidSetting(Key, raw, "a size of 1 byte or more, e.g. 64m"))
  }

  /**
   * `result` unless `tooLarge` holds (a boolean expression over the arguments): then the
   * error, at conversion when `tooLarge` is constant, else at run time.
   */
  def guard(c: FunctionCall, tooLarge: Expression, detail: String)(result: Expression): Expression =
    if (tooLarge.foldable) {
      if (tooLarge.eval() == true) FunctionErrors.tooLargeNow(c, detail) else result
    } else If(tooLarge, FunctionErrors.tooLarge(c, detail, StringType), result)

  /**
   * replace(s, from, to): each occurrence of `from` grows the string by the difference of the
   * two lengths, so a longer `to` can multiply it (a 64 MB string of 'a' with 'a' → 1 KB).
   * Nothing is added where `to` is no longer than `from` (constants: no guard at all). Else a
   * cheap bound first (every character an occurrence) and, only when it passes the limit, the
   * exact size: the occurrences counted as what removing them all takes away (`removed`).
   */
  def replacementGuard(c: FunctionCall, s: Expression, from: Expression, to: Expression, removed: Expression)(
    result: Expression): Expression = {
    val limit = maxBytes(c.ctx.conf)
    def bytes(e: Expression) = Cast(OctetLength(e), LongType)
    val growth = Subtract(bytes(to), bytes(from))
    val grows = And(GreaterThan(growth, Literal(0L)), GreaterThan(bytes(from), Literal(0L)))
    if (grows.foldable && grows.eval() != true) return result
    def sizeWith(occurrences: Expression) = Add(bytes(s), Multiply(occurrences, growth))
    // Bytes over occurrences: each occurrence is bytes(from) long. Longs: at most about 2^31 × 2^31.
    val bound = sizeWith(IntegralDivide(bytes(s), bytes(from)))
    val exact = sizeWith(IntegralDivide(Subtract(bytes(s), bytes(removed)), bytes(from)))
    val tooLarge = And(grows, And(GreaterThan(bound, Literal(limit)), GreaterThan(exact, Literal(limit))))
    guard(c, tooLarge, s"more than $limit bytes, over $Key")(result)
  }

  /** A target length (in characters) above the limit: each character is at least a byte. */
  def lengthGuard(c: FunctionCall, length: Expression)(result: Expression): Expression = {
    val limit = maxBytes(c.ctx.conf)
    guard(c, GreaterThan(length, Literal(limit)), s"a length of more than $limit characters, over $Key ($limit bytes)")(
      result)
  }
}
