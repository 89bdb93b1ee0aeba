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
 * A NULL operand gives NULL; a zero divisor NULL, or the error `zeroDivisor` names when given;
 * a quotient of more than 38 digits NULL, or the error `overflowError` names when given. All in
 * this one expression, not a CASE around it: a smaller tree for Spark's optimizer, which took
 * 125 ms on isthmus' TPC-DS q66 (24 quotients, each a CASE then) against 75 ms on the SQL's.
 */
final case class DecimalQuotient(left: Expression, right: Expression, scale: Int, zeroDivisor: Option[FunctionFault],
  overflowError: Option[FunctionFault]) extends BinaryExpression {
  override def dataType: DataType = DecimalType(DecimalType.MAX_PRECISION, scale)
  override def nullable: Boolean = true
  override def prettyName: String = "decimal_quotient"

  override protected def nullSafeEval(x: Any, y: Any): Any = {
    val divisor = y.asInstanceOf[Decimal]
    if (divisor.isZero) {
      zeroDivisor.foreach(e => throw e.exception())
      return null
    }
    val q = DecimalQuotients.divide(x.asInstanceOf[Decimal], divisor, scale)
    if (q == null) overflowError.foreach(e => throw e.exception())
    q
  }

  override protected def doGenCode(ctx: CodegenContext, ev: ExprCode): ExprCode = {
    def fault(name: String, error: Option[FunctionFault]) = error match {
      case Some(e) => s"throw ((${classOf[FunctionFault].getName}) ${ctx.addReferenceObj(name, e)}).exception();"
      case None => s"${ev.isNull} = true;"
    }
    nullSafeCodeGen(ctx, ev,
      (x, y) =>
        s"""if ($y.isZero()) { ${fault("zeroDivisor", zeroDivisor)} } else {
         |  ${ev.value} = ${DecimalQuotients.getClass.getName.stripSuffix("$")}.divide($x, $y, $scale);
         |  if (${ev.value} == null) { ${fault("overflowError", overflowError)} }
         |}""".stripMargin)
  }

  override protected def withNewChildrenInternal(newLeft: Expression, newRight: Expression): DecimalQuotient =
    copy(left = newLeft, right = newRight)
}

/**
 * An error a function's options ask for, raised by the generated code of an expression that
 * finds the fault itself: its condition, the function's place in the plan, what went wrong.
 * Unchecked: Janino refuses a checked exception in generated code (the expression then ran
 * interpreted, TPC-DS q04 and every decimal quotient with it).
 */
final case class FunctionFault(condition: String, location: String, function: String, detail: String) {
  require(SubstraitErrors.functionConditions(condition), condition)
  def exception(): RuntimeException = SubstraitErrors.functionError(condition, location, function, detail)
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
