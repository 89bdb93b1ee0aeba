package io.sparksubstrait.write.expr

import com.google.protobuf.ByteString
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Literal
import org.apache.spark.sql.catalyst.util.{ArrayData, MapData}
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.{CalendarInterval, UTF8String}

import io.sparksubstrait.proto.Expression.{Literal => SLiteral}
import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.CatalystPath
import io.sparksubstrait.write.types.TypeWriter

/**
 * Catalyst literals to Substrait literals, every type the reader reads: NULLs keep their
 * type; timestamps and day-time intervals are microseconds; decimals their unscaled value as
 * 16 bytes, little-endian two's complement.
 */
private[sparksubstrait] object LiteralWriter {
  def write(l: Literal, at: CatalystPath): SExpression =
    SExpression.newBuilder().setLiteral(value(l.value, l.dataType, l.nullable, at)).build()

  private val MicrosPerSecond = 1000000L
  private val MicrosPerDay = 86400L * MicrosPerSecond

  def value(v: Any, dt: DataType, nullable: Boolean, at: CatalystPath): SLiteral = {
    val b = SLiteral.newBuilder()
    if (v == null) return b.setNull(TypeWriter.write(dt, nullable = true, at)).setNullable(true).build()
    b.setNullable(nullable)
    dt match {
      case BooleanType => b.setBoolean(v.asInstanceOf[Boolean])
      case ByteType => b.setI8(v.asInstanceOf[Byte].toInt)
      case ShortType => b.setI16(v.asInstanceOf[Short].toInt)
      case IntegerType => b.setI32(v.asInstanceOf[Int])
      case LongType => b.setI64(v.asInstanceOf[Long])
      case FloatType => b.setFp32(v.asInstanceOf[Float])
      case DoubleType => b.setFp64(v.asInstanceOf[Double])
      case _: StringType | _: CharType | _: VarcharType =>
        TypeWriter.write(dt, nullable, at) // refuses collated strings
        b.setString(v.asInstanceOf[UTF8String].toString)
      case BinaryType => b.setBinary(ByteString.copyFrom(v.asInstanceOf[Array[Byte]]))
      case DateType => b.setDate(v.asInstanceOf[Int])
      case TimestampType =>
        b.setPrecisionTimestampTz(
          SLiteral.PrecisionTimestamp.newBuilder().setPrecision(TypeWriter.Micros).setValue(v.asInstanceOf[Long]))
      case TimestampNTZType =>
        b.setPrecisionTimestamp(
          SLiteral.PrecisionTimestamp.newBuilder().setPrecision(TypeWriter.Micros).setValue(v.asInstanceOf[Long]))
      case d: DecimalType =>
        b.setDecimal(SLiteral.Decimal.newBuilder().setPrecision(d.precision).setScale(d.scale)
            .setValue(ByteString.copyFrom(decimalBytes(v.asInstanceOf[Decimal].toJavaBigDecimal.unscaledValue()))))
      case _: YearMonthIntervalType =>
        val months = v.asInstanceOf[Int]
        b.setIntervalYearToMonth(SLiteral.IntervalYearToMonth.newBuilder().setYears(months / 12).setMonths(months % 12))
      case _: DayTimeIntervalType => b.setIntervalDayToSecond(daySecond(v.asInstanceOf[Long]))
      case CalendarIntervalType =>
        val c = v.asInstanceOf[CalendarInterval]
        b.setIntervalCompound(SLiteral.IntervalCompound.newBuilder()
            .setIntervalYearToMonth(
              SLiteral.IntervalYearToMonth.newBuilder().setYears(c.months / 12).setMonths(c.months % 12))
            .setIntervalDayToSecond(
              daySecond(c.microseconds).toBuilder.setDays(c.days + (c.microseconds / MicrosPerDay).toInt)))
      case ArrayType(e, containsNull) =>
        val a = v.asInstanceOf[ArrayData]
        if (a.numElements() == 0) b.setEmptyList(TypeWriter.write(dt, nullable, at).getList)
        else {
          val l = SLiteral.List.newBuilder()
          (0 until a.numElements()).foreach(i => l.addValues(value(a.get(i, e), e, containsNull, at)))
          b.setList(l)
        }
      case MapType(k, vt, valueNull) =>
        val m = v.asInstanceOf[MapData]
        if (m.numElements() == 0) b.setEmptyMap(TypeWriter.write(dt, nullable, at).getMap)
        else {
          val lm = SLiteral.Map.newBuilder()
          (0 until m.numElements()).foreach { i =>
            lm.addKeyValues(SLiteral.Map.KeyValue.newBuilder()
                .setKey(value(m.keyArray().get(i, k), k, false, at)).setValue(value(m.valueArray().get(i, vt), vt,
                    valueNull, at)))
          }
          b.setMap(lm)
        }
      case s: StructType =>
        val row = v.asInstanceOf[InternalRow]
        val ls = SLiteral.Struct.newBuilder()
        s.fields.zipWithIndex.foreach { case (f, i) =>
          ls.addFields(value(row.get(i, f.dataType), f.dataType, f.nullable, at))
        }
        b.setStruct(ls)
      case other => TypeWriter.write(other, nullable, at) // raises the unwritable-type error
    }
    b.build()
  }

  /** Microseconds as days, seconds and microseconds, all with the interval's sign. */
  private def daySecond(micros: Long): SLiteral.IntervalDayToSecond =
    SLiteral.IntervalDayToSecond.newBuilder()
      .setDays((micros / MicrosPerDay).toInt)
      .setSeconds(((micros % MicrosPerDay) / MicrosPerSecond).toInt)
      .setSubseconds(micros % MicrosPerSecond)
      .setPrecision(TypeWriter.Micros)
      .build()

  private def decimalBytes(unscaled: java.math.BigInteger): Array[Byte] = {
    val bigEndian = unscaled.toByteArray
    val out = Array.fill[Byte](16)(if (unscaled.signum < 0) -1 else 0)
    bigEndian.reverse.zipWithIndex.foreach { case (byte, i) => out(i) = byte }
    out
  }
}
