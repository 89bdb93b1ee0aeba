package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions.{Attribute, AttributeSet, Expression, SubqueryExpression}
import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * An inner join with an aggregate on all its grouping keys, on top of a chain of inner joins,
 * moved down the chain's left inputs to the lowest join whose output holds the columns its
 * condition needs: where Spark's optimizer places the SQL's decorrelated scalar subquery.
 * DataFusion writes TPC-H Q2's `ps_supplycost = (SELECT min(ps_supplycost) … WHERE p_partkey =
 * ps_partkey)` as a join with the per-part minimum above the whole part ⋈ partsupp ⋈ supplier ⋈
 * nation ⋈ region chain, which Spark plans as written: the shuffle for that join waits for every
 * dimension's broadcast (1.15–1.23x its SQL at SF 1); the SQL's plan joins the minimum right
 * after part ⋈ partsupp, a stage that waits only for part's.
 *
 * Each row of the chain meets at most one row of the aggregate (its groups are distinct on the
 * keys the condition equates, [[SemiJoinOnAggregate.onAllKeys]]), so the join only removes rows:
 * moving it earlier never makes a later join's input larger. Rows are the same: inner joins
 * are associative and the condition needs only columns present where it lands; the columns keep
 * their order (a projection on top) and pruning projections on the way pass the aggregate's on.
 * Only a join that also compares a value of the aggregate (`ps_supplycost = min(…)`): that is a
 * decorrelated scalar subquery, which SQL writes in its WHERE and Spark's optimizer pushes to
 * where its columns meet. A join on the keys alone is a join of the query's FROM list (or its
 * `IN`, [[SemiJoinAsIn]]), which Spark's plan for the SQL joins in the list's order: DataFusion
 * writes TPC-DS q64's `store_sales, store_returns, cs_ui, …` (`cs_ui` an aggregate on the item)
 * with `cs_ui` third; moved onto `store_sales` alone it made a sort-merge join shuffling all
 * 2.9 million rows, where the SQL's plan first broadcast-joins `store_returns` and shuffles the
 * 262 thousand rows left (1.4x).
 *
 * Joins with hints, conditions that are non-deterministic or hold subqueries, and projections
 * that compute or rename stop the descent; so does another join of this kind: two aggregates
 * joined on one key to the same chain (TPC-DS q83 as DataFusion writes it) would otherwise
 * trade places forever, each moved below the other as the rewrite descends into its result.
 */
private[sparksubstrait] object AggregateJoinEarly extends PlanShapes.Shape {
  val name = "aggregate-join-early"
  val meaning =
    "an inner join with an aggregate on all its grouping keys (at most one match per row) moved down the join chain to where its columns first meet, as Spark places the SQL's decorrelated subquery"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.writesOptimizedPlans

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = plan.transformDownWithSubqueries {
    case j @ Join(left, right, Inner, Some(condition), JoinHint.NONE)
        if movable(j) && SemiJoinOnAggregate.onAllKeys(left, right, condition).exists(_.others.nonEmpty) =>
      val needed = condition.references -- right.outputSet
      below(left, needed, right, condition).map(moved => Project(j.output, moved)).getOrElse(j)
  }

  private def movable(p: LogicalPlan): Boolean = p match {
    case j @ Join(_, _, Inner, condition, JoinHint.NONE) =>
      j.resolved && condition.forall(c => c.deterministic && !SubqueryExpression.hasSubquery(c))
    case _ => false
  }

  /** A join of this rule's kind: an aggregate joined on all its keys (already as early as the rule would put it). */
  private def atMostOneMatch(j: Join): Boolean =
    j.condition.exists(c => SemiJoinOnAggregate.onAllKeys(j.left, j.right, c).isDefined)

  /**
   * `chain` with `right` joined on `condition` below its top join, as low on the left inputs as
   * the `needed` columns allow; None when they are not all in the top join's left input.
   */
  private def below(chain: LogicalPlan, needed: AttributeSet, right: LogicalPlan, condition: Expression)
    : Option[LogicalPlan] =
    chain match {
      case j: Join if movable(j) && needed.subsetOf(j.left.outputSet) && !atMostOneMatch(j) =>
        val joined =
          below(j.left, needed, right, condition).getOrElse(Join(j.left, right, Inner, Some(condition), JoinHint.NONE))
        Some(j.copy(left = joined))
      case Project(list, child) if list.forall(_.isInstanceOf[Attribute]) =>
        below(child, needed, right, condition).map(moved => Project(list ++ right.output, moved))
      case _ => None
    }
}
