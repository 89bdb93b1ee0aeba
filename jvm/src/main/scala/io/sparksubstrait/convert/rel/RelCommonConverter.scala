package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.substrait.proto.RelCommon
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/**
 * The properties every relation shares. Emit (direct or remap) is applied here, once, for
 * every relation kind. Hints are advisory by the spec and do not change results;
 * an advanced-extension enhancement changes semantics we cannot know, so it is refused.
 */
object RelCommonConverter {
  def apply(plan: LogicalPlan, common: RelCommon, relAt: PlanPath): LogicalPlan = {
    val at = relAt / "common"
    if (common.hasAdvancedExtension && common.getAdvancedExtension.hasEnhancement) {
      throw SubstraitErrors.unsupported(at / "advanced_extension" / "enhancement",
        s"an enhancement of type ${common.getAdvancedExtension.getEnhancement.getTypeUrl}", "no enhancement")
    }
    common.getEmitKindCase match {
      case RelCommon.EmitKindCase.EMIT =>
        val mapping = common.getEmit.getOutputMappingList.asScala.map(_.intValue).toSeq
        emit(plan, mapping, at / "emit")
      case _ => plan
    }
  }

  /** Selects (and reorders, or repeats) output columns. */
  def emit(plan: LogicalPlan, mapping: Seq[Int], at: PlanPath): LogicalPlan = {
    val output = plan.output
    if (mapping == output.indices) return plan
    val seen = scala.collection.mutable.Set.empty[Attribute]
    val selected: Seq[NamedExpression] = mapping.zipWithIndex.map { case (i, k) =>
      if (i < 0 || i >= output.size) {
        throw SubstraitErrors.fieldReferenceOutOfRange(at.at("output_mapping", k), i, output.size)
      }
      val a = output(i)
      // A column repeated by the mapping gets a new identity: Catalyst needs unique ids.
      if (seen.add(a)) a else Alias(a, a.name)()
    }
    Project(selected, plan)
  }
}
