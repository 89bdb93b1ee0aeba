package io.sparksubstrait.write.types

import org.apache.spark.sql.types._

import io.sparksubstrait.proto.Type
import io.sparksubstrait.proto.Type.Nullability
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.write.CatalystPath

/**
 * Catalyst types to Substrait types, the reverse of the reader's TypeConverter: nullability
 * comes from the field (or the array's elements, the map's values), as Spark keeps it.
 * Timestamps and day-time intervals are microseconds (precision 6), as Spark holds them.
 */
private[sparksubstrait] object TypeWriter {
  val Micros = 6

  def write(dt: DataType, nullable: Boolean, at: CatalystPath): Type = {
    val n = if (nullable) Nullability.NULLABILITY_NULLABLE else Nullability.NULLABILITY_REQUIRED
    val t = Type.newBuilder()
    dt match {
      case BooleanType => t.setBool(Type.Boolean.newBuilder().setNullability(n))
      case ByteType => t.setI8(Type.I8.newBuilder().setNullability(n))
      case ShortType => t.setI16(Type.I16.newBuilder().setNullability(n))
      case IntegerType => t.setI32(Type.I32.newBuilder().setNullability(n))
      case LongType => t.setI64(Type.I64.newBuilder().setNullability(n))
      case FloatType => t.setFp32(Type.FP32.newBuilder().setNullability(n))
      case DoubleType => t.setFp64(Type.FP64.newBuilder().setNullability(n))
      // CHAR/VARCHAR columns hold strings in Spark (the length is table metadata).
      case s: StringType if isPlainString(s) => t.setString(Type.String.newBuilder().setNullability(n))
      case _: CharType | _: VarcharType => t.setString(Type.String.newBuilder().setNullability(n))
      case BinaryType => t.setBinary(Type.Binary.newBuilder().setNullability(n))
      case DateType => t.setDate(Type.Date.newBuilder().setNullability(n))
      case TimestampType =>
        t.setPrecisionTimestampTz(Type.PrecisionTimestampTZ.newBuilder().setPrecision(Micros).setNullability(n))
      case TimestampNTZType =>
        t.setPrecisionTimestamp(Type.PrecisionTimestamp.newBuilder().setPrecision(Micros).setNullability(n))
      case d: DecimalType =>
        t.setDecimal(Type.Decimal.newBuilder().setPrecision(d.precision).setScale(d.scale).setNullability(n))
      case _: YearMonthIntervalType => t.setIntervalYear(Type.IntervalYear.newBuilder().setNullability(n))
      case _: DayTimeIntervalType =>
        t.setIntervalDay(Type.IntervalDay.newBuilder().setPrecision(Micros).setNullability(n))
      case CalendarIntervalType =>
        t.setIntervalCompound(Type.IntervalCompound.newBuilder().setPrecision(Micros).setNullability(n))
      case ArrayType(e, containsNull) =>
        t.setList(Type.List.newBuilder().setType(write(e, containsNull, at)).setNullability(n))
      case MapType(k, v, valueNull) =>
        t.setMap(Type.Map.newBuilder().setKey(write(k, false, at)).setValue(write(v, valueNull, at)).setNullability(n))
      case s: StructType =>
        val b = Type.Struct.newBuilder().setNullability(n)
        s.fields.foreach(f => b.addTypes(write(f.dataType, f.nullable, at)))
        t.setStruct(b)
      case other => throw SubstraitErrors.unwritable(at.toString, s"a value of type ${other.simpleString}",
          "Substrait has no such type", "a type with a Substrait equivalent (docs/writing.md)")
    }
    t.build()
  }

  /** Spark 4's collated strings compare by their collation: only the binary one is Substrait's string. */
  private def isPlainString(s: StringType): Boolean = s == StringType

  /**
   * The short name of a type in a function's compound name (`add:i64_i64`), as the spec's
   * YAMLs spell argument types.
   */
  def signature(dt: DataType): String = dt match {
    case BooleanType => "bool"
    case ByteType => "i8"
    case ShortType => "i16"
    case IntegerType => "i32"
    case LongType => "i64"
    case FloatType => "fp32"
    case DoubleType => "fp64"
    case _: StringType | _: CharType | _: VarcharType => "str"
    case BinaryType => "vbin"
    case DateType => "date"
    case TimestampType => "ptstz"
    case TimestampNTZType => "pts"
    case _: DecimalType => "dec"
    case _: YearMonthIntervalType => "iyear"
    case _: DayTimeIntervalType => "iday"
    case CalendarIntervalType => "icompound"
    case _: ArrayType => "list"
    case _: MapType => "map"
    case _: StructType => "struct"
    case _ => "any"
  }

  /** The names of a struct's fields and of every struct nested in them, depth first (Substrait's NamedStruct order). */
  def nestedNames(s: StructType): Seq[String] = s.fields.toSeq.flatMap(f => f.name +: inner(f.dataType))
  private def inner(t: DataType): Seq[String] = t match {
    case s: StructType => nestedNames(s)
    case ArrayType(e, _) => inner(e)
    case MapType(k, v, _) => inner(k) ++ inner(v)
    case _ => Nil
  }
}
