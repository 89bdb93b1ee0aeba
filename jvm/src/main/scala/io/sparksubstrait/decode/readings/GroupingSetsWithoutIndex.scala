package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{AggregateRel, Plan, Rel, RelCommon}

/**
 * The spec appends a grouping set's index to the output of an aggregate of several grouping
 * sets. DataFusion before 43 and isthmus before 0.73 write such an aggregate from their own
 * plan, whose schema has no such column (DataFusion's Aggregate, Calcite's): everything above
 * it numbers the aggregate's columns without the index — the root's names count one column
 * less (`SELECT dept, active, COUNT(*) … GROUP BY GROUPING SETS …`), a join above it numbers
 * the other side's columns one lower. DataFusion's own consumer reads such a plan back as the
 * keys and the measures; isthmus 0.73 writes the same aggregate with an emit of them. So the
 * aggregate is read with that emit: every relation above then reads the columns it numbered.
 * An aggregate that has an emit already says which columns it outputs, and is left alone.
 */
private[sparksubstrait] final case class GroupingSetsWithoutIndex(name: String, releases: String,
  applies: ProducerStamp => Boolean)
    extends LiftsOneAtATime {
  val meaning = "an AggregateRel of several grouping sets outputs its keys and measures only, without the " +
    "grouping set index the spec appends (the relations above and the root's names count without it); read with " +
    "an emit of the keys and measures"

  def appliesTo(stamp: ProducerStamp): Boolean = applies(stamp)
  override val needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set(AggregateRel.getDescriptor)

  def rewrite(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Message]] = Some {
    case (rel: Rel, _) if rel.hasAggregate && withoutEmit(rel.getAggregate) && RelArity.of(rel).isDefined =>
      val agg = rel.getAggregate
      // keys + measures + the index (RelArity counts the distinct keys as AggregateConverter does).
      val width = RelArity.of(rel).getOrElse(0)
      val emit = RelCommon.Emit.newBuilder()
      (0 until width - 1).foreach(i => emit.addOutputMapping(i))
      found(s"AggregateRel of ${agg.getGroupingsCount} grouping sets: ${width - 1} columns, its index dropped")
      rel.toBuilder.setAggregate(agg.toBuilder.setCommon(agg.getCommon.toBuilder.setEmit(emit))).build()
  }

  private def withoutEmit(agg: AggregateRel): Boolean =
    agg.getGroupingsCount > 1 && !agg.getCommon.hasEmit &&
      // A reference out of range is the plan's error, which AggregateConverter names (RelArity would skip it).
      agg.getGroupingsList.asScala.forall(
        _.getExpressionReferencesList.asScala.forall(r => r >= 0 && r < agg.getGroupingExpressionsCount))
}
