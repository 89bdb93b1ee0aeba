package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.plans.logical.Window

import io.sparksubstrait.proto.{ProjectRel, Rel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.{ExpressionWriter, InputRecord}

/**
 * Window: a ProjectRel appending one window function expression per window column to the
 * child's record, which is Catalyst's output (the child's columns, then the window's).
 */
private[sparksubstrait] object WindowWriter {
  def write(w: Window, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val input = RelWriter.write(w.child, at)
    val record = InputRecord(w.child.output)
    val b = ProjectRel.newBuilder().setInput(input).setCommon(RelCommons.direct)
    w.windowExpressions.foreach(e =>
      b.addExpressions(ExpressionWriter.write(e, record, at / s"window column ${e.name}")))
    Rel.newBuilder().setProject(b).build()
  }
}
