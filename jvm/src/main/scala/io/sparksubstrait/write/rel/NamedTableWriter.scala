package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.catalog.{CatalogTable, HiveTableRelation}
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, View}
import org.apache.spark.sql.execution.datasources.LogicalRelation
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{ReadRel, Rel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * Catalog tables and views as NamedTable, named as the session catalog names them (a temp
 * view by its name; a table by database and name), so a consumer resolves the same name in
 * its own catalog. Views appear in analyzed plans only: the optimizer inlines them, and the
 * optimized plan is then written from what the view reads (docs/writing.md).
 */
private[sparksubstrait] object NamedTableWriter {
  def view(v: View, at: CatalystPath)(implicit ctx: WriteContext): Rel = named(nameOf(v.desc), v.output, at)

  def isCatalogTable(p: LogicalPlan): Boolean = p match {
    case l: LogicalRelation => l.catalogTable.isDefined
    case _: HiveTableRelation => true
    case d: DataSourceV2Relation => d.identifier.isDefined && d.catalog.isDefined
    case _ => false
  }

  def table(p: LogicalPlan, at: CatalystPath)(implicit ctx: WriteContext): Rel = p match {
    case l: LogicalRelation => named(nameOf(l.catalogTable.get), l.output, at)
    case h: HiveTableRelation => named(nameOf(h.tableMeta), h.output, at)
    case d: DataSourceV2Relation =>
      val id = d.identifier.get
      named(d.catalog.get.name +: id.namespace.toSeq :+ id.name, d.output, at)
    case other =>
      throw SubstraitErrors.unwritable(at.toString, other.nodeName, "it is not a catalog table", "a catalog table")
  }

  private def nameOf(t: CatalogTable): Seq[String] = t.identifier.database.toSeq :+ t.identifier.table

  private def named(names: Seq[String], output: Seq[Attribute], at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val table = ReadRel.NamedTable.newBuilder()
    names.foreach(table.addNames)
    Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(BaseSchemas.of(output, at)).setNamedTable(
        table)).build()
  }
}
