package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.{CrossRel, JoinRel, Rel}
import io.sparksubstrait.proto.JoinRel.JoinType
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, CaseWhen, IsNull, Literal, NamedExpression, OuterReference, Expression => CExpression
}
import org.apache.spark.sql.catalyst.plans.{
  FullOuter, Inner, JoinType => CJoinType, LeftAnti, LeftOuter, LeftSemi, RightOuter
}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, Join, JoinHint, LogicalPlan, Project}

import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.BooleanType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * JoinRel and CrossRel, and the join building the physical joins share. Conditions see the
 * left fields followed by the right ones; the post-join filter is read by [[PostJoinFilter]]. Right semi / anti joins are left ones with the
 * sides swapped (their output is the right input's fields).
 */
private[sparksubstrait] object JoinConverter {

  /**
   * A Catalyst join type, and whether the sides are swapped to express it; `single`: a single
   * join (its type's place in the plan and name), built by the shim (joinType is then unused).
   */
  final case class JoinKind(joinType: CJoinType, swapped: Boolean, single: Option[(PlanPath, String)] = None) {
    def keepsOneSide: Boolean = joinType == LeftSemi || joinType == LeftAnti
  }

  val InnerJoin = JoinKind(Inner, swapped = false)
  val FullJoin = JoinKind(FullOuter, swapped = false)
  val LeftJoin = JoinKind(LeftOuter, swapped = false)
  val RightJoin = JoinKind(RightOuter, swapped = false)
  val LeftSemiJoin = JoinKind(LeftSemi, swapped = false)
  val LeftAntiJoin = JoinKind(LeftAnti, swapped = false)
  val RightSemiJoin = JoinKind(LeftSemi, swapped = true)
  val RightAntiJoin = JoinKind(LeftAnti, swapped = true)

  /**
   * Single joins: every row of one side with its at most one match on the other (NULLs when
   * none); a second match fails the query, as a scalar subquery returning two rows does.
   */
  def singleJoin(swapped: Boolean, at: PlanPath, found: String): JoinKind =
    JoinKind(LeftOuter, swapped, Some((at / "type", found)))

  def convert(rel: JoinRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    // Read as a cross join until now; the spec has CrossRel for that, and a JoinRel's condition is not optional.
    if (!rel.hasExpression) {
      throw SubstraitErrors.invalidPlan(at / "expression", "a JoinRel without its expression",
        "a join condition, the literal true for every pair (spec: logical relations, Join: the join expression is " +
          "'Required. Can be the literal True'; a cross join is a CrossRel)")
    }
    rel.getType match {
      case JoinType.JOIN_TYPE_LEFT_MARK => return mark(rel, markLeft = true, at)
      case JoinType.JOIN_TYPE_RIGHT_MARK => return mark(rel, markLeft = false, at)
      case _ =>
    }
    val kind = rel.getType match {
      case JoinType.JOIN_TYPE_INNER => InnerJoin
      case JoinType.JOIN_TYPE_OUTER => FullJoin
      case JoinType.JOIN_TYPE_LEFT => LeftJoin
      case JoinType.JOIN_TYPE_RIGHT => RightJoin
      case JoinType.JOIN_TYPE_LEFT_SEMI => LeftSemiJoin
      case JoinType.JOIN_TYPE_LEFT_ANTI => LeftAntiJoin
      case JoinType.JOIN_TYPE_RIGHT_SEMI => RightSemiJoin
      case JoinType.JOIN_TYPE_RIGHT_ANTI => RightAntiJoin
      case JoinType.JOIN_TYPE_LEFT_SINGLE => singleJoin(swapped = false, at, "LEFT_SINGLE")
      case JoinType.JOIN_TYPE_RIGHT_SINGLE => singleJoin(swapped = true, at, "RIGHT_SINGLE")
      case JoinType.JOIN_TYPE_UNSPECIFIED => throw SubstraitErrors.missingField(at, "type", "a join type")
      case other => throw unsupportedType(at, other.name())
    }
    val (left, right) = sides(rel.hasLeft, rel.getLeft, rel.hasRight, rel.getRight, at)
    val both = left.output ++ right.output
    // The literal true, the spec's condition of every pair, is Catalyst's join without a condition (which Spark
    // 3.5's single join rewrite takes, where it cannot take a condition).
    val expression = Some(FilterConverter.condition(rel.getExpression, both, at / "expression"))
      .filterNot(_ == Literal.TrueLiteral)
    val postAt = at / "post_join_filter"
    if (rel.hasPostJoinFilter && PostJoinFilter.isMatchPredicate(kind.keepsOneSide, physical = false)) {
      val predicate = FilterConverter.condition(rel.getPostJoinFilter, both, postAt)
      build(left, right, kind, Some(PostJoinFilter.and(expression, predicate)), JoinHint.NONE)
    } else {
      val join = build(left, right, kind, expression, JoinHint.NONE)
      if (rel.hasPostJoinFilter) PostJoinFilter.above(join, rel.getPostJoinFilter, postAt) else join
    }
  }

  /**
   * A mark join: every record of the marked side with a nullable boolean appended (after
   * its columns; the other side's columns are not part of the output): true when some
   * record of the other side satisfies the condition, else NULL when for some the condition
   * is NULL, else false. Two correlated EXISTS, which Spark decorrelates into joins.
   */
  private def mark(rel: JoinRel, markLeft: Boolean, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val (left, right) = sides(rel.hasLeft, rel.getLeft, rel.hasRight, rel.getRight, at)
    val both = left.output ++ right.output
    val expression =
      Options.when(rel.hasExpression)(FilterConverter.condition(rel.getExpression, both, at / "expression"))
    val postAt = at / "post_join_filter"
    if (rel.hasPostJoinFilter && PostJoinFilter.isMatchPredicate(keepsOneSide = true, physical = false)) {
      markJoin(left, right,
        Some(PostJoinFilter.and(expression, FilterConverter.condition(rel.getPostJoinFilter, both, postAt))), markLeft)
    } else {
      val marked = markJoin(left, right, expression, markLeft)
      if (rel.hasPostJoinFilter) PostJoinFilter.above(marked, rel.getPostJoinFilter, postAt) else marked
    }
  }

  /** The mark join over converted sides; no condition means every pair matches. */
  def markJoin(left: LogicalPlan, right: LogicalPlan, condition: Option[CExpression], markLeft: Boolean)
    : LogicalPlan = {
    val (marked, other) = if (markLeft) (left, right) else (right, left)
    val correlated = condition.getOrElse(Literal.TrueLiteral).transform {
      case a: Attribute if marked.outputSet.contains(a) => OuterReference(a)
    }
    // The other side may itself reference the marked record (a lateral mark join).
    val outer =
      (correlated.collect { case o: OuterReference => o.e: CExpression } ++
        other.flatMap(_.expressions.flatMap(_.collect { case o: OuterReference => o.e: CExpression }))).distinct
    val mark = CaseWhen(
      Seq(
        SparkShim.exists(Filter(correlated, other), outer) -> Literal.TrueLiteral,
        SparkShim.exists(Filter(IsNull(correlated), other), outer) -> Literal(null, BooleanType)),
      Some(Literal.FalseLiteral))
    Project(marked.output :+ Alias(mark, "mark")(), marked)
  }

  def convertCross(rel: CrossRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val (left, right) = sides(rel.hasLeft, rel.getLeft, rel.hasRight, rel.getRight, at)
    // Inner without a condition, as Spark SQL's parser writes `FROM a, b`: the same rows as
    // Cross, and the optimizer then treats both alike (filters become join conditions).
    Join(left, right, Inner, None, JoinHint.NONE)
  }

  /** Both inputs converted, the right one with attribute ids distinct from the left's. */
  def sides(hasLeft: Boolean, leftRel: => Rel, hasRight: Boolean, rightRel: => Rel, at: PlanPath)(
    implicit ctx: ConversionContext): (LogicalPlan, LogicalPlan) = {
    if (!hasLeft) throw SubstraitErrors.missingField(at, "left", "the left input relation")
    if (!hasRight) throw SubstraitErrors.missingField(at, "right", "the right input relation")
    val left = RelConverter.convert(leftRel, at / "left")
    (left, distinctFrom(left, RelConverter.convert(rightRel, at / "right")))
  }

  def build(left: LogicalPlan, right: LogicalPlan, kind: JoinKind, condition: Option[CExpression], hint: JoinHint)
    : LogicalPlan = {
    def joined(l: LogicalPlan, r: LogicalPlan, h: JoinHint): LogicalPlan = kind.single match {
      case None => Join(l, r, kind.joinType, condition, h)
      case Some((at, found)) => SparkShim.singleJoin(l, r, condition, h).fold(
          expected =>
            throw SubstraitErrors.unsupported(at, s"a $found join with condition ${condition.fold("none")(_.sql)}",
              expected), identity)
    }
    if (!kind.swapped) joined(left, right, hint)
    else {
      val join = joined(right, left, JoinHint(hint.rightHint, hint.leftHint))
      // A swapped join that keeps both sides outputs them swapped: back to left, then right.
      if (kind.keepsOneSide) join
      else Project(join.output.drop(right.output.size) ++ join.output.take(right.output.size), join)
    }
  }

  def unsupportedType(at: PlanPath, name: String): Throwable =
    SubstraitErrors.unsupported(at / "type", s"join type $name",
      "INNER, OUTER, LEFT, RIGHT, LEFT_SEMI, LEFT_ANTI, RIGHT_SEMI, RIGHT_ANTI, LEFT_SINGLE, RIGHT_SINGLE, LEFT_MARK or RIGHT_MARK")

  /**
   * The same table read on both sides (a self-join) yields the same attribute ids twice;
   * Catalyst needs them distinct, so the right side's columns get new ids.
   */
  private[rel] def distinctFrom(left: LogicalPlan, right: LogicalPlan): LogicalPlan =
    if (!right.outputSet.exists(left.outputSet.contains)) right else withNewIds(right)

  /** `plan`'s columns under new attribute ids. */
  private[rel] def withNewIds(plan: LogicalPlan): LogicalPlan =
    Project(plan.output.map(a => Alias(a, a.name)(): NamedExpression), plan)
}
