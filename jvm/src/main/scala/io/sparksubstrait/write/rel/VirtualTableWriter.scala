package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, OneRowRelation}

import io.sparksubstrait.proto.{Expression => SExpression, ReadRel, Rel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.LiteralWriter

/**
 * Local data (VALUES, createDataFrame of a local Seq) as a VirtualTable: one struct of
 * literals per row (the `expressions` form; older consumers read the `values` structs).
 */
private[sparksubstrait] object VirtualTableWriter {

  /** A SELECT without FROM reads one row of no columns: a virtual table of one empty row. */
  def oneRow(o: OneRowRelation, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    write(LocalRelation(o.output, Seq(InternalRow.empty)), at)

  def write(l: LocalRelation, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val vt = ReadRel.VirtualTable.newBuilder()
    l.data.zipWithIndex.foreach { case (row, r) =>
      val values = l.output.zipWithIndex.map { case (a, i) =>
        LiteralWriter.value(row.get(i, a.dataType), a.dataType, a.nullable, at / s"row $r column ${a.name}")
      }
      if (ctx.target.legacyValues) {
        val s = SExpression.Literal.Struct.newBuilder()
        values.foreach(s.addFields)
        vt.addValues(s)
      } else {
        val s = SExpression.Nested.Struct.newBuilder()
        values.foreach(v => s.addFields(SExpression.newBuilder().setLiteral(v)))
        vt.addExpressions(s)
      }
    }
    Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(BaseSchemas.of(l.output, at)).setVirtualTable(
        vt)).build()
  }
}
