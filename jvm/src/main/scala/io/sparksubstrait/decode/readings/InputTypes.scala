package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, FunctionArgument, Plan, Rel, Type}

import io.sparksubstrait.foundation.PlanPath

/**
 * A walk over the expressions of filters, projections and join conditions, each seen with
 * its input columns' types as the plan declares them (DeclaredTypes), for readings whose
 * meaning depends on an argument's type. Where a type cannot be told, it is None and the
 * reading leaves the expression alone (the converter then decides, as without the reading).
 */
private[sparksubstrait] object InputTypes {
  type Types = Seq[Option[Type]]

  /** `plan` with `f` applied to each expression of a filter, projection or join, bottom-up, with its input's types. */
  def rewrite(plan: Plan)(f: PartialFunction[(Expression, Types, PlanPath), Expression]): Plan =
    MessageRewrite.located(plan) {
      case (rel: Rel, at) if rel.hasFilter && rel.getFilter.hasCondition =>
        val in = output(rel.getFilter.getInput)
        val b = rel.toBuilder
        b.getFilterBuilder.setCondition(expr(rel.getFilter.getCondition, in, at / "filter" / "condition", f))
        b.build()
      case (rel: Rel, at) if rel.hasProject =>
        val in = output(rel.getProject.getInput)
        val b = rel.toBuilder
        rel.getProject.getExpressionsList.asScala.zipWithIndex.foreach { case (e, i) =>
          b.getProjectBuilder.setExpressions(i, expr(e, in, (at / "project").at("expressions", i), f))
        }
        b.build()
      case (rel: Rel, at) if rel.hasJoin && rel.getJoin.hasExpression =>
        val in = output(rel.getJoin.getLeft) ++ output(rel.getJoin.getRight)
        val b = rel.toBuilder
        b.getJoinBuilder.setExpression(expr(rel.getJoin.getExpression, in, at / "join" / "expression", f))
        b.build()
    }

  /** Function arguments and cast inputs first, then the expression itself; subqueries are left alone. */
  private def expr(e: Expression, in: Types, at: PlanPath,
    f: PartialFunction[(Expression, Types, PlanPath), Expression]): Expression = {
    val inner = e.getRexTypeCase match {
      case Expression.RexTypeCase.SCALAR_FUNCTION =>
        val b = e.getScalarFunction.toBuilder
        e.getScalarFunction.getArgumentsList.asScala.zipWithIndex.foreach { case (a, i) =>
          if (a.hasValue) b.setArguments(i,
            FunctionArgument.newBuilder(a)
              .setValue(expr(a.getValue, in, (at / "scalar_function").at("arguments", i) / "value", f)))
        }
        e.toBuilder.setScalarFunction(b).build()
      case Expression.RexTypeCase.CAST =>
        e.toBuilder.setCast(e.getCast.toBuilder.setInput(expr(e.getCast.getInput, in, at / "cast" / "input",
              f))).build()
      case _ => e
    }
    f.applyOrElse((inner, in, at), (_: (Expression, Types, PlanPath)) => inner)
  }

  /**
   * Each expression within `e` that [[rewrite]] visits (function arguments and cast inputs
   * first, then `e`), with its place, read and not rebuilt: for a reading that only looks.
   */
  def foreachWithin(e: Expression, at: PlanPath)(f: (Expression, PlanPath) => Unit): Unit = {
    e.getRexTypeCase match {
      case Expression.RexTypeCase.SCALAR_FUNCTION =>
        e.getScalarFunction.getArgumentsList.asScala.zipWithIndex.foreach { case (a, i) =>
          if (a.hasValue) foreachWithin(a.getValue, (at / "scalar_function").at("arguments", i) / "value")(f)
        }
      case Expression.RexTypeCase.CAST => foreachWithin(e.getCast.getInput, at / "cast" / "input")(f)
      case _ =>
    }
    f(e, at)
  }

  /** Whether `p` holds for an expression within `e` that [[rewrite]] visits (no places worked out). */
  def existsWithin(e: Expression)(p: Expression => Boolean): Boolean = p(e) ||
    (e.getRexTypeCase match {
      case Expression.RexTypeCase.SCALAR_FUNCTION =>
        e.getScalarFunction.getArgumentsList.asScala.exists(a => a.hasValue && existsWithin(a.getValue)(p))
      case Expression.RexTypeCase.CAST => existsWithin(e.getCast.getInput)(p)
      case _ => false
    })

  /** The type of `e` over input columns `in`, when the plan declares it. */
  def typeOf(e: Expression, in: Types): Option[Type] = DeclaredTypes.of(e, in)

  /** A relation's output types, None for each column it cannot tell (an empty Seq when it knows nothing). */
  def output(rel: Rel): Types = DeclaredTypes.of(rel).getOrElse(Nil)
}
