package io.sparksubstrait.runtime

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.DeclarativeAggregate
import org.apache.spark.sql.catalyst.trees.BinaryLike
import org.apache.spark.sql.types._

/**
 * A binary64 sum or mean whose overflow is the exact sum's, not a partial sum's: the sum in
 * row order (as Spark's), and beside it the same sum of every value scaled by 2^-64 (exact
 * for every double from 2^-958 up, and no sum of scaled finite values can leave binary64).
 * Where the row-order sum is infinite although no value was infinite or NaN, the scaled sum
 * times 2^64 is a sum in the same order that no partial sum made infinite: finite when the
 * values' sum fits binary64, infinite (of the sum's sign) when it does not.
 *
 * `result`: "sum", where a sum beyond binary64 is what `overflow` says ("ERROR": `error`, a
 * raising expression; "SATURATE": ±Double.MaxValue; "IEEE": the infinity), or "mean" (the
 * sum divided by the count, which never leaves binary64). A group of -0.0 values sums to
 * -0.0 (the first value starts the sum, not +0.0). No values: NULL.
 */
final case class FloatSum(child: Expression, error: Expression, result: String, overflow: String)
    extends DeclarativeAggregate with BinaryLike[Expression] {
  require(Set("sum", "mean")(result) && Set("ERROR", "SATURATE", "IEEE")(overflow), s"$result $overflow")

  override def left: Expression = child
  override def right: Expression = error
  override def dataType: DataType = DoubleType
  override def nullable: Boolean = true
  override def prettyName: String = if (result == "sum") "exact_range_sum" else "exact_range_avg"

  private lazy val sum = AttributeReference("sum", DoubleType)() // NULL until a non-NULL value
  private lazy val scaled = AttributeReference("scaled", DoubleType)()
  private lazy val count = AttributeReference("count", LongType)()
  private lazy val nonFinite = AttributeReference("nonFinite", BooleanType)()

  override lazy val aggBufferAttributes: Seq[AttributeReference] = Seq(sum, scaled, count, nonFinite)
  override lazy val initialValues: Seq[Expression] =
    Seq(Literal(null, DoubleType), Literal(null, DoubleType), Literal(0L), Literal(false))

  private val Down = Literal(math.pow(2, -64))
  private val Up = Literal(math.pow(2, 64))
  private lazy val x = Cast(child, DoubleType)

  private def finite(e: Expression): Expression = LessThan(Abs(e), Literal(Double.PositiveInfinity))
  private def plus(a: Expression, b: Expression): Expression = If(IsNull(a), b, If(IsNull(b), a, Add(a, b)))

  override lazy val updateExpressions: Seq[Expression] = Seq(
    If(IsNull(x), sum, plus(sum, x)),
    If(IsNull(x), scaled, plus(scaled, Multiply(x, Down))),
    If(IsNull(x), count, Add(count, Literal(1L))),
    If(IsNull(x), nonFinite, Or(nonFinite, Not(finite(x)))))

  override lazy val mergeExpressions: Seq[Expression] = Seq(
    plus(sum.left, sum.right), plus(scaled.left, scaled.right), Add(count.left, count.right),
    Or(nonFinite.left, nonFinite.right))

  override lazy val evaluateExpression: Expression = {
    val rowOrder = if (result == "sum") sum else Divide(sum, Cast(count, DoubleType))
    val unscaled = if (result == "sum") Multiply(scaled, Up) else Multiply(Divide(scaled, Cast(count, DoubleType)), Up)
    val beyond = overflow match {
      case "ERROR" => error
      case "SATURATE" => Multiply(Signum(scaled), Literal(Double.MaxValue))
      case _ => unscaled
    }
    If(IsNull(sum), Literal(null, DoubleType),
      If(Or(finite(sum), nonFinite), rowOrder, If(finite(unscaled), unscaled, beyond)))
  }

  override protected def withNewChildrenInternal(newLeft: Expression, newRight: Expression): FloatSum =
    copy(child = newLeft, error = newRight)
}
