package io.sparksubstrait.convert.rel

import scala.collection.mutable

import io.sparksubstrait.proto.{PlanRel, ReferenceRel}
import org.apache.spark.sql.catalyst.expressions.{Alias, Literal, Rand}
import org.apache.spark.sql.catalyst.plans.logical.{CTERelationDef, CTERelationRef, LogicalPlan, Project, WithCTE}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Subtrees defined once in `Plan.relations` and referenced by ReferenceRel. Each becomes
 * one Catalyst CTE definition, converted once, and every reference a CTE reference to it.
 *
 * Computed once per query: Spark's optimizer (InlineCTE) inlines every CTE whose definition
 * is deterministic, after which each copy is optimized on its own (filters and column
 * pruning pushed in differently) and the subtree runs once per reference. It keeps a
 * non-deterministic CTE as one definition, planned as one shuffle that every reference
 * reuses. So each definition carries one non-deterministic column, [[SharedMarker]], that no
 * reference reads: InlineCTE sees a non-deterministic definition and keeps it shared, then
 * column pruning drops the unread column, so the rows and the plan below are unchanged.
 *
 * Lives for one conversion only: the memo is per plan, never shared between plans.
 */
private[sparksubstrait] final class SharedSubtrees(relations: Seq[PlanRel]) {
  private val definitions = mutable.LinkedHashMap.empty[Int, CTERelationDef]
  private val inProgress = mutable.Set.empty[Int]
  // Every definition, ReferenceRel's and read(...)'s, in the order they were completed.
  private val completed = mutable.ArrayBuffer.empty[CTERelationDef]

  def reference(ref: ReferenceRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val ordinal = ref.getSubtreeOrdinal
    if (ordinal < 0 || ordinal >= relations.size) {
      throw SubstraitErrors.invalidPlan(at / "subtree_ordinal", s"subtree ordinal $ordinal",
        s"an index into the plan's ${relations.size} relations")
    }
    if (inProgress(ordinal)) {
      throw SubstraitErrors.invalidPlan(at / "subtree_ordinal",
        s"a reference to relations[$ordinal] from inside itself",
        "references that form no cycle")
    }
    val definition = definitions.getOrElse(ordinal, define(ordinal))
    val use = CTERelationRef(definition.id, _resolved = true, output = definition.output.map(_.newInstance()),
      isStreaming = false)
    Project(use.output.init, use)
  }

  private def define(ordinal: Int)(implicit ctx: ConversionContext): CTERelationDef = {
    val planRel = relations(ordinal)
    val relAt = PlanPath.root.at("relations", ordinal)
    val rel = planRel.getRelTypeCase match {
      case PlanRel.RelTypeCase.REL => planRel.getRel
      case PlanRel.RelTypeCase.ROOT => planRel.getRoot.getInput
      case _ => throw SubstraitErrors.missingField(relAt, "rel_type", "a relation to reference")
    }
    inProgress += ordinal
    val child = try RelConverter.convert(rel, if (planRel.hasRel) relAt / "rel" else relAt / "root" / "input")
    finally inProgress -= ordinal
    val definition = CTERelationDef(Project(child.output :+ Alias(Rand(Literal(0L)), SharedMarker)(), child))
    // Completed definitions come after the ones they use: the order WithCTE needs.
    definitions += ordinal -> definition
    completed += definition
    definition
  }

  /**
   * `plan` read by several branches of one conversion's result (a UNION of one aggregate per
   * grouping set): one CTE definition, and a reference with `plan`'s own output that each
   * branch reads. Spark's analyzer then renews a reference's columns where two branches meet
   * (a leaf), instead of renumbering a copy of the whole subtree, which loses columns below a
   * window (`ROLLUP` over a window's result: MISSING_ATTRIBUTES, TPC-DS q70). Deterministic, so
   * Spark's optimizer inlines it into each branch: the plan that runs is the copies' plan.
   */
  def readTwice(plan: LogicalPlan): LogicalPlan = {
    val definition = CTERelationDef(plan)
    completed += definition
    CTERelationRef(definition.id, _resolved = true, output = plan.output, isStreaming = false)
  }

  /** The name of the unread non-deterministic column that keeps a definition shared. */
  val SharedMarker = "__substrait_shared"

  /** The root plan with the definitions it uses, if any. */
  def wrap(plan: LogicalPlan): LogicalPlan =
    if (completed.isEmpty) plan else WithCTE(plan, completed.toSeq)
}
