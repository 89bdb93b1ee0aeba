package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * A semi join whose right input is an aggregate, on equalities covering all its grouping
 * keys, as the inner join it is. Each left row then has at most one matching right row (an
 * aggregate's groups are distinct on their keys), so the semi join keeps exactly the left
 * rows an inner join pairs, once each. DataFusion decorrelates TPC-H Q20's scalar subquery
 * itself into such a semi join; Spark, given the inner join the SQL's subquery becomes,
 * pushes the query's other semi join (`p_name LIKE 'forest%'`) below the aggregation so
 * that it sums far fewer rows, and does not through a semi join (2x, docs/performance.md).
 *
 * Only on keys whose equality is their grouping's identity ([[SemiJoinOnAggregate]]); a semi
 * join on those equalities alone is [[SemiJoinAsIn]]'s, which comes first.
 */
private[sparksubstrait] object SemiJoinOnGroupKeys extends PlanShapes.Shape {
  val name = "semi-join-on-group-keys"
  val meaning = "a semi join on all grouping keys of an aggregate as an inner join (at most one match per row)"

  // Any producer: a semi join on an aggregate's keys is never the shape of a query as written.
  def appliesTo(stamp: ProducerStamp): Boolean = true

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = plan.transformUpWithSubqueries {
    case SemiJoinOnAggregate(m) => asInnerJoin(m)
  }

  /** The semi join as the inner join, keeping the left columns. */
  private[shape] def asInnerJoin(m: SemiJoinOnAggregate.Matched): LogicalPlan =
    Project(m.left.output, Join(m.left, m.right, Inner, Some(m.condition), JoinHint.NONE))
}
