package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.ReadRel.NamedTable
import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.catalyst.expressions.NamedExpression
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.decode.PlanPath

/**
 * A named table, resolved through the session catalog (temp views, catalog tables,
 * multi-part names, the session's case sensitivity), so the catalog's own access control
 * applies. Its columns are laid out as `base_schema` says, matched by name: a column
 * missing from the table, or of another type, is an error, never a silently wrong column.
 */
private[sparksubstrait] object NamedTableReader {
  def read(table: NamedTable, schema: StructType, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val names = table.getNamesList.asScala.toSeq
    if (names.isEmpty || names.exists(_.isEmpty)) {
      throw SubstraitErrors.invalidPlan(at / "names", s"the name [${names.mkString(", ")}]",
        "a non-empty multi-part table name")
    }
    val resolved = try ctx.tables.resolve(names)
    catch {
      case e: AnalysisException => throw SubstraitErrors.tableNotFound(at / "names", names, e)
    }
    // A plan may only read files through LocalFiles and its allowed prefixes.
    if (SparkShim.readsFilesDirectly(resolved)) {
      throw SubstraitErrors.tableNotFound(at / "names", names,
        new IllegalArgumentException("a data source and a path (SQL on files) name no catalog table"))
    }
    layout(resolved, schema, at, s"table ${names.mkString(".")}")
  }

  /**
   * The columns of `resolved` that base_schema names, in base_schema's order, matched by
   * name as the session resolves names; a missing column or another type is an error.
   */
  def layout(resolved: LogicalPlan, schema: StructType, at: PlanPath, what: String)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val resolver = ctx.conf.resolver
    val output = resolved.output
    val columns: Seq[NamedExpression] = schema.fields.toSeq.zipWithIndex.map { case (field, i) =>
      val fieldAt = at.at("base_schema.names", i)
      output.filter(a => resolver(a.name, field.name)) match {
        case Seq(a) =>
          if (!compatible(a.dataType, field.dataType)) {
            throw SubstraitErrors.typeMismatch(fieldAt,
              s"${SparkTypeNames.of(field.dataType)} for base_schema column ${field.name}",
              s"${SparkTypeNames.of(a.dataType)}, the column's type in $what")
          }
          a
        case Seq() => throw SubstraitErrors.invalidPlan(fieldAt, s"column ${field.name}",
            s"a column of $what: ${output.map(_.name).mkString(", ")}")
        case several =>
          throw SubstraitErrors.invalidPlan(fieldAt, s"column ${field.name} matching ${several.size} columns",
            "a name that identifies one column")
      }
    }
    if (columns == output) resolved else Project(columns, resolved)
  }

  /** Same type up to nullability and the case of nested field names. */
  def compatible(table: DataType, declared: DataType): Boolean = (table, declared) match {
    case (a: StructType, b: StructType) =>
      a.length == b.length && a.fields.zip(b.fields).forall { case (x, y) =>
        x.name.equalsIgnoreCase(y.name) && compatible(x.dataType, y.dataType)
      }
    case (ArrayType(a, _), ArrayType(b, _)) => compatible(a, b)
    case (MapType(ak, av, _), MapType(bk, bv, _)) => compatible(ak, bk) && compatible(av, bv)
    case (_: StringType, _: StringType) => true
    case (a, b) => a == b
  }
}
