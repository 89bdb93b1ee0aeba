package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateFunction, Average, Sum}
import org.apache.spark.sql.internal.SQLConf

/**
 * Arithmetic in Spark 4.1 and later: operators carry their decimal precision-loss setting in
 * a `NumericEvalContext`, taken from the session converting the plan.
 */
private[sparksubstrait] trait ArithmeticShim {
  private def ctx(mode: EvalMode.Value, conf: SQLConf): NumericEvalContext =
    NumericEvalContext(mode, conf.decimalOperationsAllowPrecisionLoss)

  def add(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Add(l, r, ctx(mode, conf))
  def subtract(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression =
    Subtract(l, r, ctx(mode, conf))
  def multiply(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression =
    Multiply(l, r, ctx(mode, conf))
  def divide(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression =
    Divide(l, r, ctx(mode, conf))
  def integralDivide(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression =
    IntegralDivide(l, r, ctx(mode, conf))
  def remainder(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression =
    Remainder(l, r, ctx(mode, conf))
  def pmod(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Pmod(l, r, ctx(mode, conf))
  def sum(child: Expression, mode: EvalMode.Value, conf: SQLConf): AggregateFunction = Sum(child, ctx(mode, conf))
  def average(child: Expression, mode: EvalMode.Value): AggregateFunction = Average(child, mode)

  /** An arithmetic operator's overflow / division-by-zero mode (what writing it needs). */
  def arithmeticMode(b: BinaryArithmetic): EvalMode.Value = b.evalMode

  /** A sum's overflow mode (what writing it needs). */
  def sumMode(s: Sum): EvalMode.Value = s.evalContext.evalMode

  /** A timestamp plus a day-time interval, in `zone`. */
  def timestampAddInterval(timestamp: Expression, interval: Expression, zone: Option[String]): Expression =
    TimestampAddInterval(timestamp, interval, zone)
}
