package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{NamedStruct, Rel, WriteRel}
import io.sparksubstrait.proto.WriteRel.{CreateMode, OutputMode, WriteOp}
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation
import org.apache.spark.sql.catalyst.expressions.{Alias, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * A root that writes: WriteRel (INSERT, CTAS, DELETE), UpdateRel and DdlRel ([[DdlConverter]])
 * into the session catalog, as the Spark SQL command the same statement parses to, so the
 * catalog, the table format and access control act as for SQL (DELETE and UPDATE:
 * [[RowLevelWriteConverter]]). The command runs when the DataFrame is created, and only when
 * `spark.substrait.allowWrites` is true. What Spark cannot do as the spec says is refused:
 * returning the modified records and WriteRel UPDATE (its records do not say which rows they
 * replace).
 */
private[sparksubstrait] object WriteRelConverter {
  val AllowWritesKey = "spark.substrait.allowWrites"

  /** The command for a root relation that writes, or None for a query. */
  def convertRoot(rel: Rel, at: PlanPath)(implicit ctx: ConversionContext): Option[LogicalPlan] =
    rel.getRelTypeCase match {
      case Rel.RelTypeCase.WRITE => Some(guarded(at / "write", "a write (WriteRel)")(write(rel.getWrite, at / "write")))
      case Rel.RelTypeCase.DDL =>
        Some(guarded(at / "ddl", "a DDL statement (DdlRel)")(DdlConverter.convert(rel.getDdl, at / "ddl")))
      case Rel.RelTypeCase.UPDATE => Some(guarded(at / "update", "an update (UpdateRel)")(
            RowLevelWriteConverter.update(rel.getUpdate, at / "update")))
      case _ => None
    }

  private def guarded(at: PlanPath, what: String)(command: => LogicalPlan)(
    implicit ctx: ConversionContext): LogicalPlan =
    if (ctx.conf.getConfString(AllowWritesKey, "false").trim.equalsIgnoreCase("true")) command
    else throw SubstraitErrors.unsupported(at, s"$what while $AllowWritesKey is false",
      s"$AllowWritesKey=true to let plans write (see docs/configuration.md)")

  private def write(w: WriteRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (w.hasCommon && w.getCommon.hasEmit)
      throw SubstraitErrors.unsupported(at / "common" / "emit", "an emit on a write", "no emit")
    w.getOutput match {
      case OutputMode.OUTPUT_MODE_UNSPECIFIED | OutputMode.OUTPUT_MODE_NO_OUTPUT =>
      case other => throw SubstraitErrors.unsupported(at / "output", s"output ${other.name()}",
          "NO_OUTPUT: Spark's writes return no records")
    }
    val table = identifier(w.hasNamedTable, w.getNamedTable.getNamesList.asScala.toSeq, at, "named_table")
    if (!w.hasInput) throw SubstraitErrors.missingField(at, "input", "the records to write")
    val query = ctx.subtrees.wrap(RelConverter.convert(w.getInput, at / "input"))
    w.getOp match {
      case WriteOp.WRITE_OP_INSERT =>
        w.getCreateMode match {
          case CreateMode.CREATE_MODE_UNSPECIFIED | CreateMode.CREATE_MODE_APPEND_IF_EXISTS =>
          case other =>
            throw SubstraitErrors.unsupported(at / "create_mode", s"create_mode ${other.name()} on an INSERT",
              "APPEND_IF_EXISTS or none (create modes belong to CTAS)")
        }
        if (w.hasTableSchema && w.getTableSchema.getNamesCount != query.output.size) {
          throw SubstraitErrors.invalidPlan(at / "table_schema",
            s"a table of ${w.getTableSchema.getNamesCount} columns",
            s"as many columns as the input's ${query.output.size}")
        }
        command(s"INSERT INTO $table SELECT * FROM $Placeholder", query)
      case WriteOp.WRITE_OP_CTAS =>
        if (!w.hasTableSchema) throw SubstraitErrors.missingField(at, "table_schema", "the new table's columns")
        val named = withSchema(query, w.getTableSchema, at / "table_schema")
        w.getCreateMode match {
          case CreateMode.CREATE_MODE_UNSPECIFIED | CreateMode.CREATE_MODE_ERROR_IF_EXISTS =>
            command(s"CREATE TABLE $table $using AS SELECT * FROM $Placeholder", named)
          case CreateMode.CREATE_MODE_IGNORE_IF_EXISTS =>
            command(s"CREATE TABLE IF NOT EXISTS $table $using AS SELECT * FROM $Placeholder", named)
          case CreateMode.CREATE_MODE_REPLACE_IF_EXISTS =>
            command(s"CREATE OR REPLACE TABLE $table $using AS SELECT * FROM $Placeholder", named)
          case CreateMode.CREATE_MODE_APPEND_IF_EXISTS =>
            val exists = ctx.session.catalog.tableExists(table)
            command(if (exists) s"INSERT INTO $table SELECT * FROM $Placeholder"
              else s"CREATE TABLE $table $using AS SELECT * FROM $Placeholder", named)
          case other =>
            throw SubstraitErrors.invalidPlan(at / "create_mode", s"create_mode ${other.getNumber}", "a create mode")
        }
      case WriteOp.WRITE_OP_DELETE =>
        val names = w.getNamedTable.getNamesList.asScala.toSeq
        RowLevelWriteConverter.delete(names, if (w.hasTableSchema) Some(w.getTableSchema) else None, query,
          w.getInput, at)
      case WriteOp.WRITE_OP_UPDATE =>
        // The input's records say what rows become, not which rows they replace: the proto
        // names no key matching them to the table's rows. UpdateRel (condition and
        // transformations) is the well-defined update.
        throw SubstraitErrors.unsupported(at / "op",
          "an UPDATE by the records a relation gives (nothing says which table rows they replace)",
          "INSERT, CTAS or DELETE; an update as UpdateRel (condition and transformations)")
      case WriteOp.WRITE_OP_UNSPECIFIED => throw SubstraitErrors.missingField(at, "op", "INSERT, CTAS or DELETE")
      case other => throw SubstraitErrors.invalidPlan(at / "op", s"op ${other.getNumber}", "a write operation")
    }
  }

  /**
   * The session's default table format (spark.sql.sources.default), named: without USING,
   * Spark 3.5 would create a Hive table.
   */
  private[rel] def using(implicit ctx: ConversionContext): String = s"USING ${quote(ctx.conf.defaultDataSourceName)}"

  // Stands for the converted input in a parsed statement; replaced before anything resolves it.
  private val Placeholder = "`__substrait_write_input__`"

  /** The statement Spark SQL parses `sql` to, with the placeholder relation replaced by `query`. */
  private def command(sql: String, query: LogicalPlan)(implicit ctx: ConversionContext): LogicalPlan =
    command(sql, Some(query))

  private[rel] def command(sql: String, query: Option[LogicalPlan])(implicit ctx: ConversionContext): LogicalPlan = {
    val parsed = SparkShim.sessionState(ctx.session).sqlParser.parsePlan(sql)
    query.fold(parsed)(q =>
      parsed.transformDown {
        case u: UnresolvedRelation if u.multipartIdentifier == Seq("__substrait_write_input__") => q
      })
  }

  /** The input's columns named as the new table's schema says; their types must agree. */
  private[rel] def withSchema(query: LogicalPlan, schema: NamedStruct, at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val target: StructType = ReadConverter.baseSchema(schema, at)
    if (target.size != query.output.size) {
      throw SubstraitErrors.invalidPlan(at, s"a table of ${target.size} columns",
        s"as many columns as the input's ${query.output.size}")
    }
    val columns: Seq[NamedExpression] = query.output.zip(target.fields).zipWithIndex.map { case ((a, f), i) =>
      if (!NamedTableReader.compatible(a.dataType, f.dataType)) {
        throw SubstraitErrors.typeMismatch(at.at("names", i),
          s"${SparkTypeNames.of(a.dataType)} written to column ${f.name}",
          s"${SparkTypeNames.of(f.dataType)}, the column's type in table_schema")
      }
      Alias(a, f.name)()
    }
    Project(columns, query)
  }

  /** The target's name as SQL text, looked up in a catalog only (never a data source and a path). */
  private[rel] def identifier(has: Boolean, names: Seq[String], at: PlanPath, field: String)(
    implicit ctx: ConversionContext): String = {
    if (!has) throw SubstraitErrors.unsupported(at, "a write to an extension object", s"a $field (a catalog name)")
    if (names.isEmpty || names.exists(_.isEmpty)) {
      throw SubstraitErrors.invalidPlan(at / field / "names", s"the name [${names.mkString(", ")}]",
        "a non-empty multi-part name")
    }
    SparkShim.catalogOnlyName(ctx.session, names).map(quote).mkString(".")
  }

  private[rel] def quote(name: String): String = "`" + name.replace("`", "``") + "`"
}
