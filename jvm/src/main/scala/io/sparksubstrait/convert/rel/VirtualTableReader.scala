package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.sparksubstrait.proto.Type
import io.sparksubstrait.proto.ReadRel.VirtualTable
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Cast, EvalMode, Expression => CExpression, TimeZoneAwareExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, LogicalPlan}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * A virtual table: rows given in the plan as `expressions`, one struct of constant expressions
 * per row (the decoder lifted older plans' struct literals, `values`, into them). Evaluated
 * once in the driver into a LocalRelation.
 */
private[sparksubstrait] object VirtualTableReader {
  def read(vt: VirtualTable, schema: StructType, columnTypes: IndexedSeq[Type], at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val rows: Seq[(Seq[CExpression], PlanPath)] =
      vt.getExpressionsList.asScala.toSeq.zipWithIndex.map { case (row, i) =>
        val rowAt = at.at("expressions", i)
        row.getFieldsList.asScala.toSeq.zipWithIndex.map { case (f, k) =>
          if (k < columnTypes.size && k < schema.size) {
            VirtualTableTypes.check(f, columnTypes(k), schema(k).name, schema(k).nullable, rowAt.at("fields", k))
          }
          ExpressionConverter.convert(f, Nil, rowAt.at("fields", k))
        } -> rowAt
      }
    val attributes = DataTypeUtils.toAttributes(schema)
    val data: Seq[InternalRow] = rows.map { case (fields, rowAt) =>
      if (fields.size != schema.size) {
        throw SubstraitErrors.invalidPlan(rowAt, s"a row of ${fields.size} fields",
          s"${schema.size} fields, as base_schema")
      }
      InternalRow.fromSeq(fields.zip(schema.fields).zipWithIndex.map { case ((e, field), k) =>
        if (!e.foldable) {
          throw SubstraitErrors.invalidPlan(rowAt.at("fields", k), "an expression that depends on input", "a constant")
        }
        if (!NamedTableReader.compatible(e.dataType, field.dataType) && !Cast.canUpCast(e.dataType, field.dataType)) {
          throw SubstraitErrors.typeMismatch(rowAt.at("fields", k), SparkTypeNames.of(e.dataType),
            s"${SparkTypeNames.of(field.dataType)}, the type base_schema gives column ${field.name}")
        }
        // The session's zone, as the analyzer would give the cast; a value the cast refuses
        // ('a' as i32, an overflow) is the plan's error, found here in the driver, whatever
        // spark.sql.ansi.enabled says (off by default in Spark 3.5).
        val zone = ctx.conf.sessionLocalTimeZone
        val cast = if (e.dataType == field.dataType) e else Cast(e, field.dataType, None, EvalMode.ANSI)
        // Evaluated here, not by the analyzer: give zone-aware parts (casts) the session's zone.
        val zoned = cast.transform { case t: TimeZoneAwareExpression if t.timeZoneId.isEmpty => t.withTimeZone(zone) }
        val value = try zoned.eval()
        catch {
          case NonFatal(err) => throw SubstraitErrors.invalidPlan(rowAt.at("fields", k),
              s"a value that fails to evaluate (${firstLine(err)})",
              s"a constant of type ${SparkTypeNames.of(field.dataType)} for column ${field.name}")
        }
        if (value == null && !field.nullable) {
          throw SubstraitErrors.invalidPlan(rowAt.at("fields", k), "NULL",
            s"a value: column ${field.name} is not nullable")
        }
        value
      })
    }
    LocalRelation(attributes, data)
  }

  private def firstLine(e: Throwable): String =
    Option(e.getMessage).flatMap(_.linesIterator.toSeq.headOption).getOrElse(e.getClass.getSimpleName)
}
