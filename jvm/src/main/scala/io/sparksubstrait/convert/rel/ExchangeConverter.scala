package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.substrait.proto.ExchangeRel
import io.substrait.proto.ExchangeRel.ExchangeKindCase
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Repartition, RepartitionByExpression}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.FieldReferenceConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/**
 * ExchangeRel: redistributes rows without changing them. Scatter by fields is Spark's
 * hash repartitioning, round robin its round-robin repartitioning; partition_count 0 leaves
 * the count to Spark. Exchanges Spark cannot express as a repartitioning of the same rows
 * (computed bucket targets, broadcast, explicit targets) are refused.
 */
object ExchangeConverter {
  def convert(rel: ExchangeRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    if (rel.getTargetsCount > 0) {
      throw SubstraitErrors.unsupported(at.at("targets", 0), "exchange targets", "an exchange within Spark (no targets)")
    }
    if (rel.getPartitionCount < 0) {
      throw SubstraitErrors.invalidPlan(at / "partition_count", s"partition count ${rel.getPartitionCount}", "0 or more")
    }
    val count = Option(rel.getPartitionCount).filter(_ > 0)
    rel.getExchangeKindCase match {
      case ExchangeKindCase.SCATTER_BY_FIELDS =>
        val fields = rel.getScatterByFields.getFieldsList.asScala.toSeq.zipWithIndex.map { case (f, i) =>
          FieldReferenceConverter.convert(f, child.output, (at / "scatter_by_fields").at("fields", i))
        }
        if (fields.isEmpty) throw SubstraitErrors.invalidPlan(at / "scatter_by_fields", "no fields", "one or more fields to hash")
        RepartitionByExpression(fields, child, count)
      case ExchangeKindCase.ROUND_ROBIN =>
        Repartition(count.getOrElse(ctx.conf.numShufflePartitions), shuffle = true, child)
      case ExchangeKindCase.EXCHANGEKIND_NOT_SET => throw SubstraitErrors.missingField(at, "exchange_kind", "how rows are exchanged")
      case other => throw SubstraitErrors.unsupported(at / other.name().toLowerCase, s"a ${other.name().toLowerCase} exchange",
        "scatter_by_fields or round_robin")
    }
  }
}
