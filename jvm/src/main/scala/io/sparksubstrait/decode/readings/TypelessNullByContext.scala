package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, FunctionArgument, Plan, Rel, Type}

import io.sparksubstrait.foundation.PlanPath

/**
 * DuckDB writes SQL's untyped NULL as a null literal whose type has no kind (TypelessNullInCast
 * reads it inside a cast). The spec's null literal carries its type, so this is DuckDB's
 * reading, and honoured only where the plan itself fixes the type, the same way a SQL engine
 * types the NULL:
 *  - a column of a set operation's branch (`SELECT dept_id, NULL FROM dept UNION ALL ...`,
 *    TPC-DS q27): the type the other branches give that column (the spec requires equal ones);
 *  - an element of a list (`[id, NULL]`, a nested list or a list literal): the other elements' type;
 *  - an argument of a comparison (`id IS NOT DISTINCT FROM NULL`): the other argument's type,
 *    the comparison's YAML signatures taking two arguments of one type (`any1, any1`).
 * Always as a nullable type. Where the plan fixes no type (`SELECT NULL`, a set whose every
 * branch has NULL there, a list of NULLs only) the NULL is left as written and stays the
 * plan's error at `literal.null` (SUBSTRAIT_MISSING_FIELD).
 */
private[sparksubstrait] object TypelessNullByContext extends ReadingOf(Releases.DuckDb) {
  val name = "duckdb-typeless-null-by-context"
  val meaning = "a null literal without a type as a set operation's column, a list element or a comparison's " +
    "argument; read as NULL of the type the other branches, elements or argument have"

  override val needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set(Expression.Literal.getDescriptor)

  /** The comparisons whose every YAML signature takes two arguments of one type (functions_comparison.yaml). */
  private val SameTypeComparisons =
    Set("equal", "not_equal", "lt", "gt", "lte", "gte", "is_distinct_from", "is_not_distinct_from")

  def lift(plan: Plan, found: String => Unit): Plan = {
    val comparisons = DeclaredFunctions.anchorsNamed(plan, SameTypeComparisons)
    val inExpressions = InputTypes.rewrite(plan) {
      case (e, in, at) if e.hasNested && e.getNested.hasList => list(e, in, at, found)
      case (e, _, at) if e.hasLiteral && e.getLiteral.hasList => listLiteral(e, at, found)
      case (e, in, at) if e.hasScalarFunction && comparisons(e.getScalarFunction.getFunctionReference) =>
        comparison(e, in, at, found)
    }
    MessageRewrite.skippingLeavesLocated(inExpressions) {
      case (rel: Rel, at) if rel.hasSet => setBranches(rel, at, found)
    }
  }

  private def nullOf(t: Type): Expression = Expression.newBuilder().setLiteral(
    Expression.Literal.newBuilder().setNullable(true)
      .setNull(DeclaredTypes.withNullability(t, Type.Nullability.NULLABILITY_NULLABLE))).build()

  private def kindOf(t: Type): String = t.getKindCase.name.toLowerCase

  private def list(e: Expression, in: InputTypes.Types, at: PlanPath, found: String => Unit): Expression = {
    val listAt = at / "nested" / "list"
    typedElements[Expression](e.getNested.getList.getValuesList.asScala.toSeq, DeclaredTypes.isTypelessNull(_),
      v => DeclaredTypes.typed(DeclaredTypes.of(v, in)), nullOf, i => s"the list at ${listAt.at("values", i)}", found)
      .fold(e) { vs =>
        e.toBuilder.setNested(
          e.getNested.toBuilder.setList(e.getNested.getList.toBuilder.clearValues().addAllValues(vs.asJava)))
          .build()
      }
  }

  private def listLiteral(e: Expression, at: PlanPath, found: String => Unit): Expression = {
    val listAt = at / "literal" / "list"
    typedElements[Expression.Literal](e.getLiteral.getList.getValuesList.asScala.toSeq,
      DeclaredTypes.isTypelessNull(_),
      v => DeclaredTypes.typed(DeclaredTypes.of(Expression.newBuilder().setLiteral(v).build(), Nil)),
      t => nullOf(t).getLiteral, i => s"the list literal at ${listAt.at("values", i)}", found)
      .fold(e) { vs =>
        e.toBuilder.setLiteral(
          e.getLiteral.toBuilder.setList(e.getLiteral.getList.toBuilder.clearValues().addAllValues(vs.asJava)))
          .build()
      }
  }

  /** The elements with each typeless NULL typed as the first element that has a type; None when nothing changes. */
  private def typedElements[A](values: Seq[A], isTypelessNull: A => Boolean, typeOf: A => Option[Type],
    nullAs: Type => A, element: Int => String, found: String => Unit): Option[Seq[A]] = {
    val fixed = values.iterator.filterNot(isTypelessNull).map(typeOf).collectFirst { case Some(t) => t }
    fixed.filter(_ => values.exists(isTypelessNull)).map { t =>
      values.zipWithIndex.map { case (v, i) =>
        if (!isTypelessNull(v)) v
        else {
          found(s"NULL element of ${element(i)} as ${kindOf(t)}")
          nullAs(t)
        }
      }
    }
  }

  private def comparison(e: Expression, in: InputTypes.Types, at: PlanPath, found: String => Unit): Expression = {
    val args = e.getScalarFunction.getArgumentsList.asScala.toSeq
    val values = args.map(a => if (a.hasValue) Some(a.getValue) else None)
    if (args.size != 2 || values.exists(_.isEmpty)) e
    else {
      val Seq(l, r) = values.flatten
      (DeclaredTypes.isTypelessNull(l), DeclaredTypes.isTypelessNull(r)) match {
        case (true, false) => typedArgument(e, 0, DeclaredTypes.typed(DeclaredTypes.of(r, in)), at, found)
        case (false, true) => typedArgument(e, 1, DeclaredTypes.typed(DeclaredTypes.of(l, in)), at, found)
        case _ => e
      }
    }
  }

  private def typedArgument(e: Expression, i: Int, t: Option[Type], at: PlanPath, found: String => Unit)
    : Expression = t match {
    case Some(t) =>
      found(
        s"NULL argument at ${(at / "scalar_function").at("arguments", i)} as ${kindOf(t)}, the other argument's type")
      val f = e.getScalarFunction.toBuilder
        .setArguments(i, FunctionArgument.newBuilder().setValue(nullOf(t)))
      e.toBuilder.setScalarFunction(f).build()
    case None => e
  }

  /** A set's branches whose column is a typeless NULL written by a project: that column's type in the other branches. */
  private def setBranches(rel: Rel, at: PlanPath, found: String => Unit): Rel = {
    val inputs = rel.getSet.getInputsList.asScala.toSeq
    val types = inputs.map(i => DeclaredTypes.of(i).getOrElse(Nil))
    val b = rel.toBuilder
    var changed = false
    inputs.zipWithIndex.foreach { case (input, i) =>
      nullColumns(input).foreach { case (column, expression) =>
        val others = types.indices.filter(_ != i).flatMap(j => DeclaredTypes.typed(types(j).lift(column).flatten))
        others.headOption.foreach { t =>
          found(s"NULL column $column of ${(at / "set").at("inputs", i)} as ${kindOf(t)}, the other branches' type")
          b.getSetBuilder.getInputsBuilder(i).getProjectBuilder.setExpressions(expression, nullOf(t))
          changed = true
        }
      }
    }
    if (changed) b.build() else rel
  }

  /** The output columns of a project that are a typeless NULL it computes: (column, its expression's index). */
  private def nullColumns(input: Rel): Seq[(Int, Int)] =
    if (!input.hasProject) Nil
    else {
      val p = input.getProject
      DeclaredTypes.of(p.getInput).map(_.size) match {
        case None => Nil
        case Some(width) =>
          val computed = width until width + p.getExpressionsCount
          val emitted =
            if (p.getCommon.hasEmit) p.getCommon.getEmit.getOutputMappingList.asScala.toSeq.map(_.intValue)
            else (0 until width) ++ computed
          emitted.zipWithIndex.collect {
            case (k, column) if computed.contains(k) && DeclaredTypes.isTypelessNull(p.getExpressions(k - width)) =>
              (column, k - width)
          }
      }
    }
}
