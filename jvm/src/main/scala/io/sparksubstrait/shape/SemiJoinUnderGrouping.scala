package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Max, Min}
import org.apache.spark.sql.catalyst.plans.{Inner, LeftSemi}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.decode.readings.ProducerStamp
import io.sparksubstrait.util.Options

/**
 * A semi join on key equalities below an aggregate that only groups, as an inner join with the
 * right input's distinct keys, or with the right input itself when the left is small enough to
 * broadcast. DataFusion turns the inner joins of a query that only groups
 * (TPC-DS Q37 and Q82: `… FROM item, inventory, date_dim, catalog_sales|store_sales … GROUP BY
 * i_item_id, …`) into semi joins, its rows being the same once grouped. Spark builds a semi
 * join's hash table on its right input only, so the sales table on the right is shuffled whole
 * (1.2-1.4x the SQL's time), where the SQL's inner join streams it past the few items. An inner
 * join may build either side, and the right input's distinct keys are a partial aggregation in
 * the scan's stage (a sales table's item keys: thousands of rows, not millions).
 *
 * The same rows: each left row meets at most one of the right's distinct keys (equality on
 * types whose `=` is their grouping's identity, [[PlanShapes.exactEquality]]), so the inner join
 * keeps exactly the left rows the semi join keeps, once each; the aggregate above is not even
 * needed for that, it only says the query did not ask for the semi join's shape. With the right
 * input itself a left row meets each of its matches, duplicated as often: the aggregate above,
 * which only groups or takes max, min or DISTINCT, gives the same groups and values. Only through
 * operators that keep or drop whole rows (deterministic projections and filters, inner joins,
 * the left side of semi joins), and only with the condition's equalities alone.
 */
private[sparksubstrait] object SemiJoinUnderGrouping extends PlanShapes.Shape with PredicateHelper {
  val name = "semi-join-under-grouping"
  val meaning =
    "a semi join on key equalities below an aggregate that only groups as an inner join with the right input's distinct keys (with the right input itself when the left is broadcastable), so that Spark may build either side"

  def appliesTo(stamp: ProducerStamp): Boolean = true

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = plan.transformDownWithSubqueries {
    case a: Aggregate if onlyGroups(a) =>
      val child = below(a.child, conf)
      if (child eq a.child) a else a.withNewChildren(Seq(child))
  }

  /** Grouping keys and max/min (or DISTINCT aggregates) only: duplicated rows give the same groups and values. */
  private def onlyGroups(
    a: Aggregate): Boolean = (a.groupingExpressions ++ a.aggregateExpressions).forall(_.deterministic) &&
    a.aggregateExpressions.forall(_.collect { case ae: AggregateExpression => ae }.forall { ae =>
      ae.filter.isEmpty &&
      (ae.isDistinct || ae.aggregateFunction.isInstanceOf[Max] ||
        ae.aggregateFunction.isInstanceOf[Min])
    })

  private def below(p: LogicalPlan, conf: SQLConf): LogicalPlan = p match {
    case Project(list, child) if list.forall(_.deterministic) => keep(p, below(child, conf))
    case Filter(condition, child) if condition.deterministic && !SubqueryExpression.hasSubquery(condition) =>
      keep(p, below(child, conf))
    case j @ Join(left, right, Inner, condition, JoinHint.NONE) if condition.forall(_.deterministic) =>
      val (l, r) = (below(left, conf), below(right, conf))
      if ((l eq left) && (r eq right)) j else j.copy(left = l, right = r)
    case j @ Join(left, right, LeftSemi, Some(condition), JoinHint.NONE) if j.resolved && condition.deterministic =>
      val l = below(left, conf)
      keyEqualities(condition, l.outputSet, right.outputSet) match {
        case Some(keys) if l.outputSet.intersect(right.outputSet).isEmpty =>
          val joined = if (broadcastable(l, conf)) right else Aggregate(keys, keys, right)
          Project(l.output, Join(l, joined, Inner, Some(condition), JoinHint.NONE))
        case _ => if (l eq left) j else j.copy(left = l)
      }
    case other => other
  }

  /**
   * Whether Spark will broadcast `kept` by its size estimate (no statistics of filters or joins:
   * the files' size). Then the inner join takes the right input as it is, the query's own join
   * (TPC-DS Q54's `customer` with the sales of a category, whose DISTINCT above removes the
   * duplicates): `kept` is broadcast and the right input streamed past it, as Spark plans the
   * SQL. The right's distinct keys there would be a shuffle partitioned on the join keys, which
   * the joins above keep, so the grouping above (Q54's `my_customers`) would need no exchange of
   * its own, and adaptive execution, which broadcasts a join's side only once a stage has
   * measured it, would never see that small result alone (1.19x the SQL's time).
   */
  private def broadcastable(kept: LogicalPlan, conf: SQLConf): Boolean = {
    val threshold = conf.autoBroadcastJoinThreshold
    // A leaf without statistics (a user's relation extension) throws instead: distinct keys then.
    threshold > 0 && scala.util.Try(kept.stats.sizeInBytes).toOption.exists(_ <= BigInt(threshold))
  }

  private def keep(p: LogicalPlan, child: LogicalPlan): LogicalPlan =
    if (child eq p.children.head) p else p.withNewChildren(Seq(child))

  /** The right input's key columns, when every conjunct is `left expression = right column` of an exact type. */
  private def keyEqualities(condition: Expression, leftColumns: AttributeSet, rightColumns: AttributeSet)
    : Option[Seq[Attribute]] = {
    val keys =
      splitConjunctivePredicates(condition).map(SemiJoinOnAggregate.keyEquality(_, leftColumns, rightColumns).map(_._2))
    Options.when(keys.forall(_.exists(k => PlanShapes.exactEquality(k.dataType))))(keys.flatten.distinct)
  }
}
