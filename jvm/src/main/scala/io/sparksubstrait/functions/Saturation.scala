package io.sparksubstrait.functions

import org.apache.spark.sql.catalyst.expressions.{Cast, Expression, Greatest, If, IsNull, Least, Literal}
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
}
