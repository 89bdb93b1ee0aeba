package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions.{Ceil, Expression, Floor}

/** ceil / floor before Spark 4.3: they never fail. */
private[sparksubstrait] trait RoundingShim {
  def ceil(child: Expression): Expression = Ceil(child)
  def floor(child: Expression): Expression = Floor(child)
}
