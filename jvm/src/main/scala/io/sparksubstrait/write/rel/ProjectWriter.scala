package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.{Expression, Literal, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.Project

import io.sparksubstrait.proto.{ProjectRel, Rel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.{ExpressionWriter, InputRecord}

/**
 * Project: a ProjectRel appends its expressions to the input record; the emit keeps only
 * them, in order, which is Catalyst's projection.
 */
private[sparksubstrait] object ProjectWriter {
  def write(p: Project, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    project(RelWriter.write(p.child, at), InputRecord(p.child.output), p.projectList, at)

  /** `input` (a relation whose record is `record`) with `columns` computed over it, as the only output. */
  def project(input: Rel, record: InputRecord, columns: Seq[Expression], at: CatalystPath)(
    implicit ctx: WriteContext): Rel = {
    val b =
      ProjectRel.newBuilder().setInput(input).setCommon(RelCommons.emit(record.size until record.size + columns.size))
    columns.zipWithIndex.foreach { case (e, i) =>
      val name = e match { case n: NamedExpression => n.name; case _ => s"#$i" }
      b.addExpressions(ExpressionWriter.write(e, record, at / s"column $name"))
    }
    // No columns (Catalyst's `Project []` under a count(*)): a ProjectRel needs at least one
    // expression, so one constant is computed and the (empty) emit drops it.
    if (columns.isEmpty) b.addExpressions(ExpressionWriter.write(Literal.TrueLiteral, record, at / "no column"))
    Rel.newBuilder().setProject(b).build()
  }
}
