package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions.{Cast, Expression}
import org.apache.spark.sql.types._

/**
 * Brings arguments to one type where a sloppy producer mixed them (Substrait signatures
 * take equal types, e.g. `add:i32_i32`). Only widening casts, so no value changes.
 */
private[sparksubstrait] object NumericCoercion {
  private val integralRank: Map[DataType, Int] = Map(ByteType -> 1, ShortType -> 2, IntegerType -> 3, LongType -> 4)
  private val integralAsDecimal: Map[DataType, DecimalType] =
    Map(ByteType -> DecimalType(3, 0), ShortType -> DecimalType(5, 0), IntegerType -> DecimalType(10, 0),
      LongType -> DecimalType(20, 0))

  def isNumeric(dt: DataType): Boolean = dt.isInstanceOf[NumericType]

  /** The type both sides widen to, if any. */
  def common(a: DataType, b: DataType): Option[DataType] = (a, b) match {
    case _ if a == b => Some(a)
    case (NullType, t) => Some(t)
    case (t, NullType) => Some(t)
    case (x, y) if integralRank.contains(x) && integralRank.contains(y) =>
      Some(if (integralRank(x) >= integralRank(y)) x else y)
    case (x: DecimalType, y: DecimalType) =>
      val scale = math.max(x.scale, y.scale)
      val range = math.max(x.precision - x.scale, y.precision - y.scale)
      if (range + scale > DecimalType.MAX_PRECISION) None else Some(DecimalType(range + scale, scale))
    case (x: DecimalType, y) if integralAsDecimal.contains(y) => common(x, integralAsDecimal(y))
    case (x, y: DecimalType) if integralAsDecimal.contains(x) => common(integralAsDecimal(x), y)
    case (x, y) if isNumeric(x) && isNumeric(y) && (x == DoubleType || y == DoubleType) => Some(DoubleType)
    case (x, y) if isNumeric(x) && isNumeric(y) && (x == FloatType || y == FloatType) =>
      if (x.isInstanceOf[DecimalType] || y.isInstanceOf[DecimalType]) Some(DoubleType) else Some(FloatType)
    case _ => None
  }

  /** Casts every argument to their common type, or None when they have none. */
  def unify(args: Seq[Expression]): Option[Seq[Expression]] = {
    val target = args.map(_.dataType).foldLeft(Option[DataType](NullType)) {
      case (Some(acc), t) => common(acc, t)
      case (None, _) => None
    }
    target.map(t => args.map(a => if (a.dataType == t) a else Cast(a, t)))
  }
}
