package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.DdlRel
import io.sparksubstrait.proto.DdlRel.{DdlObject, DdlOp}
import org.apache.spark.sql.catalyst.expressions.Literal
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.types.StructType
import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.LiteralConverter
import io.sparksubstrait.convert.rel.WriteRelConverter.{command, identifier, quote, using, withSchema}
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * DdlRel at a plan's root:
 *  - tables: CREATE and CREATE OR REPLACE from `table_schema`, with `table_defaults` as the
 *    columns' DEFAULT values (each literal written as Spark SQL's exact literal text, which
 *    is how Spark keeps defaults); DROP and DROP IF EXISTS;
 *  - views: CREATE and CREATE OR REPLACE of the plan's `view_definition`, converted by us, as
 *    a temporary view holding that plan (a one-part name: the session's; `global_temp.name`:
 *    the global one). A persistent catalog view is refused: Spark stores those as SQL text,
 *    and a converted plan cannot be written back as SQL that is certain to mean the same;
 *    DROP and DROP IF EXISTS;
 *  - ALTER: refused (Spark SQL's ALTER TABLE changes one property at a time; the plan gives
 *    only the state after).
 */
private[sparksubstrait] object DdlConverter {
  def convert(d: DdlRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val names = d.getNamedObject.getNamesList.asScala.toSeq
    val name = identifier(d.hasNamedObject, names, at, "named_object")
    val creates = d.getOp == DdlOp.DDL_OP_CREATE || d.getOp == DdlOp.DDL_OP_CREATE_OR_REPLACE
    if (d.hasViewDefinition && !(creates && d.getObject == DdlObject.DDL_OBJECT_VIEW)) {
      throw SubstraitErrors.invalidPlan(at / "view_definition",
        s"a view definition on ${d.getOp.name()} of ${d.getObject.name()}",
        "a view definition only on CREATE or CREATE_OR_REPLACE of a view")
    }
    if (d.hasTableDefaults && !(creates && d.getObject == DdlObject.DDL_OBJECT_TABLE)) {
      throw SubstraitErrors.unsupported(at / "table_defaults",
        s"column defaults on ${d.getOp.name()} of ${d.getObject.name()}",
        "column defaults only on CREATE or CREATE_OR_REPLACE of a table")
    }
    (d.getObject, d.getOp) match {
      case (DdlObject.DDL_OBJECT_TABLE, op @ (DdlOp.DDL_OP_CREATE | DdlOp.DDL_OP_CREATE_OR_REPLACE)) =>
        if (!d.hasTableSchema) throw SubstraitErrors.missingField(at, "table_schema", "the new table's columns")
        val schema = ReadConverter.baseSchema(d.getTableSchema, at / "table_schema")
        val defaults = if (d.hasTableDefaults) columnDefaults(d, schema, at / "table_defaults") else schema.map(_ => "")
        val columns = schema.fields.zip(defaults).map { case (f, default) =>
          s"${quote(f.name)} ${f.dataType.sql}${if (f.nullable) "" else " NOT NULL"}$default"
        }.mkString(", ")
        val create = if (op == DdlOp.DDL_OP_CREATE) "CREATE TABLE" else "CREATE OR REPLACE TABLE"
        command(s"$create $name ($columns) $using", query = None)
      case (DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_DROP) => command(s"DROP TABLE $name", query = None)
      case (DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_DROP_IF_EXIST) =>
        command(s"DROP TABLE IF EXISTS $name", query = None)
      case (DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_DROP) => command(s"DROP VIEW $name", query = None)
      case (DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_DROP_IF_EXIST) =>
        command(s"DROP VIEW IF EXISTS $name", query = None)
      case (DdlObject.DDL_OBJECT_VIEW, op @ (DdlOp.DDL_OP_CREATE | DdlOp.DDL_OP_CREATE_OR_REPLACE)) =>
        view(d, names, replace = op == DdlOp.DDL_OP_CREATE_OR_REPLACE, at)
      case (_, DdlOp.DDL_OP_ALTER) =>
        throw SubstraitErrors.unsupported(at / "op",
          s"ALTER of a ${d.getObject.name().stripPrefix("DDL_OBJECT_").toLowerCase}",
          "CREATE, CREATE_OR_REPLACE, DROP or DROP_IF_EXIST")
      case (DdlObject.DDL_OBJECT_UNSPECIFIED, _) => throw SubstraitErrors.missingField(at, "object", "TABLE or VIEW")
      case (_, DdlOp.DDL_OP_UNSPECIFIED) => throw SubstraitErrors.missingField(at, "op", "a DDL operation")
      case (obj, op) => throw SubstraitErrors.invalidPlan(at, s"object ${obj.getNumber} with op ${op.getNumber}",
          "a TABLE or VIEW operation")
    }
  }

  /** Each column's ` DEFAULT <literal>` clause ("" for a NULL default, which is no default's meaning too). */
  private def columnDefaults(d: DdlRel, schema: StructType, at: PlanPath)(
    implicit ctx: ConversionContext): Seq[String] = {
    val literals = d.getTableDefaults.getFieldsList.asScala.toSeq
    if (literals.size != schema.size) {
      throw SubstraitErrors.invalidPlan(at / "fields", s"${literals.size} defaults",
        s"one per column of table_schema (${schema.size})")
    }
    literals.zip(schema.fields).zipWithIndex.map { case ((l, f), i) =>
      LiteralConverter.convert(l, at.at("fields", i))(ctx.types) match {
        case v: Literal if v.value == null => ""
        case v: Literal if v.dataType == f.dataType => s" DEFAULT ${v.sql}"
        case v =>
          throw SubstraitErrors.typeMismatch(at.at("fields", i), s"a default of type ${SparkTypeNames.of(v.dataType)}",
            s"${SparkTypeNames.of(f.dataType)}, the type of column ${f.name}")
      }
    }
  }

  private def view(d: DdlRel, names: Seq[String], replace: Boolean, at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val globalDatabase = ctx.conf.getConfString("spark.sql.globalTempDatabase", "global_temp")
    val global = names match {
      case Seq(_) => false
      case Seq(db, _) if db.equalsIgnoreCase(globalDatabase) => true
      case _ => throw SubstraitErrors.unsupported(at / "named_object" / "names",
          s"a persistent view ${names.mkString(".")}",
          s"a temporary view: a one-part name (the session's) or $globalDatabase.<name> (global); Spark keeps a persistent view as " +
            "SQL text, which a converted plan cannot be written back to with certainty of the same meaning " +
            "(docs/security.md, Persistent views)")
    }
    if (!d.hasViewDefinition) throw SubstraitErrors.missingField(at, "view_definition", "the view's relation")
    if (!d.hasTableSchema) throw SubstraitErrors.missingField(at, "table_schema", "the view's column names and types")
    val plan = RelConverter.convert(d.getViewDefinition, at / "view_definition")
    val named = withSchema(plan, d.getTableSchema, at / "table_schema")
    CreateSubstraitTempView(names.last, global, replace, ctx.subtrees.wrap(named))
  }
}
