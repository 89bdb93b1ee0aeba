package io.sparksubstrait.write

import org.apache.spark.sql.catalyst.expressions.{
  Cast, Divide, EvalMode, Expression, Literal, MakeDecimal, UnscaledValue, WindowExpression
}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, AggregateFunction, Average, Sum}
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
        case m @ MakeDecimal(w @ WindowExpression(Unscaled(a: Sum, x), _), _, _, _) if fits(m, x, a) =>
          w.copy(windowFunction = restored(w.windowFunction))
        case m @ MakeDecimal(e @ Unscaled(a: Sum, x), _, _, _) if fits(m, x, a) => restored(e)
        case c @ Cast(Divide(w @ WindowExpression(Unscaled(_: Average, x), _), d, _), _, _, _) if averages(c, d, x) =>
          w.copy(windowFunction = restored(w.windowFunction))
        case c @ Cast(Divide(e @ Unscaled(_: Average, x), d, _), _, _, _) if averages(c, d, x) => restored(e)
      }
    }

  /** An aggregate `f(UnscaledValue(x))`: f and x's type. */
  private object Unscaled {
    def unapply(e: Expression): Option[(AggregateFunction, DecimalType)] =
      e match {
        case AggregateExpression(f, _, _, _, _) =>
          f.children match {
            case Seq(UnscaledValue(x)) =>
              x.dataType match {
                case d: DecimalType => Some((f, d))
                case _ => None
              }
            case _ => None
          }
        case _ => None
      }
  }

  /** MakeDecimal's type is the decimal sum's, and its overflow answer the sum's. */
  private def fits(m: MakeDecimal, x: DecimalType, sum: Sum): Boolean = {
    val ansi = SparkShim.sumMode(sum) == EvalMode.ANSI
    m.precision == x.precision + 10 && m.scale == x.scale && m.nullOnOverflow == !ansi
  }

  /** The divisor is 10^s in doubles and the cast's type the decimal average's. */
  private def averages(c: Cast, divisor: Expression, x: DecimalType): Boolean =
    divisor match {
      case Literal(v: Double, DoubleType) =>
        v == math.pow(10.0, x.scale) && c.dataType == DecimalType(x.precision + 4, x.scale + 4)
      case _ => false
    }

  /** The same aggregate, in the same mode, of x itself. */
  private def restored(e: Expression): AggregateExpression = {
    val a = e.asInstanceOf[AggregateExpression]
    val x = a.aggregateFunction.children.head.asInstanceOf[UnscaledValue].child
    a.copy(aggregateFunction = a.aggregateFunction.withNewChildren(Seq(x)).asInstanceOf[AggregateFunction])
  }
}
