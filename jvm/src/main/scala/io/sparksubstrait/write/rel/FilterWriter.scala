package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.plans.logical.Filter

import io.sparksubstrait.proto.{FilterRel, Rel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.{ExpressionWriter, InputRecord}

/** Filter: its condition over the child's record (subqueries in it see that record). */
private[sparksubstrait] object FilterWriter {
  def write(f: Filter, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val input = RelWriter.write(f.child, at)
    val condition = ExpressionWriter.write(f.condition, InputRecord(f.child.output), at / "condition")
    Rel.newBuilder().setFilter(FilterRel.newBuilder().setInput(input).setCondition(condition)).build()
  }
}
