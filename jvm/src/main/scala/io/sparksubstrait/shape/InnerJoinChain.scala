package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions.{And, Attribute, Expression, PredicateHelper, SubqueryExpression}
import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{Filter, Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * A tree of inner joins whose right input is an inner join of small inputs, given to Spark as
 * SQL's `FROM a, b, c WHERE …` would be: joined left-deep in the plan's order of inputs, the
 * conditions in a filter above. Without cost-based optimization Spark sizes a join as the
 * product of its inputs, so a join on the right is never broadcast, even of two small tables:
 * DuckDB's TPC-H Q11 joins `partsupp` with (`supplier` ⋈ `nation`), which Spark plans as two
 * sort-merge joins shuffling `partsupp`, where the SQL's `partsupp ⋈ supplier` broadcasts
 * `supplier`. Spark's optimizer reorders and places conditions only in left-deep chains
 * (ReorderJoin), in the chain's order of inputs.
 *
 * Only a right input whose every input Spark would broadcast on its own (its estimated size
 * within `spark.sql.autoBroadcastJoinThreshold`) is joined into the chain: a right input
 * holding a large table (DuckDB's Q8: `orders` ⋈ (`lineitem` ⋈ `part`)) stays as written,
 * since the chain's order would join the large table before the small one that filters it.
 *
 * Rows are the same: inner joins are associative and an inner join's condition is a filter
 * of its output; the columns keep their order (inputs in the plan's order) and a projection
 * that only drops columns between two joins moves above them. Joins with hints, conditions
 * that are non-deterministic or hold subqueries, and projections that compute or rename
 * stop the chain (they stay as written, as inputs of it).
 */
private[sparksubstrait] object InnerJoinChain extends PlanShapes.Shape with PredicateHelper {
  val name = "inner-join-chain"
  val meaning =
    "inner joins with a join of small inputs as right input joined left-deep, conditions in a filter above, so that Spark orders and broadcasts them as for SQL"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.writesOptimizedPlans

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = {
    val threshold = conf.autoBroadcastJoinThreshold
    // Without broadcasts (a threshold below 0) there is nothing to gain.
    if (threshold < 0) plan
    else {
      val chains = new Chains(threshold)
      plan.transformDownWithSubqueries {
        case top if chains.isChainJoin(top) && chains.hasSmallRightJoin(top) =>
          val chain = chains.flatten(top)
          val joined = chain.inputs.reduceLeft((l, r) => Join(l, r, Inner, None, JoinHint.NONE))
          val filtered = if (chain.conditions.isEmpty) joined else Filter(chain.conditions.reduce(And), joined)
          if (filtered.output == chain.output) filtered else Project(chain.output, filtered)
      }
    }
  }

  /** The inputs of a chain in order, its conditions, and the columns it outputs. */
  private final case class Chain(inputs: Seq[LogicalPlan], conditions: Seq[Expression], output: Seq[Attribute])

  private final class Chains(threshold: Long) {
    def isChainJoin(p: LogicalPlan): Boolean = p match {
      case j @ Join(_, _, Inner, condition, JoinHint.NONE) if j.resolved =>
        condition.forall(c => c.deterministic && !SubqueryExpression.hasSubquery(c))
      case _ => false
    }

    /** A projection that only passes on some of a chain's columns, over a chain join. */
    private def isPruningOverJoin(p: LogicalPlan): Boolean = p match {
      case PlanShapes.PruningProject(child) => isChainJoin(child)
      case _ => false
    }

    /** A join (or pruning projection over one) on the right whose every input Spark would broadcast. */
    private def joinsIntoChain(right: LogicalPlan): Boolean =
      (isChainJoin(right) || isPruningOverJoin(right)) && flatten(right).inputs.forall(small)

    private def small(p: LogicalPlan): Boolean =
      scala.util.Try(p.stats.sizeInBytes <= BigInt(threshold)).getOrElse(false)

    def hasSmallRightJoin(p: LogicalPlan): Boolean = p match {
      case j: Join if isChainJoin(j) =>
        joinsIntoChain(j.right) || hasSmallRightJoin(j.left) ||
        (isPruningOverJoin(j.left) && hasSmallRightJoin(j.left.children.head))
      case _ => false
    }

    /** The chain: left inputs always, a right input's own inputs only where it joins into the chain. */
    def flatten(p: LogicalPlan): Chain = p match {
      case j: Join if isChainJoin(j) =>
        val l = flatten(j.left)
        val r = if (joinsIntoChain(j.right)) flatten(j.right) else Chain(Seq(j.right), Nil, j.right.output)
        Chain(l.inputs ++ r.inputs,
          l.conditions ++ r.conditions ++ j.condition.toSeq.flatMap(splitConjunctivePredicates), l.output ++ r.output)
      case Project(list, child) if isPruningOverJoin(p) =>
        flatten(child).copy(output = list.map(_.asInstanceOf[Attribute]))
      case other => Chain(Seq(other), Nil, other.output)
    }
  }
}
