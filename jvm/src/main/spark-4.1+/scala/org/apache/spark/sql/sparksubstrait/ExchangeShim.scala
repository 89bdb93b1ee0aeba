package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions.{DirectShufflePartitionID, Expression}

/** Spark 4.1 and later can put each row in the shuffle partition an expression names. */
private[sparksubstrait] trait ExchangeShim {

  /** The partitioning expression for a RepartitionByExpression: `id` (an int) is the partition. */
  def partitionById(id: Expression): Either[String, Expression] = Right(DirectShufflePartitionID(id))
}
