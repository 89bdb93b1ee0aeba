package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, EqualTo, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.{Inner, LeftSemi}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * An inner join of a query with an aggregate on a grouping key, where the query's rows
 * already passed a semi join on that key: the same semi join, on the key, below the
 * aggregate. It is how Spark SQL plans TPC-H Q20's correlated subquery (its decorrelation
 * joins the subquery with the outer query's keys, which carry `p_name LIKE 'forest%'`), so
 * the aggregate sums the few rows that can match instead of all of them; a plan that
 * decorrelated the subquery itself (DataFusion) states the aggregate over all rows.
 *
 * Rows are the same: every group shares its key, so the semi join removes whole groups, and
 * only those no query row can pair with — a query row's key passed the same semi join, and
 * the join requires the group's key to equal it (a NULL key pairs with nothing either way).
 * The query side is followed only through filters, projections passing the key on, inner
 * joins and the kept side of semi joins, where the key's value is the one that passed.
 */
private[sparksubstrait] object SemiJoinBelowAggregate extends PlanShapes.Shape with PredicateHelper {
  val name = "semi-join-below-aggregate"
  val meaning = "a semi join the query's rows passed on a grouping key repeated below the aggregate joined on that key"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.writesOptimizedPlans

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = plan.transformUpWithSubqueries {
    case j @ Join(left, right, Inner, Some(condition), JoinHint.NONE) if j.resolved && condition.deterministic =>
      val pairs = splitConjunctivePredicates(condition).collect {
        case EqualTo(a: Attribute, b: Attribute) => Seq(a -> b, b -> a)
      }.flatten
      val transferred = pairs.iterator.flatMap { case (queryKey, groupKey) =>
        if (!left.outputSet.contains(queryKey) || !right.outputSet.contains(groupKey)) None
        else semiJoinOn(left, queryKey).flatMap { case (filterSide, filterKey) =>
          withSemiJoin(right, groupKey, filterSide, filterKey)
        }
      }
      if (transferred.hasNext) j.copy(right = transferred.next()) else j
  }

  /**
   * A semi join in `query` that every row's `key` passed: its filtering side and the
   * filtering side's column the key was equated with.
   */
  private def semiJoinOn(query: LogicalPlan, key: Attribute): Option[(LogicalPlan, Attribute)] = query match {
    case Join(kept, filter, LeftSemi, Some(EqualTo(a: Attribute, b: Attribute)), JoinHint.NONE)
        if kept.outputSet.contains(key) && deterministic(filter) =>
      if (a.exprId == key.exprId && filter.outputSet.contains(b)) Some(filter -> b)
      else if (b.exprId == key.exprId && filter.outputSet.contains(a)) Some(filter -> a)
      else semiJoinOn(kept, key)
    case Join(kept, _, LeftSemi, _, _) if kept.outputSet.contains(key) => semiJoinOn(kept, key)
    case Join(l, r, Inner, _, _) =>
      if (l.outputSet.contains(key)) semiJoinOn(l, key) else if (r.outputSet.contains(key)) semiJoinOn(r, key) else None
    case Filter(_, child) => semiJoinOn(child, key)
    case Project(list, child) if list.exists(_.exprId == key.exprId) && list.collect { case a: Attribute =>
          a
        }.exists(_.exprId == key.exprId) =>
      semiJoinOn(child, key)
    case _ => None
  }

  /** `groups` with the semi join below its aggregate, when `key` is one of its grouping columns. */
  private def withSemiJoin(groups: LogicalPlan, key: Attribute, filter: LogicalPlan, filterKey: Attribute)
    : Option[LogicalPlan] =
    groups match {
      case f @ Filter(_, child) => withSemiJoin(child, key, filter, filterKey).map(c => f.copy(child = c))
      case p @ Project(list, child) if list.exists { case a: Attribute => a.exprId == key.exprId; case _ => false } =>
        withSemiJoin(child, key, filter, filterKey).map(c => p.copy(child = c))
      case a: Aggregate =>
        groupingColumn(a, key).filter(g => g.dataType == filterKey.dataType && exactKey(g)).map { g =>
          // The filtering side placed a second time: a copy with ids of its own (FreshIds).
          val copy = FreshIds.copyOf(filter)
          a.withNewChildren(Seq(Join(a.child, copy.plan, LeftSemi, Some(EqualTo(g, copy(filterKey))), JoinHint.NONE)))
        }
      case _ => None
    }

  /** The aggregate input's column that `key`, one of the aggregate's outputs, groups by. */
  private def groupingColumn(a: Aggregate, key: Attribute): Option[Attribute] =
    a.aggregateExpressions.collectFirst {
      case out: Attribute if out.exprId == key.exprId => out
      case al @ Alias(child: Attribute, _) if al.exprId == key.exprId => child
    }.filter(g => a.groupingExpressions.exists(_.semanticEquals(g)) && a.child.outputSet.contains(g))

  private def exactKey(g: Attribute): Boolean = PlanShapes.exactEquality(g.dataType)

  private def deterministic(p: LogicalPlan): Boolean = !p.exists(_.expressions.exists(!_.deterministic))
}
