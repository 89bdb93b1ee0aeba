package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal, RoundingMode}

import org.apache.spark.sql.catalyst.expressions.{BinaryExpression, Expression}
import org.apache.spark.sql.catalyst.expressions.codegen.{CodegenContext, ExprCode}
import org.apache.spark.sql.types.{DataType, Decimal, DecimalType}

import io.sparksubstrait.errors.SubstraitErrors

/**
 * x / y of two decimals rounded once, half away from zero, at `scale` (the scale the plan
 * declares for the quotient), as a DECIMAL(38, scale). Spark's division rounds at a scale of
 * its own rules (DECIMAL(21,13) for a DECIMAL(10,2) over 2) that a cast to the plan's type
 * rounds again: a quotient of digits ...4999995 past the plan's scale rounded up twice. Below
 * 19 digits, the quotient is long division with a remainder (one multiply-high to check the
 * scaled dividend fits), where Spark's divides two BigDecimals to 38 digits per row and the
 * cast re-rounds them (TPC-DS q04 as every producer writes it: 1.3x its SQL).
 *
 * The divisor is not 0 (the caller answers a zero divisor as the plan asks). A quotient of
 * more than 38 digits is NULL, or the error `overflowError` names when given.
 */
final case class DecimalQuotient(left: Expression, right: Expression, scale: Int, overflowError: Option[OverflowError])
    extends BinaryExpression {
  override def dataType: DataType = DecimalType(DecimalType.MAX_PRECISION, scale)
  override def nullable: Boolean = true
  override def prettyName: String = "decimal_quotient"

  override protected def nullSafeEval(x: Any, y: Any): Any = {
    val q = DecimalQuotients.divide(x.asInstanceOf[Decimal], y.asInstanceOf[Decimal], scale)
    if (q == null) overflowError.foreach(e => throw e.exception())
    q
  }

  override protected def doGenCode(ctx: CodegenContext, ev: ExprCode): ExprCode = {
    val onOverflow = overflowError match {
      case Some(e) =>
        s"throw ((${classOf[OverflowError].getName}) ${ctx.addReferenceObj("overflowError", e)}).exception();"
      case None => s"${ev.isNull} = true;"
    }
    nullSafeCodeGen(ctx, ev,
      (x, y) =>
        s"""${ev.value} = ${DecimalQuotients.getClass.getName.stripSuffix("$")}.divide($x, $y, $scale);
         |if (${ev.value} == null) { $onOverflow }""".stripMargin)
  }

  override protected def withNewChildrenInternal(newLeft: Expression, newRight: Expression): DecimalQuotient =
    copy(left = newLeft, right = newRight)
}

/**
 * The error of a quotient beyond 38 digits: the function's place in the plan. Unchecked:
 * generated code throws it, and Janino refuses a checked exception there (the expression then
 * ran interpreted, TPC-DS q04 and every decimal quotient with it).
 */
final case class OverflowError(location: String, function: String) {
  def exception(): RuntimeException = SubstraitErrors.functionError("SUBSTRAIT_ARITHMETIC_OVERFLOW", location, function,
    "the quotient exceeds 38 digits")
}

/** The division of [[DecimalQuotient]] (called from generated code). */
final class DecimalQuotients private ()

object DecimalQuotients {
  private val Pow10: Array[Long] = Array.iterate(1L, 19)(_ * 10)

  def divide(x: Decimal, y: Decimal, scale: Int): Decimal = {
    // x / y at `scale` is xu·10^k / yu in unscaled values, k = scale - x.scale + y.scale.
    val k = scale - x.scale + y.scale
    if (x.precision <= 18 && y.precision <= 18 && k >= 0 && k <= 18) {
      val xu = x.toUnscaledLong
      val yu = y.toUnscaledLong
      val high = Math.multiplyHigh(xu, Pow10(k))
      val num = xu * Pow10(k)
      if (high == (num >> 63) && num != Long.MinValue && yu != Long.MinValue) {
        val q = num / yu
        val rem = Math.abs(num % yu)
        // Half away from zero: up when the remainder is at least half the divisor.
        val rounded = if (rem != 0 && rem >= Math.abs(yu) - rem) q + (if ((num < 0) != (yu < 0)) -1 else 1) else q
        return Decimal(rounded, DecimalType.MAX_PRECISION, scale)
      }
    }
    divideExactly(x, y, scale)
  }

  /** BigDecimal division alone: beyond 19 digits, and the oracle of the fast path in tests. */
  private[sparksubstrait] def divideExactly(x: Decimal, y: Decimal, scale: Int): Decimal = {
    val exact: JBigDecimal = x.toJavaBigDecimal.divide(y.toJavaBigDecimal, scale, RoundingMode.HALF_UP)
    if (exact.precision > DecimalType.MAX_PRECISION) null else Decimal(exact, DecimalType.MAX_PRECISION, scale)
  }
}
