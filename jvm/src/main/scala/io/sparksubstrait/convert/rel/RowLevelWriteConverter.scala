package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, NamedStruct, ReadRel, Rel, UpdateRel}
import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation
import org.apache.spark.sql.catalyst.expressions.{
  Alias, And, Attribute, EqualNullSafe, Expression => CExpression, Literal, OuterReference, WindowExpression
}
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression
import org.apache.spark.sql.catalyst.plans.logical.{
  Assignment, DeleteFromTable, Filter, LogicalPlan, Project, UpdateTable
}
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

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
   *
   * When `source` (the input as the plan gives it) is exactly that producer form, the
   * command is the one SQL's `DELETE FROM t WHERE c` parses to, `DeleteFromTable(t, c)`
   * ([[filterCondition]]): formats that refuse a subquery in DELETE (Delta) run it, and
   * every format can push the condition into its files. Any other input keeps the EXISTS form.
   */
  def delete(names: Seq[String], tableSchema: Option[NamedStruct], input: LogicalPlan, source: Rel, at: PlanPath)(
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
    filterCondition(names, columns, source, at / "input") match {
      case Some(condition) => return checked(DeleteFromTable(target, condition), "DELETE", names, at)
      case None =>
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

  /**
   * The condition of `DELETE FROM t WHERE c` that `source` stands for, when it is that form:
   * FilterRels (none or several) over a ReadRel of the same name as the target (the same
   * parts, exactly: a catalog may tell cases apart), with no emit and no projection, whose
   * base_schema lays out exactly the target's `columns` (name and type, in the order the
   * DELETE's records map them). The records are then the table's rows meeting every filter
   * (the read's own filter and best_effort_filter too, as ReadConverter applies them), so a
   * row equal to a record, column by column, meets them too when the condition is
   * deterministic: deleting the rows meeting the conjunction deletes the same rows, every copy
   * of a duplicate included. (Where Spark's equality joins values a condition can tell apart,
   * 0.0 and -0.0 or strings equal under a non-binary collation, this form deletes what the
   * producer's `DELETE … WHERE c` names, not also the rows equal to them.) A condition that is
   * not deterministic (rand()), or that holds a window function or an aggregate, keeps the
   * EXISTS form, as does any other input. None when it is not that form.
   */
  private def filterCondition(names: Seq[String], columns: Seq[Attribute], source: Rel, at: PlanPath)(
    implicit ctx: ConversionContext): Option[CExpression] = {
    // The FilterRels from the top, each condition with its place in the plan, down to the ReadRel.
    var rel = source
    var relAt = at
    var conditions = List.empty[(Expression, PlanPath)]
    while (rel.hasFilter && rel.getFilter.hasInput && rel.getFilter.hasCondition && !rel.getFilter.getCommon.hasEmit) {
      conditions = (rel.getFilter.getCondition -> (relAt / "filter" / "condition")) :: conditions
      relAt = relAt / "filter" / "input"
      rel = rel.getFilter.getInput
    }
    if (!rel.hasRead) return None
    val read: ReadRel = rel.getRead
    val readAt = relAt / "read"
    val plainRead = read.hasNamedTable && read.getNamedTable.getNamesList.asScala.toSeq == names &&
      !read.hasProjection && !read.getCommon.hasEmit && read.hasBaseSchema &&
      !read.getBaseSchema.getStruct.getTypesList.asScala.exists(_.hasUserDefined)
    if (!plainRead) return None
    val schema = ReadConverter.baseSchema(read.getBaseSchema, readAt / "base_schema")
    val resolver = ctx.conf.resolver
    // Field i of base_schema resolves, as NamedTableReader resolves it, to columns(i) only, and
    // reads it as its own type (not another declared type read value by value).
    val sameLayout = schema.size == columns.size && schema.fields.zip(columns).forall { case (f, c) =>
      resolver(c.name, f.name) && columns.count(a => resolver(a.name, f.name)) == 1 &&
      NamedTableReader.compatible(c.dataType, f.dataType)
    }
    if (!sameLayout) return None
    val readFilters = Seq(
      Options.when(read.hasFilter)(read.getFilter -> (readAt / "filter")),
      Options.when(read.hasBestEffortFilter)(read.getBestEffortFilter -> (readAt / "best_effort_filter"))).flatten
    // Over the target's own attributes, as UpdateRel's condition: the read's columns are its.
    val all = (readFilters ++ conditions).map { case (e, eAt) => FilterConverter.condition(e, columns, eAt) }
    val plain = all.forall(c =>
      c.resolved && c.deterministic && !c.exists {
        case _: WindowExpression | _: AggregateExpression => true
        case _ => false
      })
    if (plain) Some(all.reduceOption(And).getOrElse(Literal.TrueLiteral)) else None
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
