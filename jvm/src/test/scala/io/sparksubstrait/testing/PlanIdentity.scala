package io.sparksubstrait.testing

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.catalyst.expressions.{
  Add, Alias, And, Attribute, Cast, EqualNullSafe, EqualTo, Expression, Or, GreaterThan, GreaterThanOrEqual, LessThan,
  LessThanOrEqual, Multiply, SortOrder
}
import org.apache.spark.sql.catalyst.plans.logical.{
  Aggregate, GlobalLimit, Join, LeafNode, LocalLimit, LogicalPlan, Project
}

/**
 * Whether a converted plan optimizes to the same Catalyst plan as the SQL text of the same
 * query. Noise is normalised away: expression ids and alias names (Catalyst's own
 * `canonicalized` form) and a final projection that only renames the output columns (a
 * Substrait root names its columns; that costs nothing at run time). What remains is a
 * real difference: another operator, expression, cast, join order or pushed filter.
 */
object PlanIdentity {

  /**
   * @param identicalUpToTypes the plans are the same once casts are dropped and every sort
   *                           puts NULLs where Spark SQL's default does: then the difference is
   *                           only in what the plan declares (result types, null ordering).
   */
  /**
   * @param sameOperators      the same operators in the same tree apart from projections,
   *                           subqueries included, and the same join types and scans: any
   *                           difference is inside expressions and projections.
   */
  final case class Outcome(identical: Boolean, identicalUpToTypes: Boolean, diff: String,
    sameOperators: Boolean = true) {
    def verdict: String =
      if (identical) "identical"
      else if (identicalUpToTypes) "differs in casts or null ordering only"
      else if (sameOperators) "differs inside expressions or projections" else "differs"
  }

  def compare(converted: DataFrame, sql: DataFrame): Outcome =
    compare(converted.queryExecution.optimizedPlan, sql.queryExecution.optimizedPlan)

  def compare(converted: LogicalPlan, sql: LogicalPlan): Outcome = {
    val (a, b) = (normalize(converted), normalize(sql))
    if (a == b) Outcome(identical = true, identicalUpToTypes = true, "")
    // Compared as text: a literal's or an attribute's type is not printed (0.2 as DECIMAL(1,1) or (2,1)).
    else if (relaxed(a).treeString == relaxed(b).treeString)
      Outcome(identical = false, identicalUpToTypes = true, diff(a.treeString, b.treeString))
    else Outcome(identical = false, identicalUpToTypes = false,
      diff(a.treeString, b.treeString) + "\nwithout casts and null orderings, " +
        diff(relaxed(a).treeString, relaxed(b).treeString),
      sameOperators = operators(a) == operators(b))
  }

  /** The plan without a final rename, in canonical form. */
  def normalize(plan: LogicalPlan): LogicalPlan = withoutFinalRename(plan).canonicalized

  /** The top projection (below a limit) with its renames of bare columns undone; gone if it then selects the child's output as is. */
  private def withoutFinalRename(plan: LogicalPlan): LogicalPlan = plan match {
    case Project(list, child) =>
      val bare = list.map { case Alias(a: Attribute, _) => a; case other => other }
      val attrs = bare.collect { case a: Attribute => a.exprId }
      val unrenamed = if (attrs.distinct.size == attrs.size) bare else list
      if (unrenamed.size == child.output.size && unrenamed.zip(child.output).forall {
          case (a: Attribute, c) => a.exprId == c.exprId
          case _ => false
        }) child
      else Project(unrenamed, child)
    // The rename collapsed into a final aggregate.
    case a: Aggregate =>
      val list = a.aggregateExpressions
      val bare = list.map { case Alias(x: Attribute, _) => x; case other => other }
      val attrs = bare.collect { case x: Attribute => x.exprId }
      if (attrs.distinct.size == attrs.size) a.copy(aggregateExpressions = bare) else a
    // Spark 3.5 leaves the rename below a limit.
    case GlobalLimit(n, child) => GlobalLimit(n, withoutFinalRename(child))
    case LocalLimit(n, child) => LocalLimit(n, withoutFinalRename(child))
    case other => other
  }

  /**
   * Every cast dropped and every sort with Spark's default null ordering: tells a difference
   * the plan declares (an output type, NULLS LAST) from a structural one.
   */
  private def relaxed(plan: LogicalPlan): LogicalPlan = plan.transformUpWithSubqueries { case p =>
    p.transformExpressionsUp {
      case c: Cast => c.child
      case s: SortOrder => s.copy(nullOrdering = s.direction.defaultNullOrdering, sameOrderExpressions = Seq.empty)
      // Canonicalization ordered operands by their (cast) forms; without the casts, order again.
      case e @ (_: Add | _: Multiply | _: And | _: Or | _: EqualTo | _: EqualNullSafe)
          if e.children.head.toString > e.children(1).toString => e.withNewChildren(e.children.reverse)
      case GreaterThan(l, r) => LessThan(r, l)
      case GreaterThanOrEqual(l, r) => LessThanOrEqual(r, l)
    }
  }

  /**
   * The plan's operators, depth first, subqueries included; joins with their type, scans with
   * their width (which table). Projections are left out: where an expression is computed is
   * the plan's choice (Calcite computes aggregate arguments in one), whole-stage code
   * generation fuses them with their neighbours, and Spark 3.5's optimizer keeps one that
   * only reorders a join's columns (Q20).
   */
  def operators(plan: LogicalPlan): Seq[String] = plan.collectWithSubqueries {
    case _: Project => ""
    case j: Join => s"Join ${j.joinType}"
    case l: LeafNode => s"${l.nodeName} of ${l.output.size}"
    case p => p.nodeName
  }.filter(_.nonEmpty)

  /** The first differing lines of two plan trees, with a little context, converted first. */
  def diff(converted: String, sql: String, context: Int = 2): String = {
    val (a, b) = (converted.linesIterator.toVector, sql.linesIterator.toVector)
    val first = a.indices.find(i => i >= b.size || a(i) != b(i)).getOrElse(a.size)
    val from = math.max(0, first - context)
    def window(lines: Vector[String]) = lines.slice(from, first + context + 1).map(l => s"  $l").mkString("\n")
    s"first difference at line ${first + 1} (of ${a.size} / ${b.size})\nconverted:\n${window(a)}\nsql:\n${window(b)}"
  }

  /** Expressions of `plan` of a kind, to explain differences (e.g. count the casts). */
  def count(plan: LogicalPlan)(p: Expression => Boolean): Int =
    plan.flatMap(_.expressions.flatMap(_.collect { case e if p(e) => e })).size
}
