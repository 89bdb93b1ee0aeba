package io.sparksubstrait.convert.expr

import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, AttributeMap, Exists, Expression => CExpression, LateralSubquery, ListQuery, OuterReference,
  ScalarSubquery, SubqueryExpression
}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}

/**
 * Outer references more than one query out (`steps_out` 2 or more: DataFusion writes one
 * for `d.budget` in `EXISTS (… e … EXISTS (… x.code > d.budget))`). Spark resolves an outer
 * reference against the immediately enclosing query only, but (Spark 4) lets a subquery's
 * projection hold one. So the outer column is carried in: below the relation that holds the
 * inner subquery, a projection appends it (an outer reference one level out, as Spark takes
 * it), and the inner subquery references that column instead, one level out. Each level
 * carries it one step, so any depth becomes a chain of one-level references, which Spark
 * decorrelates as it does SQL's. The appended column is constant per outer row, so no row
 * changes; a projection above drops it again where the relation would pass it on.
 */
private[sparksubstrait] object NestedOuterReferences {

  /**
   * `plan`, a subquery's (or lateral right input's) converted relation, with the references
   * its own subqueries make to columns beyond the relation holding them carried into that
   * relation. Called as each subquery's relation is converted, innermost first, so a
   * subquery's own deeper references are already at its own level.
   */
  def carried(plan: LogicalPlan): LogicalPlan = plan.transformUp {
    case holder if farReferences(holder).nonEmpty => carry(holder, farReferences(holder))
  }

  /** The outer references a relation's subqueries make (at their own level) to columns its inputs do not have. */
  private def farReferences(holder: LogicalPlan): Seq[Attribute] = {
    val inputs = holder.children.flatMap(_.output).map(_.exprId).toSet
    if (holder.children.isEmpty) Nil
    else holder.expressions.flatMap(_.collect { case s: SubqueryExpression => ownLevel(s.plan) }).flatten
      .filterNot(a => inputs(a.exprId)).distinct
  }

  /** The outer references of `plan`'s own operators (not of subqueries nested in them). */
  private def ownLevel(plan: LogicalPlan): Seq[Attribute] =
    plan.flatMap(_.expressions.flatMap(_.collect { case OuterReference(a: Attribute) => a })).distinct

  private def carry(holder: LogicalPlan, far: Seq[Attribute]): LogicalPlan = {
    val first = holder.children.head
    val columns = far.map(a => Alias(OuterReference(a), a.name)())
    val carrying = Project(first.output ++ columns, first)
    val byOuter = AttributeMap(far.zip(columns.map(_.toAttribute)))
    val rewired = holder.withNewChildren(carrying +: holder.children.tail).transformExpressions {
      case s: SubqueryExpression => referencing(s, byOuter)
    }
    if (rewired.output.map(_.exprId) == holder.output.map(_.exprId)) rewired else Project(holder.output, rewired)
  }

  /** `s` with its own level's references to the carried columns rewired to them, and its outer attributes anew. */
  private def referencing(s: SubqueryExpression, byOuter: AttributeMap[Attribute]): CExpression = {
    val plan = s.plan.transform {
      case node => node.transformExpressions {
          case OuterReference(a: Attribute) if byOuter.contains(a) => OuterReference(byOuter(a))
        }
    }
    val outer: Seq[CExpression] = ownLevel(plan)
    s match {
      case e: Exists => e.copy(plan = plan, outerAttrs = outer)
      case e: ScalarSubquery => e.copy(plan = plan, outerAttrs = outer)
      case e: ListQuery => e.copy(plan = plan, outerAttrs = outer)
      case e: LateralSubquery => e.copy(plan = plan, outerAttrs = outer)
      case other => other
    }
  }
}
