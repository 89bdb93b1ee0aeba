package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, AttributeSet, EqualTo, Expression, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.LeftSemi
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, Join, JoinHint, LogicalPlan, Project}

import io.sparksubstrait.util.Options

/**
 * A semi join whose right input is an aggregate and whose condition equates expressions of the
 * left columns with every grouping key: what [[SemiJoinAsIn]] (only those equalities) and
 * [[SemiJoinOnGroupKeys]] (with other conditions) rewrite.
 *
 * Only keys whose equality is their grouping's identity qualify: integers, decimals, dates,
 * timestamps, booleans and strings of the default collation (floating point keys and
 * collations group values that compare otherwise in corner cases; they stay a semi join).
 */
private[shape] object SemiJoinOnAggregate extends PredicateHelper {

  /**
   * @param keyEqualities the condition's equalities of a left expression with a key, as (expression, key)
   * @param others        the condition's other conjuncts
   */
  final case class Matched(left: LogicalPlan, right: LogicalPlan, condition: Expression,
    keyEqualities: Seq[(Expression, Attribute)], others: Seq[Expression])

  def unapply(plan: LogicalPlan): Option[Matched] = plan match {
    case j @ Join(left, right, LeftSemi, Some(condition), JoinHint.NONE) if j.resolved && condition.deterministic =>
      onAllKeys(left, right, condition)
    case _ => None
  }

  /**
   * Whether `condition` equates expressions of `left`'s columns with every grouping key of the
   * aggregate `right` is (whatever the join type): then each left row meets at most one right row.
   */
  def onAllKeys(left: LogicalPlan, right: LogicalPlan, condition: Expression): Option[Matched] =
    groupKeys(right).filter(_.nonEmpty).flatMap { keys =>
      val conjuncts = splitConjunctivePredicates(condition).map(c => c -> keyEquality(c, left.outputSet, keys))
      val keyEqualities = conjuncts.flatMap(_._2)
      Options.when(keys.subsetOf(AttributeSet(keyEqualities.map(_._2)))) {
        Matched(left, right, condition, keyEqualities, conjuncts.collect { case (c, None) => c })
      }
    }

  /** `e = k` with `e` an expression of the left columns alone and `k` a grouping key, in either order. */
  def keyEquality(c: Expression, leftColumns: AttributeSet, keys: AttributeSet)
    : Option[(Expression, Attribute)] = {
    def leftOnly(e: Expression) = e.references.nonEmpty && e.references.subsetOf(leftColumns)
    c match {
      case EqualTo(e, k: Attribute) if keys.contains(k) && leftOnly(e) => Some(e -> k)
      case EqualTo(k: Attribute, e) if keys.contains(k) && leftOnly(e) => Some(e -> k)
      case _ => None
    }
  }

  /**
   * The output columns on which `p`'s rows are distinct: an aggregate's grouping keys that
   * it outputs, through filters and projections that pass them on. None when unknown.
   */
  private def groupKeys(p: LogicalPlan): Option[AttributeSet] = p match {
    case a: Aggregate
        if a.groupingExpressions.nonEmpty && a.groupingExpressions.forall(g => PlanShapes.exactEquality(g.dataType)) =>
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
