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
import io.sparksubstrait.foundation.PlanPath

/**
 * A named table, resolved through the session catalog (temp views, catalog tables,
 * multi-part names, the session's case sensitivity), so the catalog's own access control
 * applies. Its columns are laid out as `base_schema` says, matched by name: a column
 * missing from the table, or of a type its values cannot be read as exactly, is an error,
 * never a silently wrong column.
 */
private[sparksubstrait] object NamedTableReader {
  def read(table: NamedTable, schema: StructType, exactOnly: Set[Int], at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
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
    layout(resolved, schema, exactOnly, at, s"table ${names.mkString(".")}")
  }

  /**
   * The columns of `resolved` that base_schema names, in base_schema's order, matched by
   * name as the session resolves names; a missing column is an error, and so is another type
   * unless it reads exactly as the declared one ([[DeclaredColumnTypes]]: a wider type, or a
   * narrower one checked value by value), except for the `exactOnly` columns (indices in
   * base_schema), which must have the table's type: a user-defined type, or every column of a
   * table a write changes (its columns must stay the table's). Nullability is the table's: a
   * column declared required that holds NULLs reads them.
   */
  def layout(resolved: LogicalPlan, schema: StructType, exactOnly: Set[Int], at: PlanPath, what: String)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val resolver = ctx.conf.resolver
    val output = resolved.output
    val read: Seq[(NamedExpression, Option[String])] = schema.fields.toSeq.zipWithIndex.map { case (field, i) =>
      val fieldAt = at.at("base_schema.names", i)
      output.filter(a => resolver(a.name, field.name)) match {
        case Seq(a) if compatible(a.dataType, field.dataType) => (a, None)
        case Seq(a) =>
          val reading = DeclaredColumnTypes.reading(a, field.dataType, fieldAt, what).filter(_ =>
            !exactOnly(i)).getOrElse(
            throw SubstraitErrors.typeMismatch(fieldAt,
              s"${SparkTypeNames.of(field.dataType)} for base_schema column ${field.name}",
              s"${SparkTypeNames.of(a.dataType)}, the column's type in $what"))
          (reading.column, Some(reading.note))
        case Seq() => throw SubstraitErrors.invalidPlan(fieldAt, s"column ${field.name}",
            s"a column of $what: ${output.map(_.name).mkString(", ")}")
        case several =>
          throw SubstraitErrors.invalidPlan(fieldAt, s"column ${field.name} matching ${several.size} columns",
            "a name that identifies one column")
      }
    }
    val columns = read.map(_._1)
    if (columns == output) resolved
    else {
      val project = Project(columns, resolved)
      val notes = read.flatMap(_._2)
      // The explorer names each column read as another type (ExplainTrace reads the tag).
      if (notes.nonEmpty) project.setTagValue(DeclaredColumnTypes.Notes, notes)
      project
    }
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
