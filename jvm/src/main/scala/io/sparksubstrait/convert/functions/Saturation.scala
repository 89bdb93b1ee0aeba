package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions.{
  And, Cast, Expression, Greatest, If, IsNotNull, IsNull, Least, LessThan, Literal, Not, EqualTo
}
import org.apache.spark.sql.types._

/**
 * Integer results within their type's range: SATURATE clamps the exact result, computed in
 * DECIMAL(38,0) (wide enough for any i64 sum, difference or product).
 */
private[functions] object Saturation {
  val Integral: Set[DataType] = Set(ByteType, ShortType, IntegerType, LongType)
  val Exact: DecimalType = DecimalType(38, 0)

  def range(t: DataType): (Long, Long) = t match {
    case ByteType => (Byte.MinValue.toLong, Byte.MaxValue.toLong)
    case ShortType => (Short.MinValue.toLong, Short.MaxValue.toLong)
    case IntegerType => (Int.MinValue.toLong, Int.MaxValue.toLong)
    case _ => (Long.MinValue, Long.MaxValue)
  }

  def integralLiteral(v: Long, t: DataType): Literal = Literal.create(Cast(Literal(v), t).eval(), t)

  def wide(e: Expression): Expression = Cast(e, Exact)

  /** `exact` (a DECIMAL(38,0)) clamped to the range of `t`; NULL stays NULL (least/greatest skip NULLs). */
  def saturated(t: DataType, exact: Expression): Expression = {
    val (min, max) = range(t)
    def bound(v: Long) = Literal(org.apache.spark.sql.types.Decimal(v), Exact)
    val e = Cast(exact, Exact)
    Cast(If(IsNull(e), Literal(null, Exact), Least(Seq(Greatest(Seq(e, bound(min))), bound(max)))), t)
  }

  /**
   * A decimal result clamped to its type decimal<p, s>: `legacy` is Spark's arithmetic in its
   * legacy mode, NULL exactly when the value needs more than p digits (for operands that are
   * not NULL); then ±(10^p - 1) / 10^s by the sign of the exact result, which `sign` (of the
   * same sign, or a double approximation: an overflowing value is far from 0) gives.
   */
  def decimal(l: Expression, r: Expression, sparkLegacy: Expression, sign: Expression, declared: Option[DataType])
    : Expression = {
    // Clamped to the plan's declared type (the YAML's, where Spark's rules give another): a
    // legacy cast to it is NULL exactly when the value needs more digits than it has.
    val legacy = declared match {
      case Some(d: DecimalType) if d != sparkLegacy.dataType =>
        Cast(sparkLegacy, d, None, org.apache.spark.sql.catalyst.expressions.EvalMode.LEGACY)
      case _ => sparkLegacy
    }
    val t = legacy.dataType.asInstanceOf[DecimalType]
    val largest =
      java.math.BigDecimal.ONE.movePointRight(t.precision).subtract(java.math.BigDecimal.ONE).movePointLeft(t.scale)
    def bound(v: java.math.BigDecimal) = Literal(org.apache.spark.sql.types.Decimal(v, t.precision, t.scale), t)
    val overflowed = And(IsNull(legacy), And(IsNotNull(l), IsNotNull(r)))
    val negative = LessThan(sign, Cast(Literal(0), sign.dataType))
    If(overflowed, If(negative, bound(largest.negate), bound(largest)), legacy)
  }

  /** Negative exactly when a product or quotient of x and y is: their signs differ. */
  def productSign(l: Expression, r: Expression): Expression = {
    def negative(e: Expression) = LessThan(e, Cast(Literal(0), e.dataType))
    If(Not(EqualTo(negative(l), negative(r))), Literal(-1), Literal(1))
  }
}
