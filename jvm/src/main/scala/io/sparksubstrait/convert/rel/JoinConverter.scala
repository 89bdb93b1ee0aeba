package io.sparksubstrait.convert.rel

import io.substrait.proto.{CrossRel, JoinRel}
import io.substrait.proto.JoinRel.JoinType
import org.apache.spark.sql.catalyst.expressions.{Alias, NamedExpression}
import org.apache.spark.sql.catalyst.plans.{Cross, FullOuter, Inner, JoinType => CJoinType, LeftAnti, LeftOuter, LeftSemi, RightOuter}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, Join, JoinHint, LogicalPlan, Project}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/**
 * JoinRel and CrossRel. The condition and the post-join filter see the left fields followed
 * by the right ones. Right semi / anti joins are left ones with the sides swapped (their
 * output is the right input's fields).
 */
object JoinConverter {
  def convert(rel: JoinRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!rel.hasLeft) throw SubstraitErrors.missingField(at, "left", "the left input relation")
    if (!rel.hasRight) throw SubstraitErrors.missingField(at, "right", "the right input relation")
    val left = RelConverter.convert(rel.getLeft, at / "left")
    val right = distinctFrom(left, RelConverter.convert(rel.getRight, at / "right"))
    val both = left.output ++ right.output
    val condition = Option.when(rel.hasExpression)(FilterConverter.condition(rel.getExpression, both, at / "expression"))
    val postFilter = Option.when(rel.hasPostJoinFilter)(FilterConverter.condition(rel.getPostJoinFilter, both, at / "post_join_filter"))
    val (joinType, swap) = rel.getType match {
      case JoinType.JOIN_TYPE_INNER => (Inner, false)
      case JoinType.JOIN_TYPE_OUTER => (FullOuter, false)
      case JoinType.JOIN_TYPE_LEFT => (LeftOuter, false)
      case JoinType.JOIN_TYPE_RIGHT => (RightOuter, false)
      case JoinType.JOIN_TYPE_LEFT_SEMI => (LeftSemi, false)
      case JoinType.JOIN_TYPE_LEFT_ANTI => (LeftAnti, false)
      case JoinType.JOIN_TYPE_RIGHT_SEMI => (LeftSemi, true)
      case JoinType.JOIN_TYPE_RIGHT_ANTI => (LeftAnti, true)
      case JoinType.JOIN_TYPE_UNSPECIFIED => throw SubstraitErrors.missingField(at, "type", "a join type")
      case other => throw SubstraitErrors.unsupported(at / "type", s"join type ${other.name()}",
        "INNER, OUTER, LEFT, RIGHT, LEFT_SEMI, LEFT_ANTI, RIGHT_SEMI or RIGHT_ANTI (single and mark joins are not yet supported)")
    }
    val join = if (swap) Join(right, left, joinType, condition, JoinHint.NONE) else Join(left, right, joinType, condition, JoinHint.NONE)
    postFilter match {
      case None => join
      // After a semi or anti join the right (or left) fields no longer exist to filter on.
      case Some(_) if joinType == LeftSemi || joinType == LeftAnti =>
        throw SubstraitErrors.unsupported(at / "post_join_filter", s"a post-join filter on a ${rel.getType.name()} join",
          "a post-join filter only on inner and outer joins")
      case Some(f) => Filter(f, join)
    }
  }

  def convertCross(rel: CrossRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!rel.hasLeft) throw SubstraitErrors.missingField(at, "left", "the left input relation")
    if (!rel.hasRight) throw SubstraitErrors.missingField(at, "right", "the right input relation")
    val left = RelConverter.convert(rel.getLeft, at / "left")
    val right = distinctFrom(left, RelConverter.convert(rel.getRight, at / "right"))
    Join(left, right, Cross: CJoinType, None, JoinHint.NONE)
  }

  /**
   * The same table read on both sides (a self-join) yields the same attribute ids twice;
   * Catalyst needs them distinct, so the right side's columns get new ids.
   */
  private[rel] def distinctFrom(left: LogicalPlan, right: LogicalPlan): LogicalPlan =
    if (!right.outputSet.exists(left.outputSet.contains)) right
    else Project(right.output.map(a => Alias(a, a.name)(): NamedExpression), right)
}
