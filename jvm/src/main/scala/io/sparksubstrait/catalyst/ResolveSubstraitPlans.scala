package io.sparksubstrait.catalyst

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

import io.sparksubstrait.read.ReadPipeline

/** The analyzer rule that turns [[UnresolvedSubstraitPlan]] into a resolved Catalyst plan. */
private[sparksubstrait] final case class ResolveSubstraitPlans(session: SparkSession) extends Rule[LogicalPlan] {
  override def apply(plan: LogicalPlan): LogicalPlan = plan.resolveOperatorsUp {
    case u: UnresolvedSubstraitPlan => ReadPipeline.read(session, u.plan, u.rootIndex)
  }
}
