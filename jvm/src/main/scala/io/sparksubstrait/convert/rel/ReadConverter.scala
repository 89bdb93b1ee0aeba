package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{NamedStruct, ReadRel, Type}
import io.sparksubstrait.proto.ReadRel.ReadTypeCase
import org.apache.spark.sql.catalyst.expressions.{Alias, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan, Project}
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.{FieldReferenceConverter, MaskConverter}
import io.sparksubstrait.convert.types.TypeConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * ReadRel: the base relation (named table or virtual table) laid out as `base_schema`,
 * then `filter` and `best_effort_filter` (both over base_schema fields; applying the
 * best-effort one fully is always correct), then the `projection` mask.
 */
private[sparksubstrait] object ReadConverter {
  def convert(rel: ReadRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!rel.hasBaseSchema) throw SubstraitErrors.missingField(at, "base_schema", "the schema of the data read")
    // A relation's rows are never NULL as a whole: a nullable outer struct says they may be. Unset (what DataFusion
    // 31 to 43 write) is not nullable and is read as required.
    if (rel.getBaseSchema.getStruct.getNullability == Type.Nullability.NULLABILITY_NULLABLE) {
      throw SubstraitErrors.invalidPlan(at / "base_schema" / "struct" / "nullability", "a nullable outer struct",
        "NULLABILITY_REQUIRED (spec: type.proto, NamedStruct: 'when used to represent a relation schema, the " +
          "outermost struct's nullability should be NULLABILITY_REQUIRED')")
    }
    val schema = baseSchema(rel.getBaseSchema, at / "base_schema")
    // The unsigned integers are held in signed Spark types (u8 in a short): a column declared
    // so is read only from a column of that same Spark type, never narrowed or widened into it.
    val exactOnly = rel.getBaseSchema.getStruct.getTypesList.asScala.zipWithIndex.collect {
      case (t, i) if t.hasUserDefined => i
    }.toSet
    val base = rel.getReadTypeCase match {
      case ReadTypeCase.NAMED_TABLE =>
        NamedTableReader.read(rel.getNamedTable, schema, exactOnly, at / "named_table")
      case ReadTypeCase.VIRTUAL_TABLE => VirtualTableReader.read(rel.getVirtualTable, schema,
          rel.getBaseSchema.getStruct.getTypesList.asScala.toIndexedSeq, at / "virtual_table")
      case ReadTypeCase.LOCAL_FILES => LocalFilesReader.read(rel.getLocalFiles, schema, exactOnly, at / "local_files")
      case ReadTypeCase.READTYPE_NOT_SET =>
        throw SubstraitErrors.missingField(at, "read_type", "a named or virtual table")
      case other =>
        throw SubstraitErrors.unsupported(at / other.name().toLowerCase, s"a read of kind ${other.name().toLowerCase}",
          "a named_table, virtual_table or local_files read")
    }
    val filters = Seq(
      Options.when(rel.hasFilter)(rel.getFilter -> (at / "filter")),
      Options.when(rel.hasBestEffortFilter)(rel.getBestEffortFilter -> (at / "best_effort_filter"))).flatten
    val filtered = filters.foldLeft(base) { case (plan, (e, fAt)) =>
      Filter(FilterConverter.condition(e, base.output, fAt), plan)
    }
    if (rel.hasProjection) project(filtered, rel.getProjection, at / "projection") else filtered
  }

  /** base_schema as a Spark schema: names applied to the (nameless) struct's fields, depth first. */
  def baseSchema(ns: NamedStruct, at: PlanPath)(implicit ctx: ConversionContext): StructType = {
    val struct = TypeConverter.structOf(ns.getStruct, at / "struct")(ctx.types)
    val names = ns.getNamesList.asScala.toSeq
    NestedNames.apply(struct, names, at / "names") match {
      case s: StructType => s
      case other => throw new IllegalStateException(s"renaming a struct gave ${other.simpleString}")
    }
  }

  /**
   * The projection mask: top-level struct items, in the order the mask lists them; an item's
   * child selection masks inside that column as a masked reference would (MaskConverter).
   */
  private def project(plan: LogicalPlan, mask: io.sparksubstrait.proto.Expression.MaskExpression, at: PlanPath)
    : LogicalPlan = {
    // Read as "every column" until now: a mask without its select names no columns, and the spec's mask is its select.
    if (!mask.hasSelect) {
      throw SubstraitErrors.invalidPlan(at / "select", "a projection without its select",
        "the struct select listing the columns the read keeps (spec: algebra.proto, MaskExpression.select; " +
          "field references, Masked Complex Expression)")
    }
    val output = plan.output
    val items = mask.getSelect.getStructItemsList.asScala.toSeq
    val selected: Seq[NamedExpression] = items.zipWithIndex.map { case (item, i) =>
      val itemAt = (at / "select").at("struct_items", i)
      val column = FieldReferenceConverter.topLevel(item.getField, output, itemAt / "field")
      if (item.hasChild) Alias(MaskConverter.select(column, item.getChild, itemAt / "child"), column.name)() else column
    }
    if (items.map(_.getField).distinct.size != items.size) {
      throw SubstraitErrors.invalidPlan(at / "select", "a field selected twice", "each field at most once")
    }
    if (selected == output) plan else Project(selected, plan)
  }
}
