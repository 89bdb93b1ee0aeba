package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions.{Expression, Literal, PreciseTimestampConversion}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, LongType, TimeType}

/**
 * Spark 4.1 and later have a TIME type (a time of day, precision 0 to 6, held as nanoseconds
 * of the day) behind `spark.sql.timeType.enabled`: Substrait's precision_time maps to it when
 * the session has it on. Left: why it cannot.
 */
private[sparksubstrait] trait TimeShim {
  private def enabled: Either[String, Unit] =
    if (SQLConf.get.getConf(SQLConf.TIME_TYPE_ENABLED)) Right(())
    else Left(s"Spark's TIME type, which this session has off: set ${SQLConf.TIME_TYPE_ENABLED.key}=true")

  /** Spark's TIME of this precision (0 to 6). */
  def timeType(precision: Int): Either[String, DataType] = enabled.map(_ => TimeType(precision))

  /** A TIME literal, `nanos` nanoseconds after midnight. */
  def timeLiteral(nanos: Long, precision: Int): Either[String, Expression] =
    enabled.map(_ => Literal(nanos, TimeType(precision)))

  /** A TIME's nanoseconds since midnight, as a long (the value as Spark holds it). */
  def timeNanos(e: Expression): Expression = PreciseTimestampConversion(e, e.dataType, LongType)

  /** The precision of a TIME type; None for any other type. */
  def timePrecision(dt: DataType): Option[Int] = dt match {
    case t: TimeType => Some(t.precision)
    case _ => None
  }
}
