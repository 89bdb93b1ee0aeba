package io.sparksubstrait.plan.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, FunctionArgument, JoinRel, Plan, Rel, RelCommon, Type}

import io.sparksubstrait.plan.PlanPath

/**
 * The types a reading needs that only conversion knows in general: what a field reference
 * of a filter's condition, a projection's expression or a join's condition refers to,
 * derived at decode time for the simple shapes producers write (reads with a base schema,
 * filters, sorts, fetches, projections of references, literals, casts and declared
 * functions, joins). Where a type cannot be told, it is None and the reading leaves the
 * expression alone (the converter then decides, as without the reading).
 */
object InputTypes {
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
  private def expr(e: Expression, in: Types, at: PlanPath, f: PartialFunction[(Expression, Types, PlanPath), Expression]): Expression = {
    val inner = e.getRexTypeCase match {
      case Expression.RexTypeCase.SCALAR_FUNCTION =>
        val b = e.getScalarFunction.toBuilder
        e.getScalarFunction.getArgumentsList.asScala.zipWithIndex.foreach { case (a, i) =>
          if (a.hasValue) b.setArguments(i, FunctionArgument.newBuilder(a)
            .setValue(expr(a.getValue, in, (at / "scalar_function").at("arguments", i) / "value", f)))
        }
        e.toBuilder.setScalarFunction(b).build()
      case Expression.RexTypeCase.CAST =>
        e.toBuilder.setCast(e.getCast.toBuilder.setInput(expr(e.getCast.getInput, in, at / "cast" / "input", f))).build()
      case _ => e
    }
    f.applyOrElse((inner, in, at), (_: (Expression, Types, PlanPath)) => inner)
  }

  /** The type of `e` over input columns `in`, when it can be told. */
  def typeOf(e: Expression, in: Types): Option[Type] = e.getRexTypeCase match {
    case Expression.RexTypeCase.SELECTION if e.getSelection.hasDirectReference && e.getSelection.hasRootReference &&
        e.getSelection.getDirectReference.hasStructField && !e.getSelection.getDirectReference.getStructField.hasChild =>
      in.lift(e.getSelection.getDirectReference.getStructField.getField).flatten
    case Expression.RexTypeCase.CAST => Some(e.getCast.getType)
    case Expression.RexTypeCase.SCALAR_FUNCTION if e.getScalarFunction.hasOutputType => Some(e.getScalarFunction.getOutputType)
    case _ => None
  }

  /** A relation's output types, None for each column it cannot tell (an empty Seq when it knows nothing). */
  def output(rel: Rel): Types = {
    val direct: Types = rel.getRelTypeCase match {
      case Rel.RelTypeCase.READ if rel.getRead.getBaseSchema.hasStruct && !rel.getRead.hasProjection =>
        rel.getRead.getBaseSchema.getStruct.getTypesList.asScala.toSeq.map(Some(_))
      case Rel.RelTypeCase.FILTER => output(rel.getFilter.getInput)
      case Rel.RelTypeCase.SORT => output(rel.getSort.getInput)
      case Rel.RelTypeCase.FETCH => output(rel.getFetch.getInput)
      case Rel.RelTypeCase.PROJECT =>
        val in = output(rel.getProject.getInput)
        if (in.isEmpty) Nil else in ++ rel.getProject.getExpressionsList.asScala.map(typeOf(_, in))
      case Rel.RelTypeCase.JOIN if bothSides(rel.getJoin.getType) =>
        val (l, r) = (output(rel.getJoin.getLeft), output(rel.getJoin.getRight))
        if (l.isEmpty || r.isEmpty) Nil else l ++ r
      case _ => Nil
    }
    emitted(common(rel), direct)
  }

  private def bothSides(t: JoinRel.JoinType): Boolean = t == JoinRel.JoinType.JOIN_TYPE_INNER ||
    t == JoinRel.JoinType.JOIN_TYPE_LEFT || t == JoinRel.JoinType.JOIN_TYPE_RIGHT || t == JoinRel.JoinType.JOIN_TYPE_OUTER

  private def common(rel: Rel): Option[RelCommon] = rel.getAllFields.asScala.values.collectFirst {
    case m: com.google.protobuf.Message if m.getDescriptorForType.findFieldByName("common") != null &&
        m.hasField(m.getDescriptorForType.findFieldByName("common")) =>
      m.getField(m.getDescriptorForType.findFieldByName("common")).asInstanceOf[RelCommon]
  }

  private def emitted(common: Option[RelCommon], direct: Types): Types = common match {
    case Some(c) if c.hasEmit && direct.nonEmpty => c.getEmit.getOutputMappingList.asScala.toSeq.map(i => direct.lift(i).flatten)
    case _ => direct
  }
}
