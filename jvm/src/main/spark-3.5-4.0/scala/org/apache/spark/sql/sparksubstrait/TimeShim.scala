package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.types.DataType

/** Spark 3.5 and 4.0 have no TIME type (it came in 4.1): precision_time has nothing to map to. */
private[sparksubstrait] trait TimeShim {
  private val missing = "a TIME type, which Spark has from 4.1 on"
  def timeType(precision: Int): Either[String, DataType] = Left(missing)
  def timeLiteral(nanos: Long, precision: Int): Either[String, Expression] = Left(missing)
  def timePrecision(dt: DataType): Option[Int] = None
  // Unreachable: no value has a TIME type here (timePrecision is always None).
  def timeNanos(e: Expression): Expression = throw new IllegalStateException("Spark before 4.1 has no TIME values")
}
