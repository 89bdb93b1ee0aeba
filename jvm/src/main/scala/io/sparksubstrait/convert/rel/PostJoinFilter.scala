package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.Expression
import org.apache.spark.sql.catalyst.expressions.{And, Expression => CExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.foundation.{PlanPath, SpecRelease}

/**
 * What a join's `post_join_filter` means, which the spec changed in release 0.91
 * (substrait-io/substrait#1044, "clarify post_join_filter"):
 *
 *  - From 0.91 on (and for plans stamped with no release): a filter on the join's output,
 *    "semantically equivalent to placing a FilterRel directly above this join", its field
 *    references over the join's direct output order (a semi / anti join's one side, a mark
 *    join's side and its mark). It never decides which rows match. Match predicates are
 *    JoinRel's `expression` and the physical joins' `residual_expression`.
 *  - Before 0.91 the spec read both ways: the logical page applied it "to each result record
 *    after the inputs have been joined", with references over the input order (left, then
 *    right); the physical page called it the hash / merge joins' secondary join condition;
 *    the FAQ said it is not a filter after the join. Plans of those releases get the one
 *    reading their references allow: on joins that keep both sides (inner, outer, single) a
 *    filter on the joined records, as the logical page says; on hash and merge joins, and on
 *    semi, anti and mark joins (whose output has no right-side fields to filter on), a match
 *    predicate ANDed to the join condition.
 */
private[sparksubstrait] object PostJoinFilter {

  /** The release whose protos say what the field means. */
  val ClarifiedIn: SpecRelease = SpecRelease.parse("0.91")

  /** Whether this plan's post-join filter is a match predicate (pre-0.91 joins that keep one side, and physical joins). */
  def isMatchPredicate(keepsOneSide: Boolean, physical: Boolean)(implicit ctx: ConversionContext): Boolean =
    (keepsOneSide || physical) && writtenBefore(ctx.specRelease)

  /** Whether a plan stamped `version` predates the clarification (an unstamped plan does not). */
  def writtenBefore(release: SpecRelease): Boolean = !release.isUnstamped && release < ClarifiedIn

  /** The filter over the join's output, its references over that output. */
  def above(join: LogicalPlan, filter: Expression, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan =
    Filter(FilterConverter.condition(filter, join.output, at), join)

  /** A match condition and a further match predicate over the same input record. */
  def and(condition: Option[CExpression], predicate: CExpression): CExpression =
    condition.fold(predicate)(And(_, predicate))
}
