package io.sparksubstrait.convert.shape

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, AttributeSet, EqualTo, Expression, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.{Inner, LeftSemi}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.plan.readings.ProducerStamp

/**
 * A semi join whose right input is an aggregate, on equalities covering all its grouping
 * keys, as the inner join it is. Each left row then has at most one matching right row (an
 * aggregate's groups are distinct on their keys), so the semi join keeps exactly the left
 * rows an inner join pairs, once each. DataFusion decorrelates TPC-H Q20's scalar subquery
 * itself into such a semi join; Spark, given the inner join the SQL's subquery becomes,
 * pushes the query's other semi join (`p_name LIKE 'forest%'`) below the aggregation so
 * that it sums far fewer rows, and does not through a semi join (2x, docs/performance.md).
 *
 * Only keys whose equality is their grouping's identity qualify: integers, decimals,
 * dates, timestamps, booleans and strings of the default collation (floating point keys and
 * collations group values that compare otherwise in corner cases; they stay a semi join).
 */
object SemiJoinOnGroupKeys extends PlanShapes.Shape with PredicateHelper {
  val name = "semi-join-on-group-keys"
  val meaning = "a semi join on all grouping keys of an aggregate as an inner join (at most one match per row)"

  // Any producer: a semi join on an aggregate's keys is never the shape of a query as written.
  def appliesTo(stamp: ProducerStamp): Boolean = true

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = plan.transformUpWithSubqueries {
    case j @ Join(left, right, LeftSemi, Some(condition), JoinHint.NONE) if j.resolved && condition.deterministic =>
      groupKeys(right) match {
        case Some(keys) if keys.nonEmpty && keys.subsetOf(equatedWithLeft(condition, left.outputSet, keys)) =>
          Project(left.output, Join(left, right, Inner, Some(condition), JoinHint.NONE))
        case _ => j
      }
  }

  /** The right columns each equated with an expression of the left columns alone. */
  private def equatedWithLeft(condition: Expression, leftColumns: AttributeSet, keys: AttributeSet): AttributeSet =
    AttributeSet(splitConjunctivePredicates(condition).flatMap {
      case EqualTo(a: Attribute, e) if keys.contains(a) && e.references.subsetOf(leftColumns) && e.references.nonEmpty => Some(a)
      case EqualTo(e, a: Attribute) if keys.contains(a) && e.references.subsetOf(leftColumns) && e.references.nonEmpty => Some(a)
      case _ => None
    })

  /**
   * The output columns on which `p`'s rows are distinct: an aggregate's grouping keys that
   * it outputs, through filters and projections that pass them on. None when unknown.
   */
  private[shape] def groupKeys(p: LogicalPlan): Option[AttributeSet] = p match {
    case a: Aggregate if a.groupingExpressions.nonEmpty && a.groupingExpressions.forall(g => PlanShapes.exactEquality(g.dataType)) =>
      val keys = a.groupingExpressions.map { g =>
        a.aggregateExpressions.collectFirst {
          case attr: Attribute if attr.semanticEquals(g) => attr
          case al @ Alias(child, _) if child.semanticEquals(g) => al.toAttribute
        }
      }
      if (keys.forall(_.isDefined)) Some(AttributeSet(keys.flatten)) else None
    case Filter(_, child) => groupKeys(child)
    case Project(list, child) =>
      groupKeys(child).filter(k => k.subsetOf(AttributeSet(list.collect { case a: Attribute => a })))
    case _ => None
  }
}
