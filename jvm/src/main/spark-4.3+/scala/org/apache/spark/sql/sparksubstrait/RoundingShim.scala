package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions.{Ceil, Expression, Floor}

/**
 * ceil / floor from Spark 4.3, whose second argument (failOnError) defaults to ANSI mode:
 * false keeps them never failing, as before 4.3 (their Substrait mappings check ranges).
 */
private[sparksubstrait] trait RoundingShim {
  def ceil(child: Expression): Expression = Ceil(child, false)
  def floor(child: Expression): Expression = Floor(child, false)
}
