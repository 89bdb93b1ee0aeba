package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions.Expression

/** Spark 3.5 and 4.0 can only hash or range rows into partitions: a computed partition came in 4.1. */
private[sparksubstrait] trait ExchangeShim {
  def partitionById(id: Expression): Either[String, Expression] =
    Left("Spark 4.1 or later, which puts a row in the partition an expression names")
}
