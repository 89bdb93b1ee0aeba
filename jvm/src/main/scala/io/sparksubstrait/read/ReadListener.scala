package io.sparksubstrait.read

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.sparksubstrait.convert.ConversionListener
import io.sparksubstrait.decode.readings.AppliedReading
import io.sparksubstrait.foundation.PlanPath

/**
 * What a whole read tells whoever watches it (the plan explorer, explain/): the conversion's
 * relations and calls, and what [[ReadPipeline]] does around the conversion.
 */
private[sparksubstrait] trait ReadListener extends ConversionListener {

  /** The plan's producer and the producer readings that applied to it. */
  def plan(producer: String, readings: Seq[AppliedReading], beforePostJoinFilterClarified: Boolean = false): Unit

  /** The plan shapes (shape/) that rewrote the converted plan: name and meaning. */
  def shapes(applied: Seq[(String, String)]): Unit

  /** The converted plan `before`, rewritten into `after` (by the plan shapes or SkippedAnalysis). */
  def reshaped(before: LogicalPlan, after: LogicalPlan): Unit

  /** The root relation at `at`, named `names`, became the whole `plan`. */
  def root(at: PlanPath, names: Seq[String], plan: LogicalPlan): Unit
}
