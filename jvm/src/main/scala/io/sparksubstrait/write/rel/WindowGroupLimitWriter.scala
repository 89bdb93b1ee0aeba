package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.{
  Alias, CurrentRow, LessThanOrEqual, Literal, RowFrame, SpecifiedWindowFrame, UnboundedPreceding, WindowExpression,
  WindowSpecDefinition
}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, Project, Window, WindowGroupLimit}

import io.sparksubstrait.proto.Rel
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * WindowGroupLimit, the optimizer's early stop under a Window whose rank is filtered above
 * (InferWindowGroupLimit): the child's rows whose rank-like function (row_number, rank or
 * dense_rank over the partition and order) is at most the limit. Written as exactly that: the
 * function as a window column over the child, a filter on it, and a projection back to the
 * child's columns, so the written plan is right whatever stays above it.
 */
private[sparksubstrait] object WindowGroupLimitWriter {
  def write(w: WindowGroupLimit, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    // The frame InferWindowGroupLimit requires of the window above (it counts the rows before).
    val frame = SpecifiedWindowFrame(RowFrame, UnboundedPreceding, CurrentRow)
    val rank = Alias(WindowExpression(w.rankLikeFunction, WindowSpecDefinition(w.partitionSpec, w.orderSpec, frame)),
      "spark_substrait_group_rank")()
    val ranked = Window(Seq(rank), w.partitionSpec, w.orderSpec, w.child)
    val kept = Filter(LessThanOrEqual(rank.toAttribute, Literal(w.limit)), ranked)
    RelWriter.write(Project(w.child.output, kept), at)
  }
}
