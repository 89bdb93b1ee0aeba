package io.sparksubstrait.decode

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto._
import io.sparksubstrait.proto.Expression.{Literal, ScalarFunction, WindowFunction}
import io.sparksubstrait.proto.Expression.WindowFunction.Bound
import io.sparksubstrait.foundation.PlanPath

/**
 * The rewrite of one message whose legacy fields are set into the pinned spec's form (see
 * [[LegacyLifting]]); any other message is returned as it is. Where a plan writes a field in
 * both forms, they must agree.
 */
private[decode] object LegacyLifts {
  def apply(message: Message, at: PlanPath): Message = message match {
    case p: Plan if p.getExtensionUrisCount > 0 || hasUriReferences(p) => LegacyExtensionUris(p)
    case f: ScalarFunction if f.getArgsCount > 0 =>
      f.toBuilder.clearArgs().clearArguments().addAllArguments(arguments(f.getArgumentsList, f.getArgsList,
          at).asJava).build()
    case f: AggregateFunction if f.getArgsCount > 0 =>
      f.toBuilder.clearArgs().clearArguments().addAllArguments(arguments(f.getArgumentsList, f.getArgsList,
          at).asJava).build()
    case f: WindowFunction if f.getArgsCount > 0 =>
      f.toBuilder.clearArgs().clearArguments().addAllArguments(arguments(f.getArgumentsList, f.getArgsList,
          at).asJava).build()
    case a: AggregateRel if a.getGroupingsList.asScala.exists(_.getGroupingExpressionsCount > 0) => groupings(a, at)
    case f: FetchRel if f.hasOffset || f.hasCount => fetch(f)
    case j: HashJoinRel if j.getLeftKeysCount > 0 || j.getRightKeysCount > 0 =>
      j.toBuilder.clearLeftKeys().clearRightKeys().clearKeys()
        .addAllKeys(keys(j.getKeysList, j.getLeftKeysList, j.getRightKeysList, at).asJava).build()
    case j: MergeJoinRel if j.getLeftKeysCount > 0 || j.getRightKeysCount > 0 =>
      j.toBuilder.clearLeftKeys().clearRightKeys().clearKeys()
        .addAllKeys(keys(j.getKeysList, j.getLeftKeysList, j.getRightKeysList, at).asJava).build()
    case v: ReadRel.VirtualTable if v.getValuesCount > 0 => virtualTable(v, at)
    case l: Literal => LegacyTemporals.literal(l)
    case i: Literal.IntervalDayToSecond if i.hasMicroseconds =>
      i.toBuilder.clearMicroseconds().setPrecision(6).setSubseconds(i.getMicroseconds.toLong).build()
    case t: Type => LegacyTemporals.tpe(t)
    // A bound's offset counts only when non-zero; offset_expr, when set, wins (the spec's rule).
    case p: Bound.Preceding if p.getOffset != 0 =>
      if (p.hasOffsetExpr) p.toBuilder.clearOffset().build()
      else p.toBuilder.clearOffset().setOffsetExpr(i64(p.getOffset)).build()
    case f: Bound.Following if f.getOffset != 0 =>
      if (f.hasOffsetExpr) f.toBuilder.clearOffset().build()
      else f.toBuilder.clearOffset().setOffsetExpr(i64(f.getOffset)).build()
    case other => other
  }

  private def hasUriReferences(p: Plan): Boolean = p.getExtensionsList.asScala.exists(d =>
    d.getExtensionFunction.getExtensionUriReference != 0 || d.getExtensionType.getExtensionUriReference != 0 ||
      d.getExtensionTypeVariation.getExtensionUriReference != 0)

  def i64(v: Long): Expression =
    Expression.newBuilder().setLiteral(Literal.newBuilder().setI64(v)).build()

  /** `args`: bare value expressions, and enum arguments written as `Expression.enum`. */
  private def arguments(current: java.util.List[FunctionArgument], args: java.util.List[Expression], at: PlanPath)
    : Seq[FunctionArgument] = {
    val lifted = args.asScala.toSeq.zipWithIndex.map { case (e, i) =>
      if (e.hasEnum) {
        val enumAt = at.at("args", i) / "enum"
        if (!e.getEnum.hasSpecified) {
          throw SubstraitErrors.unsupported(enumAt, "an unspecified enum argument (the pre-0.20 encoding)",
            "an enum argument naming its value; the spec later replaced optional enum arguments with function options")
        }
        FunctionArgument.newBuilder().setEnum(e.getEnum.getSpecified).build()
      } else FunctionArgument.newBuilder().setValue(e).build()
    }
    if (!current.isEmpty && current.asScala.toSeq != lifted) {
      throw SubstraitErrors.invalidPlan(at, "both `arguments` and the legacy `args`, which disagree",
        "the arguments in one of the two fields (or the same in both)")
    }
    lifted
  }

  /** Each grouping's own expressions become references into the aggregate's shared list. */
  private def groupings(a: AggregateRel, at: PlanPath): AggregateRel = {
    val shared = a.getGroupingExpressionsList.asScala.toBuffer
    val b = a.toBuilder.clearGroupings()
    a.getGroupingsList.asScala.zipWithIndex.foreach { case (g, i) =>
      val legacy = g.getGroupingExpressionsList.asScala.toSeq
      val refs = g.getExpressionReferencesList.asScala.toSeq.map(_.intValue)
      if (legacy.isEmpty) b.addGroupings(g)
      else if (refs.nonEmpty) {
        // Both forms (DataFusion writes both): they must name the same expressions.
        if (refs.exists(r => r < 0 || r >= shared.size) || refs.map(shared) != legacy) {
          throw SubstraitErrors.invalidPlan(at.at("groupings", i),
            "grouping_expressions and expression_references that disagree",
            "both forms to name the same expressions")
        }
        b.addGroupings(g.toBuilder.clearGroupingExpressions())
      } else {
        val lifted = legacy.map { e =>
          val k = shared.indexOf(e)
          if (k >= 0) k else { shared += e; shared.size - 1 }
        }
        b.addGroupings(
          g.toBuilder.clearGroupingExpressions().addAllExpressionReferences(lifted.map(Integer.valueOf).asJava))
      }
    }
    b.clearGroupingExpressions().addAllGroupingExpressions(shared.asJava).build()
  }

  /** The int64 forms; a count of -1 meant all records, as an absent count does now. */
  private def fetch(f: FetchRel): FetchRel = {
    val b = f.toBuilder.clearOffset().clearCount()
    if (f.hasOffset && !f.hasOffsetExpr) b.setOffsetExpr(i64(f.getOffset))
    if (f.hasCount && !f.hasCountExpr && f.getCount != -1) b.setCountExpr(i64(f.getCount))
    b.build()
  }

  /** Key pairs compared with EQ, as the key lists were. */
  private def keys(current: java.util.List[ComparisonJoinKey], left: java.util.List[Expression.FieldReference],
    right: java.util.List[Expression.FieldReference], at: PlanPath): Seq[ComparisonJoinKey] = {
    if (left.size != right.size) {
      throw SubstraitErrors.invalidPlan(at / "left_keys", s"${left.size} left keys and ${right.size} right keys",
        "as many left keys as right keys")
    }
    if (!current.isEmpty) {
      throw SubstraitErrors.invalidPlan(at, "both `keys` and the legacy `left_keys` / `right_keys`",
        "the join keys in one form")
    }
    left.asScala.toSeq.zip(right.asScala).map { case (l, r) =>
      ComparisonJoinKey.newBuilder().setLeft(l).setRight(r).setComparison(ComparisonJoinKey.ComparisonType.newBuilder()
          .setSimple(ComparisonJoinKey.SimpleComparisonType.SIMPLE_COMPARISON_TYPE_EQ)).build()
    }
  }

  /** A row of struct literals becomes a row of literal expressions. */
  private def virtualTable(v: ReadRel.VirtualTable, at: PlanPath): ReadRel.VirtualTable = {
    if (v.getExpressionsCount > 0) {
      throw SubstraitErrors.invalidPlan(at, "both expressions and values", "rows in one of the two fields")
    }
    val rows = v.getValuesList.asScala.map { row =>
      Expression.Nested.Struct.newBuilder().addAllFields(row.getFieldsList.asScala
          .map(l => Expression.newBuilder().setLiteral(l).build()).asJava).build()
    }
    v.toBuilder.clearValues().addAllExpressions(rows.asJava).build()
  }
}
