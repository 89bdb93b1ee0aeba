package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{AggregateRel, Expression, Plan, ProjectRel, Rel, RelCommon}
import io.sparksubstrait.proto.Expression.{FieldReference, Literal, ReferenceSegment, SwitchExpression}

/**
 * DataFusion 43 and later write an aggregate of several grouping sets in their own column
 * order: the distinct grouping keys, then DataFusion's grouping id (a bit mask, a bit set
 * for each key the set does not group by, the first key the highest bit), then the
 * measures. The spec's: every grouping expression, the measures, then the grouping set's
 * index. The relations above read DataFusion's order (its own consumer reads them back the
 * same way), so the aggregate is lifted into a projection that gives them that order from
 * the spec's columns, the id computed from the index.
 */
private[sparksubstrait] object GroupingIdBeforeMeasures extends Reading {
  val name = "datafusion-grouping-id-before-measures"
  val releases = "DataFusion 43 to 55 (spec 0.58 to 0.85)"
  val meaning = "an aggregate of several grouping sets outputs its distinct keys, a grouping id bit mask, then the " +
    "measures (the spec: all keys, measures, then the set's index); read through a projection into that order"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("datafusion", "0.58", ProducerStamp.Newest)

  def lift(plan: Plan, found: String => Unit): Plan = MessageRewrite(plan) {
    case rel: Rel if rel.hasAggregate && applies(rel.getAggregate) =>
      found(s"AggregateRel of ${rel.getAggregate.getGroupingsCount} grouping sets")
      reorder(rel)
  }

  private def applies(agg: AggregateRel): Boolean =
    agg.getGroupingsCount > 1 && agg.getGroupingExpressionsCount > 0 && !agg.getCommon.hasEmit &&
      // A reference out of range is the plan's error, which AggregateConverter names.
      agg.getGroupingsList.asScala.forall(
        _.getExpressionReferencesList.asScala.forall(r => r >= 0 && r < agg.getGroupingExpressionsCount))

  private def reorder(rel: Rel): Rel = {
    val agg = rel.getAggregate
    val keys = agg.getGroupingExpressionsList.asScala.toSeq
    val sets =
      agg.getGroupingsList.asScala.toSeq.map(_.getExpressionReferencesList.asScala.toSeq.map(i => keys(i.intValue)))
    // The aggregate's output (AggregateConverter): the distinct expressions the sets name, the measures, the set's index.
    val distinct = sets.flatten.distinct
    val measures = agg.getMeasuresCount
    val setIndex = distinct.size + measures
    val masks = sets.map { set =>
      distinct.zipWithIndex.collect { case (k, d) if !set.contains(k) => 1L << (distinct.size - 1 - d) }.sum
    }
    val id = SwitchExpression.newBuilder().setMatch(field(setIndex))
    masks.init.zipWithIndex.foreach { case (mask, s) =>
      id.addIfs(SwitchExpression.IfValue.newBuilder().setIf(Literal.newBuilder().setI32(s)).setThen(maskLiteral(mask,
            distinct.size)))
    }
    id.setElse(maskLiteral(masks.last, distinct.size))
    val expressions = distinct.indices.map(field) ++
      Seq(Expression.newBuilder().setSwitchExpression(id).build()) ++
      (0 until measures).map(j => field(distinct.size + j))
    val width = setIndex + 1
    val emit = RelCommon.Emit.newBuilder()
    expressions.indices.foreach(i => emit.addOutputMapping(width + i))
    Rel.newBuilder().setProject(ProjectRel.newBuilder().setInput(rel).addAllExpressions(expressions.asJava)
        .setCommon(RelCommon.newBuilder().setEmit(emit))).build()
  }

  /**
   * DataFusion's id is the narrowest unsigned integer holding a bit per key (u8 up to 8 keys):
   * here the next wider signed one, as LayoutVariations reads DataFusion's unsigned literals.
   */
  private def maskLiteral(mask: Long, keys: Int): Expression = {
    val l = Literal.newBuilder().setNullable(false)
    if (keys <= 8) l.setI16(mask.toInt) else if (keys <= 16) l.setI32(mask.toInt) else l.setI64(mask)
    Expression.newBuilder().setLiteral(l).build()
  }

  private def field(i: Int): Expression = Expression.newBuilder().setSelection(FieldReference.newBuilder()
      .setDirectReference(
        ReferenceSegment.newBuilder().setStructField(ReferenceSegment.StructField.newBuilder().setField(i)))
      .setRootReference(FieldReference.RootReference.getDefaultInstance)).build()
}
