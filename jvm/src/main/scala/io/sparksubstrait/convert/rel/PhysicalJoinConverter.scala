package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{ComparisonJoinKey, Expression, HashJoinRel, MergeJoinRel, NestedLoopJoinRel}
import io.sparksubstrait.proto.ComparisonJoinKey.SimpleComparisonType
import org.apache.spark.sql.catalyst.expressions.{And, EqualNullSafe, EqualTo, IsNull, Or, Expression => CExpression}
import org.apache.spark.sql.catalyst.plans.logical.{HintInfo, JoinHint, LogicalPlan, SHUFFLE_HASH, SHUFFLE_MERGE}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.FieldReferenceConverter
import io.sparksubstrait.convert.rel.JoinConverter._
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * The physical joins become the same Catalyst joins as JoinRel: key comparisons AND the
 * residual expression decide the matches; the post-join filter filters the output (its
 * meaning before spec 0.91 in [[PostJoinFilter]]). Hash and merge joins carry their strategy
 * as a Spark join hint (shuffle-hash on the build side, sort-merge), advisory as hints are.
 */
private[sparksubstrait] object PhysicalJoinConverter {
  def convertHash(rel: HashJoinRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val kind = physicalKind(rel.getTypeValue, at)
    val (left, right) = sides(rel.hasLeft, rel.getLeft, rel.hasRight, rel.getRight, at)
    val keys = keyCondition(rel.getKeysList.asScala.toSeq, left, right, at)
    val shuffleHash = Some(HintInfo(strategy = Some(SHUFFLE_HASH)))
    val hint = rel.getBuildInput match {
      case HashJoinRel.BuildInput.BUILD_INPUT_LEFT => JoinHint(shuffleHash, None)
      case _ => JoinHint(None, shuffleHash)
    }
    val residual = Options.when(rel.hasResidualExpression)(rel.getResidualExpression)
    val post = Options.when(rel.hasPostJoinFilter)(rel.getPostJoinFilter)
    keyed(left, right, kind, keys, residual, post, hint, at)
  }

  def convertMerge(rel: MergeJoinRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val kind = physicalKind(rel.getTypeValue, at)
    val (left, right) = sides(rel.hasLeft, rel.getLeft, rel.hasRight, rel.getRight, at)
    val keys = keyCondition(rel.getKeysList.asScala.toSeq, left, right, at)
    val residual = Options.when(rel.hasResidualExpression)(rel.getResidualExpression)
    val post = Options.when(rel.hasPostJoinFilter)(rel.getPostJoinFilter)
    keyed(left, right, kind, keys, residual, post, JoinHint(Some(HintInfo(strategy = Some(SHUFFLE_MERGE))), None), at)
  }

  /**
   * A hash or merge join: a pair matches when every key comparison and the residual
   * expression are true (both over the left fields, then the right ones); the post-join
   * filter then filters the join's output (before spec 0.91: one more match predicate,
   * see [[PostJoinFilter]]).
   */
  private def keyed(left: LogicalPlan, right: LogicalPlan, kind: PhysicalKind, keys: CExpression,
    residual: Option[Expression],
    post: Option[Expression], hint: JoinHint, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val both = left.output ++ right.output
    val matching = keys +: residual.map(FilterConverter.condition(_, both, at / "residual_expression")).toSeq
    val postAt = at / "post_join_filter"
    post match {
      case Some(p) if PostJoinFilter.isMatchPredicate(keepsOneSide = false, physical = true) =>
        join(left, right, kind, Some(and(matching :+ FilterConverter.condition(p, both, postAt))), hint)
      case Some(p) => PostJoinFilter.above(join(left, right, kind, Some(and(matching)), hint), p, postAt)
      case None => join(left, right, kind, Some(and(matching)), hint)
    }
  }

  def convertNestedLoop(rel: NestedLoopJoinRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val kind = physicalKind(rel.getTypeValue, at)
    val (left, right) = sides(rel.hasLeft, rel.getLeft, rel.hasRight, rel.getRight, at)
    // Without an expression the join is a cartesian product (the spec's default: true).
    val condition = Options.when(rel.hasExpression)(FilterConverter.condition(rel.getExpression,
        left.output ++ right.output, at / "expression"))
    join(left, right, kind, condition, JoinHint.NONE)
  }

  /**
   * Mark joins have no Catalyst join type: they become JoinRel's EXISTS form, where a strategy
   * hint has nothing to attach to; the match condition decides the mark.
   */
  private def join(left: LogicalPlan, right: LogicalPlan, kind: PhysicalKind, condition: Option[CExpression],
    hint: JoinHint): LogicalPlan =
    kind match {
      case Catalyst(k) => build(left, right, k, condition, hint)
      case Mark(markLeft) => markJoin(left, right, condition, markLeft)
    }

  /** What a physical join type becomes: a Catalyst join, or a mark join. */
  private sealed trait PhysicalKind
  private final case class Catalyst(kind: JoinKind) extends PhysicalKind
  private final case class Mark(markLeft: Boolean) extends PhysicalKind

  /** HashJoinRel, MergeJoinRel and NestedLoopJoinRel share one JoinType numbering (unlike JoinRel's). */
  private def physicalKind(value: Int, at: PlanPath): PhysicalKind = value match {
    case 1 => Catalyst(InnerJoin)
    case 2 => Catalyst(FullJoin)
    case 3 => Catalyst(LeftJoin)
    case 4 => Catalyst(RightJoin)
    case 5 => Catalyst(LeftSemiJoin)
    case 6 => Catalyst(RightSemiJoin)
    case 7 => Catalyst(LeftAntiJoin)
    case 8 => Catalyst(RightAntiJoin)
    case 9 => Catalyst(singleJoin(swapped = false, at, "LEFT_SINGLE"))
    case 10 => Catalyst(singleJoin(swapped = true, at, "RIGHT_SINGLE"))
    case 11 => Mark(markLeft = true)
    case 12 => Mark(markLeft = false)
    case 0 => throw SubstraitErrors.missingField(at, "type", "a join type")
    case other => throw SubstraitErrors.invalidPlan(at / "type", s"join type $other", "a join type of the spec")
  }

  /** The key comparisons (the decoder lifted older plans' left_keys / right_keys into them). */
  private def keyCondition(keys: Seq[ComparisonJoinKey], left: LogicalPlan, right: LogicalPlan, at: PlanPath)(
    implicit ctx: ConversionContext): CExpression = {
    val pairs: Seq[(CExpression, CExpression, SimpleComparisonType)] =
      keys.zipWithIndex.map { case (k, i) =>
        val kAt = at.at("keys", i)
        val comparison = k.getComparison.getInnerTypeCase match {
          case ComparisonJoinKey.ComparisonType.InnerTypeCase.SIMPLE => k.getComparison.getSimple
          case ComparisonJoinKey.ComparisonType.InnerTypeCase.CUSTOM_FUNCTION_REFERENCE =>
            throw SubstraitErrors.unsupported(kAt / "comparison" / "custom_function_reference",
              "a custom key comparison function",
              "EQ, IS_NOT_DISTINCT_FROM or MIGHT_EQUAL")
          case _ => throw SubstraitErrors.missingField(kAt / "comparison", "inner_type", "how the keys compare")
        }
        (FieldReferenceConverter.convert(k.getLeft, left.output, kAt / "left"),
          FieldReferenceConverter.convert(k.getRight, right.output, kAt / "right"), comparison)
      }
    if (pairs.isEmpty) throw SubstraitErrors.missingField(at, "keys", "one or more join keys")
    and(pairs.zipWithIndex.map { case ((l, r, comparison), i) =>
      comparison match {
        case SimpleComparisonType.SIMPLE_COMPARISON_TYPE_EQ => EqualTo(l, r)
        case SimpleComparisonType.SIMPLE_COMPARISON_TYPE_IS_NOT_DISTINCT_FROM => EqualNullSafe(l, r)
        // True when equal, and when either side is NULL.
        case SimpleComparisonType.SIMPLE_COMPARISON_TYPE_MIGHT_EQUAL => Or(EqualTo(l, r), IsNull(EqualTo(l, r)))
        case other =>
          throw SubstraitErrors.invalidPlan(at.at("keys", i) / "comparison" / "simple", s"comparison ${other.name()}",
            "EQ, IS_NOT_DISTINCT_FROM or MIGHT_EQUAL")
      }
    })
  }

  private def and(conditions: Seq[CExpression]): CExpression = conditions.reduce(And(_, _))
}
