package org.apache.spark.sql.catalyst.sparksubstrait

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * The analyzed mark of Spark's CheckAnalysis, which only code in Spark's catalyst package may
 * set: for a plan whose parts [[org.apache.spark.sql.sparksubstrait.SparkShim]] checked one by one.
 */
object AnalyzedMark {
  def set(plan: LogicalPlan): Unit = plan.setAnalyzed()
}
