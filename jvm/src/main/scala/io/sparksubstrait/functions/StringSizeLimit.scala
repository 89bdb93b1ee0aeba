package io.sparksubstrait.functions

import scala.util.Try

import org.apache.spark.network.util.JavaUtils
import org.apache.spark.sql.catalyst.expressions.{Expression, GreaterThan, If, Literal}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.StringType

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

  /** A target length (in characters) above the limit: each character is at least a byte. */
  def lengthGuard(c: FunctionCall, length: Expression)(result: Expression): Expression = {
    val limit = maxBytes(c.ctx.conf)
    guard(c, GreaterThan(length, Literal(limit)), s"a length of more than $limit characters, over $Key ($limit bytes)")(result)
  }
}
