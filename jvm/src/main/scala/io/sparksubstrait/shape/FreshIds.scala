package io.sparksubstrait.shape

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, AttributeReference, ExprId, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.sparksubstrait.foundation.IntroducedAttributes

/**
 * A copy of a subplan in which every attribute the subplan introduces (a leaf's columns, an
 * alias, a generator's or an expand's output; in its subqueries too) has a new id, and every
 * reference to one follows it; references to attributes from outside keep their ids.
 *
 * A shape that places one subplan twice in a plan (a scalar subquery in a filter and in a
 * projection, a semi join repeated below an aggregate) places a copy: a plan that introduces an
 * id twice is one Spark's analyzer renumbers (DeduplicateRelations), so it could not be marked
 * analyzed (shape/SkippedAnalysis). Spark still reuses identical subqueries and exchanges,
 * which it compares with ids normalised.
 */
private[sparksubstrait] final class FreshIds private (val plan: LogicalPlan, renamed: collection.Map[ExprId, ExprId]) {

  /** The copy's attribute for `a`, one of the original subplan's attributes. */
  def apply(a: Attribute): Attribute = a match {
    case r: AttributeReference => renamed.get(r.exprId).fold[Attribute](r)(r.withExprId)
    case other => other
  }
}

private[sparksubstrait] object FreshIds {
  def copyOf(subplan: LogicalPlan): FreshIds = {
    val renamed = mutable.HashMap.empty[ExprId, ExprId]
    def introduced(p: LogicalPlan): Unit = {
      p.children.foreach(introduced)
      p.subqueries.foreach(introduced)
      IntroducedAttributes.of(p).foreach(a => renamed.getOrElseUpdate(a.exprId, NamedExpression.newExprId))
    }
    introduced(subplan)
    val copy = subplan.transformUpWithSubqueries { case node =>
      node.transformExpressions {
        case r: AttributeReference if renamed.contains(r.exprId) => r.withExprId(renamed(r.exprId))
        case a: Alias if renamed.contains(a.exprId) =>
          a.copy(child = a.child, name = a.name)(
            exprId = renamed(a.exprId), qualifier = a.qualifier, explicitMetadata = a.explicitMetadata,
            nonInheritableMetadataKeys = a.nonInheritableMetadataKeys)
      }
    }
    new FreshIds(copy, renamed)
  }
}
