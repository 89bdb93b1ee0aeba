package io.sparksubstrait.explain

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.decode.DecodedPlan

/**
 * The plan explorer: reads a plan as a read would, with an [[ExplainTrace]] recording
 * what became what, and returns the explain document as JSON. Nothing runs: Spark only
 * analyses and optimizes the converted plan. An invalid plan raises the error a read raises.
 */
private[sparksubstrait] object SubstraitExplain {
  def json(session: SparkSession, plan: DecodedPlan, root: Option[Int]): String = {
    val trace = new ExplainTrace
    val converted = ReadPipeline.read(session, plan, root, trace)
    val (analyzed, optimized) = SparkShim.analyzedAndOptimized(session, converted)
    // The session's user function mappings, whether or not this plan calls them: what a plan
    // of the session's users' extensions would be read with.
    val userFunctions = io.sparksubstrait.convert.functions.UserFunctions.of(SparkShim.sqlConf(session)).mappings
    ExplainJson(trace, converted, analyzed.treeString, optimized.treeString, userFunctions.map(_.describe))
  }
}
