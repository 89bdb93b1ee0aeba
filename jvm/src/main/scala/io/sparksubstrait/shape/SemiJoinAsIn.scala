package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{Filter, Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * A semi join whose right input is an aggregate, on equalities of left expressions with all its
 * grouping keys and nothing else (no other column of the aggregate), as the `IN` subquery SQL writes:
 * `L WHERE (l1, l2) IN (SELECT k1, k2 FROM R)`. DuckDB and DataFusion decorrelate TPC-H Q18's
 * `o_orderkey IN (SELECT l_orderkey FROM lineitem GROUP BY l_orderkey HAVING …)` into such a
 * semi join. Given the `IN`, Spark's optimizer does what it does for the SQL: it infers the same
 * filter for every column the query equates with the key (Q18's `l_orderkey`) and plans both as
 * semi joins below the other joins, so that the large join sees only matching orders and lines;
 * given the semi join (or the inner join [[SemiJoinOnGroupKeys]] would make of it) only one side
 * is filtered, and Q18 joined all of `lineitem` (1.11–1.28x).
 *
 * The same rows: a left row passes the semi join when some right row's keys equal its values,
 * which is when the `IN` is true; a NULL value or key equals nothing, and a filter drops a NULL
 * `IN` as the semi join drops the row. A semi join with other conditions (a decorrelated scalar
 * subquery, Q20) is left to [[SemiJoinOnGroupKeys]].
 *
 * A semi join over joins that is itself an input of an inner join is not an `IN` but the
 * query's join, where the producer's join order placed it: DataFusion writes TPC-DS q64's
 * `FROM store_sales, store_returns, cs_ui, …` (`cs_ui` an aggregate on the item) as a semi join
 * of `store_sales ⋈ store_returns` with `cs_ui`, inside the chain of inner joins. As an `IN`,
 * Spark pushed it below that join, onto `store_sales` and `store_returns` alone, each then
 * shuffled whole for a sort-merge join (1.4–1.8x its SQL); it becomes the inner join it is,
 * in place (what [[SemiJoinOnGroupKeys]] makes). A semi join directly on a table inside the
 * chain (DuckDB's Q18 on `orders`) is where an `IN` would be pushed, and stays one.
 */
private[sparksubstrait] object SemiJoinAsIn extends PlanShapes.Shape {
  val name = "semi-join-as-in"
  val meaning =
    "a semi join on equalities with all grouping keys of an aggregate, and nothing else, as the IN subquery SQL writes (over joins inside a chain of inner joins: as the inner join it is, in place)"

  // Any producer: a query as written says IN; only a producer's own decorrelation writes this semi join.
  def appliesTo(stamp: ProducerStamp): Boolean = true

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = {
    val chainSemiJoinsJoined = plan.transformDownWithSubqueries {
      case j @ Join(left, right, Inner, _, JoinHint.NONE) => j.withNewChildren(Seq(left, right).map(joinedInChain))
    }
    chainSemiJoinsJoined.transformUpWithSubqueries {
      // Key equalities only: one with an aggregate's value as well (TPC-H Q2's `ps_supplycost = min(…)`,
      // a decorrelated scalar subquery) is SQL's join, which semi-join-on-group-keys makes.
      case SemiJoinOnAggregate(m) if m.others.isEmpty =>
        val (values, keys) = m.keyEqualities.unzip
        Filter(SparkShim.inSubquery(values, Project(keys, m.right), Nil), m.left)
    }
  }

  /** An inner join's input: a semi join of this kind over joins as an inner join (through projections that pass columns on). */
  private def joinedInChain(input: LogicalPlan): LogicalPlan = input match {
    case SemiJoinOnAggregate(m) if m.others.isEmpty && overJoins(m.left) => SemiJoinOnGroupKeys.asInnerJoin(m)
    case p @ PlanShapes.PruningProject(child) =>
      val joined = joinedInChain(child)
      if (joined eq child) p else p.withNewChildren(Seq(joined))
    case other => other
  }

  private def overJoins(p: LogicalPlan): Boolean = p match {
    case _: Join => true
    case PlanShapes.PruningProject(child) => overJoins(child)
    case _ => false
  }
}
