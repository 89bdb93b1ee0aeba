package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.{Ascending, NullsFirst, SortOrder}
import org.apache.spark.sql.catalyst.plans.logical.Sort

import io.sparksubstrait.proto.{Rel, SortField, SortRel}
import io.sparksubstrait.proto.SortField.SortDirection
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.{ExpressionWriter, InputRecord}

/**
 * Sort: each key with its direction and NULL placement. A sort within partitions is written
 * as a full sort: its rows are the same, and a total order is one order Spark could give.
 */
private[sparksubstrait] object SortWriter {
  def write(s: Sort, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val input = RelWriter.write(s.child, at)
    val b = SortRel.newBuilder().setInput(input)
    s.order.zipWithIndex.foreach { case (o, i) =>
      b.addSorts(field(o, InputRecord(s.child.output), at / s"sort key $i"))
    }
    Rel.newBuilder().setSort(b).build()
  }

  def field(o: SortOrder, record: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SortField = {
    val direction = (o.direction, o.nullOrdering) match {
      case (Ascending, NullsFirst) => SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST
      case (Ascending, _) => SortDirection.SORT_DIRECTION_ASC_NULLS_LAST
      case (_, NullsFirst) => SortDirection.SORT_DIRECTION_DESC_NULLS_FIRST
      case _ => SortDirection.SORT_DIRECTION_DESC_NULLS_LAST
    }
    SortField.newBuilder().setExpr(ExpressionWriter.write(o.child, record, at)).setDirection(direction).build()
  }
}
