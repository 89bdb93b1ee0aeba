package io.sparksubstrait.write

import org.apache.spark.sql.catalyst.expressions.{
  Cast, Divide, EvalMode, Expression, Literal, MakeDecimal, UnscaledValue, WindowExpression
}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Average, Sum}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.{DecimalType, DoubleType}

/**
 * The optimizer's DecimalAggregates sums a DECIMAL(p,s) of p <= 8 as its unscaled longs:
 * `MakeDecimal(sum(UnscaledValue(x)), p+10, s)`. Written literally, that is a multiply and a
 * cast per row and an i64 sum every reader must make exact (TPC-DS q70 and q86 read back 1.4x
 * slower than their SQL), and other engines see arithmetic instead of a sum. It is the
 * decimal `sum(x)`, whose Spark type is DECIMAL(p+10,s) itself: written so, a reader sums the
 * decimals as it would for SQL (Spark's own reader takes the long path again). Overflow is
 * the same question both ways: beyond DECIMAL(p+10,s) an ANSI sum raises and MakeDecimal then
 * raises; a legacy sum is NULL and MakeDecimal is asked for NULL. Where the two disagree (not
 * a plan the optimizer makes) the literal form is kept.
 *
 * Its average of a DECIMAL(p,s) of p <= 11 is, likewise, the mean of the unscaled longs in
 * doubles divided by 10^s and cast to DECIMAL(p+4,s+4): `avg(x)`'s own type. Written
 * literally, a reader makes that i64 mean exact and divides per group (TPC-DS q07, q09, q27,
 * q28 read back 1.4-1.6x slower than their SQL). It is written as the decimal `avg(x)` the
 * query asks for: Spark reads it back into the same double path, and another engine computes
 * the decimal mean, of which Spark's doubles are the approximation (the last of the s+4
 * digits can differ once a group's unscaled sum passes 2^53). The cast cannot overflow (a mean
 * lies within its values' range), so no mode question arises.
 */
private[sparksubstrait] object DecimalSums {
  def apply(plan: LogicalPlan): LogicalPlan =
    plan.transformUpWithSubqueries { case p =>
      p.transformExpressionsUp {
        case m @ MakeDecimal(w @ WindowExpression(Unscaled(a, x), _), _, _, _) if fits(m, x, a) =>
          w.copy(windowFunction = restored(a))
        case m @ MakeDecimal(Unscaled(a, x), _, _, _) if fits(m, x, a) => restored(a)
        case c @ Cast(Divide(w @ WindowExpression(UnscaledAverage(a, x), _), d, _), _, _, _) if averages(c, d, x) =>
          w.copy(windowFunction = restoredAverage(a))
        case c @ Cast(Divide(UnscaledAverage(a, x), d, _), _, _, _) if averages(c, d, x) => restoredAverage(a)
      }
    }

  /** An aggregate `sum(UnscaledValue(x))` and its x. */
  private object Unscaled {
    def unapply(e: Expression): Option[(AggregateExpression, DecimalType)] =
      e match {
        case a @ AggregateExpression(Sum(UnscaledValue(x), _), _, _, _, _) =>
          x.dataType match {
            case d: DecimalType => Some((a, d))
            case _ => None
          }
        case _ => None
      }
  }

  private def sumOf(a: AggregateExpression): Sum = a.aggregateFunction.asInstanceOf[Sum]

  /** MakeDecimal's type is the decimal sum's, and its overflow answer the sum's. */
  private def fits(m: MakeDecimal, x: DecimalType, a: AggregateExpression): Boolean = {
    val ansi = SparkShim.sumMode(sumOf(a)) == EvalMode.ANSI
    m.precision == x.precision + 10 && m.scale == x.scale && m.nullOnOverflow == !ansi
  }

  /** The sum of x itself, in the same mode. */
  private def restored(a: AggregateExpression): AggregateExpression = {
    val sum = sumOf(a)
    val x = sum.child.asInstanceOf[UnscaledValue].child
    a.copy(aggregateFunction = sum.withNewChildren(Seq(x)).asInstanceOf[Sum])
  }

  /** An aggregate `avg(UnscaledValue(x))` and its x. */
  private object UnscaledAverage {
    def unapply(e: Expression): Option[(AggregateExpression, DecimalType)] =
      e match {
        case a @ AggregateExpression(Average(UnscaledValue(x), _), _, _, _, _) =>
          x.dataType match {
            case d: DecimalType => Some((a, d))
            case _ => None
          }
        case _ => None
      }
  }

  /** The divisor is 10^s in doubles and the cast's type the decimal average's. */
  private def averages(c: Cast, divisor: Expression, x: DecimalType): Boolean =
    divisor match {
      case Literal(v: Double, DoubleType) =>
        v == math.pow(10.0, x.scale) && c.dataType == DecimalType(x.precision + 4, x.scale + 4)
      case _ => false
    }

  /** The average of x itself, in the same mode. */
  private def restoredAverage(a: AggregateExpression): AggregateExpression = {
    val avg = a.aggregateFunction.asInstanceOf[Average]
    val x = avg.child.asInstanceOf[UnscaledValue].child
    a.copy(aggregateFunction = avg.withNewChildren(Seq(x)).asInstanceOf[Average])
  }
}
