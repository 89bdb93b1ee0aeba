package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.LateralJoinRel
import io.sparksubstrait.proto.JoinRel.JoinType
import org.apache.spark.sql.catalyst.expressions.{Attribute, Literal, Not, OuterReference, Expression => CExpression}
import org.apache.spark.sql.catalyst.plans.{Inner, LeftOuter}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LateralJoin, LogicalPlan}
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.NestedOuterReferences
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * LateralJoinRel (spec 0.94+): the right input is evaluated once per left row and sees it
 * through outer references (`rel_reference` to this join's `rel_anchor`, or `steps_out` 1).
 *
 * INNER and LEFT are Spark's LATERAL joins; LEFT_SEMI and LEFT_ANTI keep the left rows for
 * which a right row (does not) match: a correlated EXISTS; LEFT_MARK appends JoinRel's mark.
 * Spark decorrelates all of them as it does the same SQL. The post-join filter applies to
 * each output record, as a FilterRel above the join would.
 */
private[sparksubstrait] object LateralJoinConverter {
  def convert(rel: LateralJoinRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!rel.hasLeft) throw SubstraitErrors.missingField(at, "left", "the left input relation")
    if (!rel.hasRight) throw SubstraitErrors.missingField(at, "right", "the right input relation")
    val left = RelConverter.convert(rel.getLeft, at / "left")
    val right = JoinConverter.distinctFrom(left,
      NestedOuterReferences.carried(ctx.withOuterScope(left.output)(RelConverter.convert(rel.getRight, at / "right"))))
    val condition = Options.when(rel.hasExpression)(
      FilterConverter.condition(rel.getExpression, left.output ++ right.output, at / "expression"))
    val joined = rel.getType match {
      case JoinType.JOIN_TYPE_INNER => lateral(left, right, Inner, condition)
      case JoinType.JOIN_TYPE_LEFT => lateral(left, right, LeftOuter, condition)
      case JoinType.JOIN_TYPE_LEFT_SEMI => Filter(exists(left, right, condition), left)
      case JoinType.JOIN_TYPE_LEFT_ANTI => Filter(Not(exists(left, right, condition)), left)
      case JoinType.JOIN_TYPE_LEFT_MARK => JoinConverter.markJoin(left, right, condition, markLeft = true)
      case JoinType.JOIN_TYPE_LEFT_SINGLE =>
        throw SubstraitErrors.unsupported(at / "type", "a LEFT_SINGLE lateral join",
          "INNER, LEFT, LEFT_SEMI, LEFT_ANTI or LEFT_MARK (Spark's lateral joins have no single-match form)")
      case JoinType.JOIN_TYPE_UNSPECIFIED => throw SubstraitErrors.missingField(at, "type", "a join type")
      case other => throw SubstraitErrors.invalidPlan(at / "type", s"join type ${other.name()} on a lateral join",
          "INNER, LEFT, LEFT_SEMI, LEFT_ANTI, LEFT_SINGLE or LEFT_MARK (the right input exists only per left row)")
    }
    if (!rel.hasPostJoinFilter) joined
    else Filter(FilterConverter.condition(rel.getPostJoinFilter, joined.output, at / "post_join_filter"), joined)
  }

  private def lateral(left: LogicalPlan, right: LogicalPlan, joinType: org.apache.spark.sql.catalyst.plans.JoinType,
    condition: Option[CExpression]): LogicalPlan =
    LateralJoin(left, SparkShim.lateralSubquery(right, outerOf(right)), joinType, condition)

  /** EXISTS (right rows matching this left row): left fields in the condition become outer references. */
  private def exists(left: LogicalPlan, right: LogicalPlan, condition: Option[CExpression]): CExpression = {
    val correlated = condition.getOrElse(Literal.TrueLiteral).transform {
      case a: Attribute if left.outputSet.contains(a) => OuterReference(a)
    }
    val plan = Filter(correlated, right)
    SparkShim.exists(plan, outerOf(plan))
  }

  private def outerOf(plan: LogicalPlan): Seq[CExpression] =
    plan.flatMap(_.expressions.flatMap(_.collect { case o: OuterReference => o.e: CExpression })).distinct
}
