package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{NamedStruct, UpdateRel}
import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation
import org.apache.spark.sql.catalyst.expressions.{Alias, And, Attribute, EqualNullSafe, OuterReference}
import org.apache.spark.sql.catalyst.plans.logical.{
  Assignment, DeleteFromTable, Filter, LogicalPlan, Project, UpdateTable
}
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.decode.PlanPath

/**
 * Row-level writes: WriteRel DELETE and UpdateRel, as the commands Spark SQL's
 * `DELETE FROM t WHERE …` and `UPDATE t SET … WHERE …` parse to (DeleteFromTable,
 * UpdateTable). Spark's analyzer then rewrites them for the table's format (DSv2 tables with
 * row-level operations; formats with their own rules such as Delta); a table whose format
 * cannot delete or update rows (Spark's v1 file tables, e.g. parquet in spark_catalog) is the
 * plan's error, found by analysing the command before it runs.
 */
private[sparksubstrait] object RowLevelWriteConverter {

  /**
   * WriteRel DELETE: `input` gives the records to remove. A table row is deleted when it equals
   * one of them, column by column, NULL matching NULL; so every copy of a duplicated table
   * row goes, and duplicates in the input change nothing (as `DELETE … WHERE EXISTS` in SQL,
   * and as the plans producers emit for `DELETE FROM t WHERE c`: the input is t's rows
   * satisfying c, every copy included).
   */
  def delete(names: Seq[String], tableSchema: Option[NamedStruct], input: LogicalPlan, at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val target = resolve(names, at / "named_table" / "names")
    // Input column i is the table's column i, in table_schema's order when it names them.
    val columns = tableSchema match {
      case Some(s) => fullLayout(target, s, at / "table_schema", names)
      case None => target.output
    }
    if (input.output.size != columns.size) {
      throw SubstraitErrors.invalidPlan(at / "input", s"records of ${input.output.size} columns",
        s"the ${columns.size} columns of table ${names.mkString(".")}")
    }
    columns.zip(input.output).zipWithIndex.foreach { case ((c, i), n) =>
      if (!NamedTableReader.compatible(c.dataType, i.dataType)) {
        throw SubstraitErrors.typeMismatch(at / "input", s"${SparkTypeNames.of(i.dataType)} for column $n (${c.name})",
          s"${SparkTypeNames.of(c.dataType)}, the column's type in table ${names.mkString(".")}")
      }
    }
    // Fresh names for the records, so that an input reading the table itself never shares
    // attributes with the rows being deleted.
    val records = Project(input.output.zipWithIndex.map { case (a, n) => Alias(a, s"__substrait_delete_$n")() }, input)
    val same = columns.zip(records.output).map { case (c, r) => EqualNullSafe(OuterReference(c), r) }.reduce(And)
    checked(DeleteFromTable(target, SparkShim.exists(Filter(same, records), columns)), "DELETE", names, at)
  }

  /**
   * UpdateRel: every row satisfying `condition` gets each target column set to its
   * transformation, all computed from the row before the update (as SQL UPDATE).
   */
  def update(u: UpdateRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!u.hasNamedTable) throw SubstraitErrors.missingField(at, "named_table", "the table to update")
    val names = u.getNamedTable.getNamesList.asScala.toSeq
    if (names.isEmpty || names.exists(_.isEmpty)) {
      throw SubstraitErrors.invalidPlan(at / "named_table" / "names", s"the name [${names.mkString(", ")}]",
        "a non-empty multi-part name")
    }
    val target = resolve(names, at / "named_table" / "names")
    if (!u.hasTableSchema) throw SubstraitErrors.missingField(at, "table_schema", "the full schema of the table")
    val columns = fullLayout(target, u.getTableSchema, at / "table_schema", names)
    // A missing condition is not taken to mean "every row": a producer wanting that says true.
    if (!u.hasCondition)
      throw SubstraitErrors.missingField(at, "condition", "the condition rows must meet (literal true for every row)")
    val condition = FilterConverter.condition(u.getCondition, columns, at / "condition")
    if (u.getTransformationsCount == 0)
      throw SubstraitErrors.missingField(at, "transformations", "at least one column to set")
    val assignments = u.getTransformationsList.asScala.toSeq.zipWithIndex.map { case (t, i) =>
      val tAt = at.at("transformations", i)
      val index = t.getColumnTarget
      if (index < 0 || index >= columns.size)
        throw SubstraitErrors.fieldReferenceOutOfRange(tAt / "column_target", index, columns.size)
      if (!t.hasTransformation) throw SubstraitErrors.missingField(tAt, "transformation", "the column's new value")
      val column = columns(index)
      val value = ExpressionConverter.convert(t.getTransformation, columns, tAt / "transformation")
      if (value.resolved && !NamedTableReader.compatible(column.dataType, value.dataType)) {
        throw SubstraitErrors.typeMismatch(tAt / "transformation",
          s"${SparkTypeNames.of(value.dataType)} for column ${column.name}",
          s"${SparkTypeNames.of(column.dataType)}, the column's type")
      }
      index -> Assignment(column, value)
    }
    assignments.groupBy(_._1).collectFirst {
      case (index, several) if several.size > 1 =>
        throw SubstraitErrors.invalidPlan(at / "transformations", s"${several.size} transformations of column $index",
          "at most one per column")
    }
    checked(UpdateTable(target, assignments.map(_._2), Some(condition)), "UPDATE", names, at)
  }

  /** The table as the session resolves it (a missing table is the plan's error). */
  private def resolve(names: Seq[String], at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan =
    try SparkShim.analyze(ctx.session, UnresolvedRelation(SparkShim.catalogOnlyName(ctx.session, names)))
    catch {
      case e: AnalysisException => throw SubstraitErrors.tableNotFound(at, names, e)
    }

  /** The table's columns in table_schema's order; table_schema must name every one. */
  private def fullLayout(target: LogicalPlan, schema: NamedStruct, at: PlanPath, names: Seq[String])(
    implicit ctx: ConversionContext): Seq[Attribute] = {
    val struct = ReadConverter.baseSchema(schema, at)
    if (struct.size != target.output.size) {
      throw SubstraitErrors.invalidPlan(at, s"a table_schema of ${struct.size} columns",
        s"the full schema of table ${names.mkString(".")}: ${target.output.map(_.name).mkString(", ")}")
    }
    // Every column exactly the table's type: the command changes the table's own columns.
    NamedTableReader.layout(target, struct, struct.indices.toSet, at, s"table ${names.mkString(".")}").output
  }

  /**
   * The command, once the session has analysed it: Spark rewrites a DELETE / UPDATE for the
   * table's format while analysing, and leaves it as it is when the format cannot (Spark
   * would then refuse it only when running it, in its own words).
   */
  private def checked(command: LogicalPlan, what: String, names: Seq[String], at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val expected =
      s"a table whose format supports row-level $what (a DSv2 table with row-level operations, e.g. Iceberg; Delta)"
    val analyzed = try SparkShim.analyze(ctx.session, command)
    catch {
      case e: AnalysisException =>
        throw SubstraitErrors.unsupported(at,
          s"$what of table ${names.mkString(".")}, which Spark refuses (${SparkShim.errorCondition(e)}: ${e.getMessage})",
          expected)
    }
    val unrewritten = analyzed.exists {
      case _: DeleteFromTable | _: UpdateTable => true
      case _ => false
    }
    if (unrewritten) throw SubstraitErrors.unsupported(at,
      s"$what of table ${names.mkString(".")}, whose format cannot $what rows", expected)
    command
  }
}
