package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{NamedStruct, Plan, ReadRel, Type}
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Older DataFusion writes a named table's base_schema with its column names only (no
 * struct): the table's own types are meant. Lifted into the spec's shape with the catalog
 * table's column types (the same names, in the same order, or the plan's error), so it
 * needs the session: the read (ReadPipeline) lifts it before converting (`withCatalog`).
 */
private[sparksubstrait] object NamesOnlySchema extends Reading {
  val name = "datafusion-names-only-schema"
  val releases = "DataFusion 31 to 41 (spec 0.33 to 0.51)"
  val meaning = "a named table's base_schema has names and no types; read with the catalog table's types"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("datafusion", "0.0", "0.51")

  private def namesOnly(read: ReadRel): Boolean =
    read.hasNamedTable && read.hasBaseSchema && !read.getBaseSchema.hasStruct && read.getBaseSchema.getNamesCount > 0

  /** At decode time: only finds the places (the types come from the catalog, later). */
  def lift(plan: Plan, found: String => Unit): Plan = MessageRewrite(plan) {
    case read: ReadRel if namesOnly(read) =>
      found(
        s"table ${read.getNamedTable.getNamesList.asScala.mkString(".")}: ${read.getBaseSchema.getNamesCount} names")
      read
  }

  /** The types of each names-only named table, from `schemaOf` (the catalog table's schema). */
  def withCatalog(plan: Plan, schemaOf: (Seq[String], PlanPath) => StructType): Plan = MessageRewrite.located(plan) {
    case (read: ReadRel, readAt) if namesOnly(read) =>
      val table = read.getNamedTable.getNamesList.asScala.toSeq
      val schema = schemaOf(table, readAt / "named_table" / "names")
      val names = read.getBaseSchema.getNamesList.asScala.toSeq
      val at = readAt / "base_schema"
      val types = names.zipWithIndex.map { case (n, i) =>
        val field = schema.fields.find(_.name.equalsIgnoreCase(n)).getOrElse(
          throw SubstraitErrors.invalidPlan(at.at("names", i),
            s"column $n of table ${table.mkString(".")} ($name)",
            s"a column of the table: ${schema.fieldNames.mkString(", ")}"))
        substraitType(field, at.at("names", i))
      }
      val struct =
        Type.Struct.newBuilder().addAllTypes(types.asJava).setNullability(Type.Nullability.NULLABILITY_REQUIRED)
      read.toBuilder.setBaseSchema(NamedStruct.newBuilder(read.getBaseSchema).setStruct(struct)).build()
  }

  private def substraitType(field: StructField, at: PlanPath): Type = {
    val n = if (field.nullable) Type.Nullability.NULLABILITY_NULLABLE else Type.Nullability.NULLABILITY_REQUIRED
    val b = Type.newBuilder()
    field.dataType match {
      case BooleanType => b.setBool(Type.Boolean.newBuilder().setNullability(n))
      case ByteType => b.setI8(Type.I8.newBuilder().setNullability(n))
      case ShortType => b.setI16(Type.I16.newBuilder().setNullability(n))
      case IntegerType => b.setI32(Type.I32.newBuilder().setNullability(n))
      case LongType => b.setI64(Type.I64.newBuilder().setNullability(n))
      case FloatType => b.setFp32(Type.FP32.newBuilder().setNullability(n))
      case DoubleType => b.setFp64(Type.FP64.newBuilder().setNullability(n))
      case _: StringType => b.setString(Type.String.newBuilder().setNullability(n))
      case BinaryType => b.setBinary(Type.Binary.newBuilder().setNullability(n))
      case DateType => b.setDate(Type.Date.newBuilder().setNullability(n))
      case TimestampType =>
        b.setPrecisionTimestampTz(Type.PrecisionTimestampTZ.newBuilder().setPrecision(6).setNullability(n))
      case TimestampNTZType =>
        b.setPrecisionTimestamp(Type.PrecisionTimestamp.newBuilder().setPrecision(6).setNullability(n))
      case d: DecimalType =>
        b.setDecimal(Type.Decimal.newBuilder().setPrecision(d.precision).setScale(d.scale).setNullability(n))
      case other => throw SubstraitErrors.unsupported(at,
          s"column ${field.name} of type ${other.simpleString} " +
            s"in a names-only base_schema ($name)",
          "a column of a flat type (names-only schemas name no nested fields)")
    }
    b.build()
  }
}
