package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions.{Cast, Expression}
import org.apache.spark.sql.types.{ByteType, DataType, DecimalType, IntegerType, LongType, ShortType}

/**
 * The operands of an exact decimal add, subtract or multiply without the widening casts a
 * producer wrote around them. DuckDB casts both operands to the result's precision first
 * (TPC-DS q23's `CAST(ss_quantity AS DECIMAL(17,0)) * CAST(ss_sales_price AS DECIMAL(17,2))`):
 * Spark types that product DECIMAL(35,2) and computes it in BigDecimals, where the SQL's
 * `ss_quantity * ss_sales_price` is DECIMAL(18,2). isthmus casts an integer to the other
 * operand's scale (TPC-DS q66's `ws_ext_sales_price * CAST(ws_quantity AS DECIMAL(12,2))`,
 * declared DECIMAL(17,2)): the product's scale 4 then needs a rounding cast per row. A cast
 * that only adds digits (no fewer integer digits and no lower scale than the value has; an
 * integer to a DECIMAL(p,s) with p - s at least its digits) changes no value, and where the
 * operation on the wide operands is exact (its Spark result precision at most 38, so no digit
 * is rounded away), the one on the narrow operands, of smaller precision, is exact too: the
 * same value. Only where the plan declares the result's decimal
 * type, whose cast then follows (FunctionArguments): the result's type stays the plan's.
 */
private[functions] object WidenedDecimals {
  private val MaxPrecision = DecimalType.MAX_PRECISION

  def apply(op: String, l: Expression, r: Expression, declared: Option[DataType]): (Expression, Expression) =
    (l.dataType, r.dataType) match {
      case (a: DecimalType, b: DecimalType) if declared.exists(_.isInstanceOf[DecimalType]) && exact(op, a, b) =>
        (narrow(l), narrow(r))
      case _ => (l, r)
    }

  /** Spark's result precision of `op` on a and b is at most 38 (no rounding, no precision loss). */
  private def exact(op: String, a: DecimalType, b: DecimalType): Boolean = op match {
    case "multiply" => a.precision + b.precision + 1 <= MaxPrecision
    case "add" | "subtract" =>
      math.max(a.scale, b.scale) + math.max(a.precision - a.scale, b.precision - b.scale) + 1 <= MaxPrecision
    case _ => false
  }

  private def narrow(e: Expression): Expression = e match {
    case Cast(child, to: DecimalType, _, _) =>
      child.dataType match {
        case from: DecimalType if from.scale <= to.scale && from.precision - from.scale <= to.precision - to.scale =>
          child
        case t if digitsOf(t).exists(_ <= to.precision - to.scale) => Cast(child, DecimalType(digitsOf(t).get, 0))
        case _ => e
      }
    case _ => e
  }

  /** The decimal digits of every value of an integer type (Spark's own decimal of it). */
  private def digitsOf(t: DataType): Option[Int] = t match {
    case ByteType => Some(3)
    case ShortType => Some(5)
    case IntegerType => Some(10)
    case LongType => Some(20)
    case _ => None
  }
}
