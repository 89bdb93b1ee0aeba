package io.sparksubstrait.explain

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.PlanConverter
import io.sparksubstrait.decode.DecodedPlan

/**
 * The plan explorer: converts a plan as a read would, with an [[ExplainTrace]] recording
 * what became what, and returns the explain document as JSON. Nothing runs: Spark only
 * analyses and optimizes the converted plan. An invalid plan raises the error a read raises.
 */
private[sparksubstrait] object SubstraitExplain {
  def json(session: SparkSession, plan: DecodedPlan, root: Option[Int]): String = {
    val trace = new ExplainTrace
    val converted = PlanConverter.convert(session, plan, root, trace)
    val (analyzed, optimized) = SparkShim.analyzedAndOptimized(session, converted)
    ExplainJson(trace, converted, analyzed.treeString, optimized.treeString)
  }
}
