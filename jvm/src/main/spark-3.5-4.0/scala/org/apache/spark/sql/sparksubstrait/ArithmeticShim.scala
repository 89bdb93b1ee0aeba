package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateFunction, Average, Sum}
import org.apache.spark.sql.internal.SQLConf

/**
 * Arithmetic in Spark 3.5 and 4.0: operators take an `EvalMode` and read the decimal
 * precision-loss setting from the session at analysis, so `conf` is unused here.
 */
private[sparksubstrait] trait ArithmeticShim {
  def add(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Add(l, r, mode)
  def subtract(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Subtract(l, r, mode)
  def multiply(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Multiply(l, r, mode)
  def divide(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Divide(l, r, mode)
  def integralDivide(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression =
    IntegralDivide(l, r, mode)
  def remainder(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Remainder(l, r, mode)
  def pmod(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Pmod(l, r, mode)
  def sum(child: Expression, mode: EvalMode.Value, conf: SQLConf): AggregateFunction = Sum(child, mode)
  def average(child: Expression, mode: EvalMode.Value): AggregateFunction = Average(child, mode)

  /** An arithmetic operator's overflow / division-by-zero mode (protected on the base class in Spark 3.5). */
  def arithmeticMode(b: BinaryArithmetic): EvalMode.Value = b match {
    case a: Add => a.evalMode
    case s: Subtract => s.evalMode
    case m: Multiply => m.evalMode
    case d: Divide => d.evalMode
    case i: IntegralDivide => i.evalMode
    case r: Remainder => r.evalMode
    case p: Pmod => p.evalMode
    // Others (bitwise operators) have no overflow: TRY is never written (the writer refuses it).
    case _ => EvalMode.TRY
  }

  /** A sum's overflow mode (what writing it needs). */
  def sumMode(s: Sum): EvalMode.Value = s.evalMode

  /** A timestamp plus a day-time interval, in `zone` (Spark 4.1 renamed `TimeAdd`). */
  def timestampAddInterval(timestamp: Expression, interval: Expression, zone: Option[String]): Expression =
    TimeAdd(timestamp, interval, zone)
}
