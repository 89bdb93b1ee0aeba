package io.sparksubstrait.runtime

import org.apache.spark.sql.types.Decimal
import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.errors.SubstraitErrors

/**
 * A table column read as the narrower type a plan's base_schema declares for it
 * (convert/rel/DeclaredColumnTypes), called from generated code through StaticInvoke. A value
 * that fits is returned unchanged; one that does not raises SUBSTRAIT_VALUE_OUT_OF_RANGE with
 * the column and the value: Spark's casts would wrap it (legacy) or raise their own
 * CAST_OVERFLOW (ANSI), neither of which names the plan's column. Every method is pure; the
 * class holds the static forwarders generated code calls.
 */
final class CheckedNarrowing private ()

object CheckedNarrowing {

  /** An integer (any width, widened to a long first) as i32. */
  def toInt(v: Long, location: UTF8String, column: UTF8String, stored: UTF8String): Int =
    if (v.toInt == v) v.toInt else throw outOfRange(v.toString, "i32", location, column, stored)

  def toShort(v: Long, location: UTF8String, column: UTF8String, stored: UTF8String): Short =
    if (v.toShort == v) v.toShort else throw outOfRange(v.toString, "i16", location, column, stored)

  def toByte(v: Long, location: UTF8String, column: UTF8String, stored: UTF8String): Byte =
    if (v.toByte == v) v.toByte else throw outOfRange(v.toString, "i8", location, column, stored)

  /**
   * A decimal as DECIMAL(precision, scale), where `scale` is at least the value's own (the
   * caller refuses fewer fraction digits: that would round), so only the integer digits can
   * not fit.
   */
  def toDecimal(v: Decimal, precision: Int, scale: Int, location: UTF8String, column: UTF8String,
    stored: UTF8String): Decimal = {
    val exact = v.toJavaBigDecimal.setScale(scale)
    if (exact.precision - exact.scale > precision - scale) {
      throw outOfRange(exact.toPlainString, s"decimal<$precision,$scale>", location, column, stored)
    }
    Decimal(exact, precision, scale)
  }

  private def outOfRange(value: String, declared: String, location: UTF8String, column: UTF8String,
    stored: UTF8String): Throwable =
    SubstraitErrors.valueOutOfRange(location.toString, column.toString, value, declared, stored.toString)
}
