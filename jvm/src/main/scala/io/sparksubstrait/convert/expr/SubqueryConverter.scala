package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Expression.Subquery
import io.sparksubstrait.proto.Expression.Subquery.{SetComparison, SetPredicate}
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression => CExpression, Not}
import org.apache.spark.sql.catalyst.optimizer.CollapseProject
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Project}
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.rel.RelConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Subqueries as Catalyst subquery expressions: scalar, IN (one or several needles),
 * EXISTS, and `= ANY` / `<> ALL` (IN and NOT IN); UNIQUE and the other ANY / ALL comparisons
 * as EXISTS subqueries ([[SetComparisons]]). The subquery's relation is converted with the
 * enclosing record in scope, so outer references become Catalyst outer references and
 * Spark decorrelates them as it does for SQL.
 */
private[sparksubstrait] object SubqueryConverter {
  def convert(s: Subquery, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression =
    s.getSubqueryTypeCase match {
      case Subquery.SubqueryTypeCase.SCALAR =>
        val plan = withComputationInAggregate(relation(s.getScalar.hasInput, s.getScalar.getInput, input, at / "scalar",
            "input"))
        if (plan.output.size != 1) {
          throw SubstraitErrors.invalidPlan(at / "scalar" / "input",
            s"a scalar subquery of ${plan.output.size} columns", "exactly one column")
        }
        SparkShim.scalarSubquery(plan, outerReferences(plan))
      case Subquery.SubqueryTypeCase.IN_PREDICATE =>
        val p = s.getInPredicate
        val pAt = at / "in_predicate"
        val needles = p.getNeedlesList.asScala.toSeq.zipWithIndex.map { case (n, i) =>
          ExpressionConverter.convert(n, input, pAt.at("needles", i))
        }
        in(needles, relation(p.hasHaystack, p.getHaystack, input, pAt, "haystack"), pAt)
      case Subquery.SubqueryTypeCase.SET_PREDICATE =>
        val p = s.getSetPredicate
        val pAt = at / "set_predicate"
        p.getPredicateOp match {
          case SetPredicate.PredicateOp.PREDICATE_OP_EXISTS =>
            val plan = relation(p.hasTuples, p.getTuples, input, pAt, "tuples")
            SparkShim.exists(plan, outerReferences(plan))
          case SetPredicate.PredicateOp.PREDICATE_OP_UNIQUE =>
            SetComparisons.unique(relation(p.hasTuples, p.getTuples, input, pAt, "tuples"))
          case other =>
            throw SubstraitErrors.invalidPlan(pAt / "predicate_op", s"predicate_op ${other.name()}", "EXISTS or UNIQUE")
        }
      case Subquery.SubqueryTypeCase.SET_COMPARISON =>
        val c = s.getSetComparison
        val cAt = at / "set_comparison"
        if (!c.hasLeft) throw SubstraitErrors.missingField(cAt, "left", "the compared expression")
        val left = ExpressionConverter.convert(c.getLeft, input, cAt / "left")
        def plan = relation(c.hasRight, c.getRight, input, cAt, "right")
        (c.getReductionOp, c.getComparisonOp) match {
          // = ANY is IN; <> ALL is NOT IN (with SQL's NULL rules, which Spark's NOT IN keeps).
          case (SetComparison.ReductionOp.REDUCTION_OP_ANY, SetComparison.ComparisonOp.COMPARISON_OP_EQ) =>
            in(Seq(left), plan, cAt)
          case (SetComparison.ReductionOp.REDUCTION_OP_ALL, SetComparison.ComparisonOp.COMPARISON_OP_NE) =>
            Not(in(Seq(left), plan, cAt))
          case (reduction, op) => SetComparisons.anyOrAll(left, plan, reduction, op, input, cAt)
        }
      case Subquery.SubqueryTypeCase.SUBQUERYTYPE_NOT_SET =>
        throw SubstraitErrors.missingField(at, "subquery_type", "a subquery")
    }

  private def relation(has: Boolean, rel: => io.sparksubstrait.proto.Rel, outer: Seq[Attribute], at: PlanPath,
    field: String)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!has) throw SubstraitErrors.missingField(at, field, "the subquery's relation")
    NestedOuterReferences.carried(ctx.withOuterScope(outer)(RelConverter.convert(rel, at / field)))
  }

  private def in(needles: Seq[CExpression], plan: LogicalPlan, at: PlanPath): CExpression = {
    if (needles.isEmpty) throw SubstraitErrors.missingField(at, "needles", "at least one needle")
    if (needles.size != plan.output.size) {
      throw SubstraitErrors.invalidPlan(at,
        s"${needles.size} needle(s) against a subquery of ${plan.output.size} column(s)",
        "as many needles as the subquery has columns")
    }
    SparkShim.inSubquery(needles, plan, outerReferences(plan))
  }

  /**
   * A Substrait aggregate outputs bare measures, so a scalar subquery computing with one
   * (`0.2 * avg(x)`) is a projection over the aggregate, where SQL puts the computation in
   * the aggregate itself. Spark decorrelates the two shapes differently: the projection makes
   * it join the subquery with a distinct copy of the outer query's keys (a domain join),
   * costing one more join of the outer tables (TPC-H Q17, Q20). Merging the projection into
   * the aggregate, as the optimizer's CollapseProject would later anyway, gives SQL's shape.
   */
  private def withComputationInAggregate(plan: LogicalPlan): LogicalPlan = plan match {
    case p @ Project(_, _: Aggregate) => CollapseProject(p)
    case other => other
  }

  /** The outer attributes the subquery's plan references (Spark's outerAttrs). */
  private def outerReferences(plan: LogicalPlan): Seq[CExpression] = SetComparisons.outerReferences(plan)
}
