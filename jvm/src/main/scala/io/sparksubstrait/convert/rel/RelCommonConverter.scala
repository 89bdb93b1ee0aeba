package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message
import io.sparksubstrait.proto.{AdvancedExtension, RelCommon}
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * What every relation shares, applied once for every kind: emit (direct or remap) on the
 * converted relation; hints are advisory by the spec and do not change results; an
 * advanced-extension *enhancement* (on RelCommon or on the relation) changes semantics we
 * cannot know, so it is refused, while an *optimization* may be ignored by the spec.
 */
private[sparksubstrait] object RelCommonConverter {
  def apply[R <: Message](rel: R, at: PlanPath)(convert: (R, PlanPath) => LogicalPlan)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val common = field[RelCommon](rel, "common").getOrElse(RelCommon.getDefaultInstance)
    checkEnhancement(field[AdvancedExtension](rel, "advanced_extension"), at / "advanced_extension")
    checkEnhancement(Options.when(common.hasAdvancedExtension)(common.getAdvancedExtension),
      at / "common" / "advanced_extension")
    val plan = ctx.withRelation(Options.when(common.hasRelAnchor)(common.getRelAnchor))(convert(rel, at))
    common.getEmitKindCase match {
      case RelCommon.EmitKindCase.EMIT =>
        emit(plan, common.getEmit.getOutputMappingList.asScala.map(_.intValue).toSeq, at / "common" / "emit")
      case _ => plan
    }
  }

  /** A message field by its proto name, when set (all relations name these fields alike). */
  private def field[T](rel: Message, name: String): Option[T] =
    Option(rel.getDescriptorForType.findFieldByName(name)).filter(rel.hasField).map(f =>
      rel.getField(f).asInstanceOf[T])

  private def checkEnhancement(ext: Option[AdvancedExtension], at: PlanPath): Unit =
    ext.filter(_.hasEnhancement).foreach { e =>
      throw SubstraitErrors.unsupported(at / "enhancement", s"an enhancement of type ${e.getEnhancement.getTypeUrl}",
        "no enhancement (optimizations are ignored as the spec allows)")
    }

  /** Selects (and reorders, or repeats) output columns. */
  def emit(plan: LogicalPlan, mapping: Seq[Int], at: PlanPath): LogicalPlan = {
    val output = plan.output.toIndexedSeq // indexed by the mapping: constant time per column
    if (mapping == output.indices) return plan
    val seen = scala.collection.mutable.Set.empty[Attribute]
    val selected: Seq[NamedExpression] = mapping.zipWithIndex.map { case (i, k) =>
      if (i < 0 || i >= output.size) {
        throw SubstraitErrors.fieldReferenceOutOfRange(at.at("output_mapping", k), i, output.size)
      }
      val a = output(i)
      // A column repeated by the mapping gets a new identity: Catalyst needs unique ids.
      if (seen.add(a)) a else Alias(a, a.name)()
    }
    plan match {
      case Project(list, child) if mapping.distinct.size == mapping.size => Project(selectFrom(list, mapping), child)
      case _ => Project(selected, plan)
    }
  }

  /**
   * An emit on a projection selects the projection's own expressions. A column the
   * projection only passes on (a field reference, aliased there) becomes the bare input
   * attribute again: otherwise the alias, which renames, survives optimization as an extra
   * projection that Spark SQL's plan of the same query does not have.
   */
  private def selectFrom(list: Seq[NamedExpression], mapping: Seq[Int]): Seq[NamedExpression] = {
    val indexed = list.toIndexedSeq
    val chosen = mapping.map(indexed)
    val taken = scala.collection.mutable.Set.empty[Attribute]
    chosen.collect { case a: Attribute => taken += a }
    chosen.map {
      case Alias(a: Attribute, _) if taken.add(a) => a
      case other => other
    }
  }
}
