package io.sparksubstrait.foundation

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * The attributes an operator introduces: the output columns not among its inputs (a leaf's
 * columns, an alias, a generator's or an expand's output). An id introduced twice in one plan
 * is what Spark's analyzer renumbers (DeduplicateRelations): SkippedAnalysis' gate refuses
 * such a plan, and shape/FreshIds gives each copy a subplan's shapes place ids of its own.
 */
private[sparksubstrait] object IntroducedAttributes {
  def of(p: LogicalPlan): Seq[Attribute] = {
    val inputs = p.inputSet
    p.output.filterNot(inputs.contains)
  }
}
