package io.sparksubstrait.convert.expr

import io.sparksubstrait.proto.Expression.Subquery.SetComparison.{ComparisonOp, ReductionOp}
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.Count
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, LogicalPlan}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.BooleanType

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * `x op ANY (S)` / `x op ALL (S)` for the comparisons Spark has no subquery form of, and
 * UNIQUE (S), as correlated EXISTS subqueries that keep SQL's three-valued results:
 *  - ANY: true if some `x op s` is true, else NULL if some is NULL, else false (so false for
 *    an empty S);
 *  - ALL: false if some `x op s` is false, else NULL if some is NULL, else true;
 *  - UNIQUE: no two rows of S without NULLs are equal (never NULL).
 * `= ANY` and `<> ALL` stay IN and NOT IN ([[SubqueryConverter]]), which Spark runs as
 * null-aware joins.
 */
private[sparksubstrait] object SetComparisons {
  def anyOrAll(left: Expression, plan: LogicalPlan, reduction: ReductionOp, op: ComparisonOp, input: Seq[Attribute],
    at: PlanPath): Expression = {
    if (plan.output.size != 1) {
      throw SubstraitErrors.invalidPlan(at / "right", s"a subquery of ${plan.output.size} columns",
        "exactly one column")
    }
    val s = plan.output.head
    // The left side refers to the enclosing record: inside the subquery it is an outer reference.
    val x = left.transform { case a: Attribute if input.exists(_.exprId == a.exprId) => OuterReference(a) }
    val comparison = compare(op, x, s, at)
    def exists(condition: Expression): Expression = {
      val filtered = Filter(condition, plan)
      SparkShim.exists(filtered, outerReferences(filtered))
    }
    val unknown = Literal(null, BooleanType)
    reduction match {
      case ReductionOp.REDUCTION_OP_ANY =>
        CaseWhen(Seq(exists(comparison) -> Literal.TrueLiteral, exists(IsNull(comparison)) -> unknown),
          Some(Literal.FalseLiteral))
      case ReductionOp.REDUCTION_OP_ALL =>
        CaseWhen(Seq(exists(Not(comparison)) -> Literal.FalseLiteral, exists(IsNull(comparison)) -> unknown),
          Some(Literal.TrueLiteral))
      case ReductionOp.REDUCTION_OP_UNSPECIFIED => throw SubstraitErrors.missingField(at, "reduction_op", "ANY or ALL")
      case other =>
        throw SubstraitErrors.invalidPlan(at / "reduction_op", s"reduction_op ${other.name()}", "ANY or ALL")
    }
  }

  /** UNIQUE (S): no group of equal NULL-free rows of S has two members. */
  def unique(plan: LogicalPlan): Expression = {
    val columns = plan.output
    val complete = Filter(columns.map(c => IsNotNull(c): Expression).reduce(And), plan)
    val count = Alias(Count(Literal(1)).toAggregateExpression(), "n")()
    val duplicated = Filter(GreaterThan(count.toAttribute, Literal(1L)), Aggregate(columns, columns :+ count, complete))
    Not(SparkShim.exists(duplicated, outerReferences(duplicated)))
  }

  private def compare(op: ComparisonOp, x: Expression, s: Expression, at: PlanPath): Expression = op match {
    case ComparisonOp.COMPARISON_OP_EQ => EqualTo(x, s)
    case ComparisonOp.COMPARISON_OP_NE => Not(EqualTo(x, s))
    case ComparisonOp.COMPARISON_OP_LT => LessThan(x, s)
    case ComparisonOp.COMPARISON_OP_GT => GreaterThan(x, s)
    case ComparisonOp.COMPARISON_OP_LE => LessThanOrEqual(x, s)
    case ComparisonOp.COMPARISON_OP_GE => GreaterThanOrEqual(x, s)
    case ComparisonOp.COMPARISON_OP_UNSPECIFIED =>
      throw SubstraitErrors.missingField(at, "comparison_op", "a comparison")
    case other => throw SubstraitErrors.invalidPlan(at / "comparison_op", s"comparison_op ${other.name()}",
        "EQ, NE, LT, GT, LE or GE")
  }

  private[expr] def outerReferences(plan: LogicalPlan): Seq[Expression] =
    plan.flatMap(_.expressions.flatMap(_.collect { case o: OuterReference => o.e })).distinct
}
