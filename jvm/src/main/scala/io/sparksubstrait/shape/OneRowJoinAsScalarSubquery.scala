package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, Expression, KnownNotNull, NamedExpression, OuterReference, SubqueryExpression
}
import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * An inner join one of whose inputs is an aggregate without grouping keys, as the scalar
 * subqueries SQL writes: `L ⋈ (SELECT max(x) AS m FROM R) ON l = m` is `L WHERE l = (SELECT
 * max(x) FROM R)`. DuckDB decorrelates TPC-H Q15's `total_revenue = (SELECT max(total_revenue)
 * …)` into such a join (on `first(max(…))`); Spark plans the join as a broadcast of the one row
 * after a stage of its own (1.13x the SQL's time), the subquery as a value the filter compares
 * with, which is what it does for the SQL.
 *
 * The same rows: an aggregate without grouping keys has exactly one row, also of an empty input
 * (Spark's and the spec's global aggregate), so the inner join keeps a row of the other input
 * when the condition (if any) holds with that row's values, which is the filter with each of its columns
 * replaced by the scalar subquery of it; its columns stay in the output as those values. Only
 * through projections (a filter may leave no row) and only for a side with no outer reference
 * (a scalar subquery inside a correlated subquery is not one Spark plans the same), and not
 * where every input of the join is one row ([[onlyOneRows]]).
 */
private[sparksubstrait] object OneRowJoinAsScalarSubquery extends PlanShapes.Shape {
  val name = "one-row-join-as-scalar-subquery"
  val meaning =
    "an inner or cross join with an aggregate without grouping keys (one row) as the scalar subquery SQL writes, a filter on its value"

  // Any producer: a query as written says a scalar subquery; a join of a one-row aggregate is a decorrelation's.
  def appliesTo(stamp: ProducerStamp): Boolean = true

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = {
    val onlyOneRows = new OnlyOneRows
    plan.transformUpWithSubqueries {
      case j @ Join(left, right, Inner, condition, JoinHint.NONE)
          if j.resolved && condition.forall(_.deterministic) &&
            (oneRow(right) || oneRow(left)) && !(onlyOneRows(left) && onlyOneRows(right)) =>
        val rightIsOneRow = oneRow(right)
        val (other, single) = if (rightIsOneRow) (left, right) else (right, left)
        // One scalar subquery per use of a column of the one row, each a copy with ids of its
        // own (FreshIds); Spark reuses the identical subquery plans.
        def value(a: Attribute): Expression = {
          val copy = FreshIds.copyOf(single)
          val scalar = SparkShim.scalarSubquery(Project(Seq(copy(a)), copy.plan), Nil)
          if (a.nullable) scalar else KnownNotNull(scalar)
        }
        val filtered = condition.fold(other) { c =>
          Filter(c.transform { case a: Attribute if single.outputSet.contains(a) => value(a) }, other)
        }
        val singleColumns: Seq[NamedExpression] =
          single.output.map(a => Alias(value(a), a.name)(exprId = a.exprId, qualifier = a.qualifier))
        Project(if (rightIsOneRow) other.output ++ singleColumns else singleColumns ++ other.output, filtered)
    }
  }

  /** Exactly one row: an aggregate without grouping keys, through projections, with no outer reference. */
  private def oneRow(p: LogicalPlan): Boolean = {
    def global(q: LogicalPlan): Boolean = q match {
      case a: Aggregate => a.groupingExpressions.isEmpty
      case Project(_, child) => global(child)
      case _ => false
    }
    global(p) && !correlated(p)
  }

  /**
   * A join of one-row inputs only, through projections: SQL's FROM list of one-row derived
   * tables (TPC-DS q28's six `(SELECT avg(…), count(…) …) B1, B2, …`), whose plan is that
   * join, not a filter of another relation by a scalar subquery. Made scalar subqueries, each
   * level's would hold copies of the levels below (q28 read 10 scans of store_sales for 6).
   * Remembered per node (by identity), so that a deep chain of joins is walked once.
   */
  private final class OnlyOneRows {
    private val known = new java.util.IdentityHashMap[LogicalPlan, java.lang.Boolean]()

    def apply(p: LogicalPlan): Boolean = {
      val cached = known.get(p)
      if (cached != null) cached.booleanValue
      else {
        val answer = p match {
          case Project(_, child) => apply(child)
          case Join(l, r, Inner, _, _) => apply(l) && apply(r)
          case _ => oneRow(p)
        }
        known.put(p, answer)
        answer
      }
    }
  }

  private def correlated(p: LogicalPlan): Boolean = p.exists(node =>
    node.expressions.exists(_.exists {
      case _: OuterReference => true
      case s: SubqueryExpression => s.children.nonEmpty || correlated(s.plan) // children: its outer references
      case _ => false
    }))
}
