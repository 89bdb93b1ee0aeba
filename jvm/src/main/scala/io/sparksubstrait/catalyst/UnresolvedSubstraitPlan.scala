package io.sparksubstrait.catalyst

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LeafNode

import io.sparksubstrait.decode.DecodedPlan

/**
 * A Substrait plan waiting to be converted. [[ResolveSubstraitPlans]] replaces it with
 * ordinary Catalyst operators during analysis, so no node of ours reaches the optimizer.
 */
private[sparksubstrait] final case class UnresolvedSubstraitPlan(plan: DecodedPlan, rootIndex: Option[Int] = None)
    extends LeafNode {
  override lazy val resolved: Boolean = false
  override def output: Seq[Attribute] = Nil
  override def simpleString(maxFields: Int): String =
    s"UnresolvedSubstraitPlan(producer=${plan.proto.getVersion.getProducer}, relations=${plan.proto.getRelationsCount}" +
      (if (plan.readings.isEmpty) ")" else s", readings=${plan.readings.map(_.name).mkString("[", ", ", "]")})")
}
