package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{FetchMode, TopNRel}
import org.apache.spark.sql.catalyst.expressions.{
  Alias, And, CurrentRow, GreaterThan, If, LessThanOrEqual, Literal, NamedExpression, Rank, RowFrame, RowNumber,
  SortOrder, SpecifiedWindowFrame, UnboundedFollowing, UnboundedPreceding, WindowExpression, WindowSpecDefinition
}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Complete, Max}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan, Project, Sort}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.IntegerType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * TopNRel: the input in the order of its sort fields, less `offset` records, at most `count`
 * of them ([[FetchBounds]]). ROWS_ONLY is Spark's ORDER BY … OFFSET … LIMIT (a top-N sort).
 *
 * WITH_TIES also returns the records that tie, on every sort field, with the last one
 * returned. Spark has no such limit, so it is a window: each record's position (row_number)
 * and rank in the order; the rank of the record at position offset + count bounds the
 * ranks kept, and positions up to the offset are skipped. NULL sort keys tie with each
 * other, as the order puts them together.
 */
private[sparksubstrait] object TopNConverter {
  def convert(rel: TopNRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val orders = rel.getSortsList.asScala.toSeq.zipWithIndex.map { case (f, i) =>
      SortConverter.order(f, child.output, at.at("sorts", i))
    }
    if (orders.isEmpty) throw SubstraitErrors.missingField(at, "sorts", "one or more sort fields")
    val bounds = FetchBounds.read(Options.when(rel.hasOffset)(rel.getOffset), at / "offset",
      Options.when(rel.hasCount)(rel.getCount), at / "count")
    rel.getMode match {
      case FetchMode.FETCH_MODE_ROWS_ONLY => bounds.applyTo(Sort(orders, global = true, child))
      case FetchMode.FETCH_MODE_WITH_TIES => bounds.count match {
          case None => bounds.applyTo(Sort(orders, global = true, child))
          case Some(count) => withTies(child, orders, bounds.offset, count, at)
        }
      case FetchMode.FETCH_MODE_UNSPECIFIED => throw SubstraitErrors.missingField(at, "mode", "ROWS_ONLY or WITH_TIES")
      case other => throw SubstraitErrors.invalidPlan(at / "mode", s"mode ${other.name()}", "ROWS_ONLY or WITH_TIES")
    }
  }

  private def withTies(child: LogicalPlan, orders: Seq[SortOrder], offset: Long, count: Long, at: PlanPath)
    : LogicalPlan = {
    val last = FetchBounds.toInt(offset + count, at / "count")
    val upToCurrent = SpecifiedWindowFrame(RowFrame, UnboundedPreceding, CurrentRow)
    val position =
      Alias(WindowExpression(RowNumber(), WindowSpecDefinition(Nil, orders, upToCurrent)), "topn_position")()
    val rank =
      Alias(WindowExpression(Rank(orders.map(_.child)), WindowSpecDefinition(Nil, orders, upToCurrent)), "topn_rank")()
    val ranked = SparkShim.window(Seq(position, rank), Nil, orders, child)
    // The rank of the last record returned: the greatest rank among positions up to offset + count.
    val lastRank = Alias(
      WindowExpression(
        AggregateExpression(Max(If(LessThanOrEqual(position.toAttribute, Literal(last)), rank.toAttribute,
              Literal(null, IntegerType))),
          Complete, isDistinct = false),
        WindowSpecDefinition(Nil, Nil, SpecifiedWindowFrame(RowFrame, UnboundedPreceding, UnboundedFollowing))),
      "topn_last_rank")()
    val bounded = SparkShim.window(Seq(lastRank), Nil, Nil, ranked)
    val kept = Filter(And(GreaterThan(position.toAttribute, Literal(FetchBounds.toInt(offset, at / "offset"))),
        LessThanOrEqual(rank.toAttribute, lastRank.toAttribute)), bounded)
    val output: Seq[NamedExpression] = child.output
    Project(output, Sort(orders, global = true, kept))
  }
}
