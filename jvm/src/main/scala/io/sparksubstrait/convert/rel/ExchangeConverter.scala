package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.ExchangeRel
import io.sparksubstrait.proto.ExchangeRel.ExchangeKindCase
import org.apache.spark.sql.catalyst.expressions.{Cast, Literal, Pmod}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Repartition, RepartitionByExpression}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.{ByteType, DataType, IntegerType, LongType, ShortType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.{ExpressionConverter, FieldReferenceConverter}
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * ExchangeRel: redistributes rows without changing them. Scatter by fields is Spark's
 * hash repartitioning, round robin its round-robin repartitioning, a single bucket expression
 * its repartitioning by partition id (Spark 4.1+); partition_count 0 leaves the count to
 * Spark. Exchanges Spark cannot express as a repartitioning of the same rows (several buckets
 * per record, broadcast, explicit targets) are refused.
 */
private[sparksubstrait] object ExchangeConverter {
  def convert(rel: ExchangeRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    if (rel.getTargetsCount > 0) {
      throw SubstraitErrors.unsupported(at.at("targets", 0), "exchange targets",
        "an exchange within Spark (no targets)")
    }
    if (rel.getPartitionCount < 0) {
      throw SubstraitErrors.invalidPlan(at / "partition_count", s"partition count ${rel.getPartitionCount}",
        "0 or more")
    }
    val count = Option(rel.getPartitionCount).filter(_ > 0)
    rel.getExchangeKindCase match {
      case ExchangeKindCase.SCATTER_BY_FIELDS =>
        val fields = rel.getScatterByFields.getFieldsList.asScala.toSeq.zipWithIndex.map { case (f, i) =>
          FieldReferenceConverter.convert(f, child.output, (at / "scatter_by_fields").at("fields", i))
        }
        if (fields.isEmpty)
          throw SubstraitErrors.invalidPlan(at / "scatter_by_fields", "no fields", "one or more fields to hash")
        RepartitionByExpression(fields, child, count)
      case ExchangeKindCase.SINGLE_TARGET => singleBucket(rel.getSingleTarget, child, count, at / "single_target")
      case ExchangeKindCase.ROUND_ROBIN =>
        Repartition(count.getOrElse(ctx.conf.numShufflePartitions), shuffle = true, child)
      case ExchangeKindCase.EXCHANGEKIND_NOT_SET =>
        throw SubstraitErrors.missingField(at, "exchange_kind", "how rows are exchanged")
      case other => throw SubstraitErrors.unsupported(at / other.name().toLowerCase,
          s"a ${other.name().toLowerCase} exchange",
          "scatter_by_fields, single_target or round_robin (a record sent to several partitions is duplicated rows)")
    }
  }

  /**
   * Each record to the bucket its expression computes (Spark 4.1+). The spec leaves numbers
   * outside [0, count) undefined; they are taken modulo the count (Spark's own rule for a NULL
   * is partition 0). Which partition a row lands in changes no row.
   */
  private def singleBucket(target: ExchangeRel.SingleBucketExpression, child: LogicalPlan, count: Option[Int],
    at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!target.hasExpression) throw SubstraitErrors.missingField(at, "expression", "the bucket number of each record")
    val bucket = ExpressionConverter.convert(target.getExpression, child.output, at / "expression")
    if (!Set[DataType](ByteType, ShortType, IntegerType, LongType)(bucket.dataType)) {
      throw SubstraitErrors.typeMismatch(at / "expression",
        s"a bucket number of type ${SparkTypeNames.of(bucket.dataType)}",
        "an integer (i8, i16, i32 or i64)")
    }
    val partitions = count.getOrElse(ctx.conf.numShufflePartitions)
    val inRange = Cast(Pmod(Cast(bucket, LongType), Literal(partitions.toLong)), IntegerType)
    val byId = SparkShim.partitionById(inRange).fold(
      needs => throw SubstraitErrors.unsupported(at, "an exchange to computed buckets", needs), identity)
    RepartitionByExpression(Seq(byId), child, Some(partitions))
  }
}
