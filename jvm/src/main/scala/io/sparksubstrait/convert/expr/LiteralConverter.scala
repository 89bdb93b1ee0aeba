package io.sparksubstrait.convert.expr

import java.math.{BigDecimal => JBigDecimal, BigInteger}

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Expression.{Literal => SLiteral}
import io.sparksubstrait.proto.Expression.Literal.LiteralTypeCase
import org.apache.spark.sql.catalyst.expressions.{Literal, Expression => CExpression}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.util.{ArrayBasedMapData, GenericArrayData}
import org.apache.spark.sql.types._
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.unsafe.types.{CalendarInterval, UTF8String}

import io.sparksubstrait.convert.types.{HandledUserType, TypeConverter, TypeEnv, UnsignedTypes, UuidType}
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.errors.SubstraitErrors

/** Substrait literals to Catalyst literals, value for value. */
private[sparksubstrait] object LiteralConverter {
  private val MicrosPerSecond = 1000000L

  def convert(lit: SLiteral, at: PlanPath)(implicit env: TypeEnv): CExpression = {
    TypeConverter.checkVariation(lit.getTypeVariationReference, at)
    lit.getLiteralTypeCase match {
      case LiteralTypeCase.BOOLEAN => Literal(lit.getBoolean, BooleanType)
      case LiteralTypeCase.USER_DEFINED => userDefined(lit.getUserDefined, at / "user_defined")
      case LiteralTypeCase.I8 => Literal(checkRange(lit.getI8, Byte.MinValue, Byte.MaxValue, "i8", at).toByte, ByteType)
      case LiteralTypeCase.I16 =>
        Literal(checkRange(lit.getI16, Short.MinValue, Short.MaxValue, "i16", at).toShort, ShortType)
      case LiteralTypeCase.I32 => Literal(lit.getI32, IntegerType)
      case LiteralTypeCase.I64 => Literal(lit.getI64, LongType)
      case LiteralTypeCase.FP32 => Literal(lit.getFp32, FloatType)
      case LiteralTypeCase.FP64 => Literal(lit.getFp64, DoubleType)
      case LiteralTypeCase.STRING => Literal(UTF8String.fromString(lit.getString), StringType)
      case LiteralTypeCase.VAR_CHAR => Literal(UTF8String.fromString(lit.getVarChar.getValue), StringType)
      case LiteralTypeCase.FIXED_CHAR => Literal(UTF8String.fromString(lit.getFixedChar), StringType)
      case LiteralTypeCase.BINARY => Literal(lit.getBinary.toByteArray, BinaryType)
      case LiteralTypeCase.FIXED_BINARY => Literal(lit.getFixedBinary.toByteArray, BinaryType)
      case LiteralTypeCase.DATE =>
        Literal(inSparkRange(lit.getDate.toLong, MinDay, MaxDay, "date", "days", at / "date").toInt, DateType)
      case LiteralTypeCase.UUID =>
        if (lit.getUuid.size != 16)
          throw SubstraitErrors.invalidPlan(at / "uuid", s"a uuid of ${lit.getUuid.size} bytes", "16 bytes")
        Literal(lit.getUuid.toByteArray, UuidType.Instance)
      case LiteralTypeCase.PRECISION_TIMESTAMP =>
        val p = lit.getPrecisionTimestamp
        Literal(timestampMicros(p.getValue, p.getPrecision, at / "precision_timestamp"), TimestampNTZType)
      case LiteralTypeCase.PRECISION_TIMESTAMP_TZ =>
        val p = lit.getPrecisionTimestampTz
        Literal(timestampMicros(p.getValue, p.getPrecision, at / "precision_timestamp_tz"), TimestampType)
      case LiteralTypeCase.PRECISION_TIME =>
        val p = lit.getPrecisionTime
        time(toNanos(p.getValue, p.getPrecision, at / "precision_time"),
          math.min(p.getPrecision, TypeConverter.MaxSubsecondPrecision),
          at / "precision_time")
      // The deprecated time literal: microseconds since midnight.
      case LiteralTypeCase.INTERVAL_COMPOUND =>
        val c = lit.getIntervalCompound
        val cAt = at / "interval_compound"
        val months = yearMonthMonths(c.getIntervalYearToMonth, cAt / "interval_year_to_month")
        val d = c.getIntervalDayToSecond
        val micros = dayToSecondMicros(d.toBuilder.setDays(0).build(), cAt / "interval_day_to_second")
        Literal(new CalendarInterval(months, d.getDays, micros), CalendarIntervalType)
      case LiteralTypeCase.DECIMAL => decimal(lit.getDecimal, at / "decimal")
      case LiteralTypeCase.INTERVAL_YEAR_TO_MONTH =>
        Literal(yearMonthMonths(lit.getIntervalYearToMonth, at / "interval_year_to_month"), YearMonthIntervalType())
      case LiteralTypeCase.INTERVAL_DAY_TO_SECOND =>
        Literal(dayToSecondMicros(lit.getIntervalDayToSecond, at / "interval_day_to_second"), DayTimeIntervalType())
      case LiteralTypeCase.STRUCT =>
        val fields = structFields(lit.getStruct, at / "struct").map(_.asInstanceOf[Literal])
        val dt = StructType(fields.zipWithIndex.map { case (f, i) => StructField(s"f$i", f.dataType, nullable = true) })
        Literal(InternalRow.fromSeq(fields.map(_.value)), dt)
      case LiteralTypeCase.LIST =>
        val values = lit.getList.getValuesList.asScala.toSeq.zipWithIndex.map { case (v, i) =>
          convert(v, (at / "list").at("values", i)).asInstanceOf[Literal]
        }
        if (values.isEmpty)
          throw SubstraitErrors.invalidPlan(at / "list", "an empty list", "at least one value (use empty_list)")
        val elementType = values.head.dataType
        values.zipWithIndex.find(_._1.dataType != elementType).foreach { case (v, i) =>
          throw SubstraitErrors.typeMismatch((at / "list").at("values", i), v.dataType.simpleString,
            elementType.simpleString)
        }
        Literal(new GenericArrayData(values.map(_.value).toArray), ArrayType(elementType, containsNull = true))
      case LiteralTypeCase.EMPTY_LIST =>
        Literal(new GenericArrayData(Array.empty[Any]),
          TypeConverter.convert(
            io.sparksubstrait.proto.Type.newBuilder().setList(lit.getEmptyList).build(), at / "empty_list").dataType)
      case LiteralTypeCase.MAP =>
        val pairs = lit.getMap.getKeyValuesList.asScala.toSeq.zipWithIndex.map { case (kv, i) =>
          val kvAt = (at / "map").at("key_values", i)
          (convert(kv.getKey, kvAt / "key").asInstanceOf[Literal],
            convert(kv.getValue, kvAt / "value").asInstanceOf[Literal])
        }
        if (pairs.isEmpty)
          throw SubstraitErrors.invalidPlan(at / "map", "an empty map", "at least one entry (use empty_map)")
        if (pairs.exists(_._1.value == null))
          throw SubstraitErrors.invalidPlan(at / "map", "a NULL map key", "non-NULL keys")
        Literal(ArrayBasedMapData(pairs.map(_._1.value).toArray, pairs.map(_._2.value).toArray),
          MapType(pairs.head._1.dataType, pairs.head._2.dataType, valueContainsNull = true))
      case LiteralTypeCase.EMPTY_MAP =>
        Literal(ArrayBasedMapData(Array.empty[Any], Array.empty[Any]),
          TypeConverter.convert(
            io.sparksubstrait.proto.Type.newBuilder().setMap(lit.getEmptyMap).build(), at / "empty_map").dataType)
      case LiteralTypeCase.NULL if lit.getNull.getKindCase == io.sparksubstrait.proto.Type.KindCase.KIND_NOT_SET =>
        // The spec's null literal carries its type; a typeless one is typed only by a producer's reading
        // (decode/readings: DuckDB's, where a cast, a set's other branches, a list's other elements or a
        // comparison's other argument fix it), so what is left names no type.
        throw SubstraitErrors.missingField(at / "null", "kind",
          "the NULL's type (a null literal carries its type; a cast around it would give one)")
      case LiteralTypeCase.NULL =>
        Literal(null, TypeConverter.convert(lit.getNull, at / "null").dataType)
      case LiteralTypeCase.LITERALTYPE_NOT_SET =>
        throw SubstraitErrors.missingField(at, "literal_type", "a literal value")
      case other =>
        throw SubstraitErrors.unsupported(at, s"literal of kind ${other.name().toLowerCase}",
          "a literal of a type listed in docs/supported.md")
    }
  }

  /** Decimal literals are 16 bytes of little-endian two's complement. */
  private def decimal(d: SLiteral.Decimal, at: PlanPath): Literal = {
    val bytes = d.getValue.toByteArray
    if (bytes.length != 16) {
      throw SubstraitErrors.invalidPlan(at / "value", s"${bytes.length} bytes",
        "16 bytes (little-endian two's complement)")
    }
    if (d.getPrecision < 1 || d.getPrecision > DecimalType.MAX_PRECISION || d.getScale < 0 ||
      d.getScale > d.getPrecision) {
      throw SubstraitErrors.invalidPlan(at, s"decimal<${d.getPrecision},${d.getScale}>",
        s"a precision from 1 to ${DecimalType.MAX_PRECISION} and a scale from 0 to the precision")
    }
    val unscaled = new BigInteger(bytes.reverse)
    val value = new JBigDecimal(unscaled, d.getScale)
    if (value.precision() > d.getPrecision) {
      throw SubstraitErrors.invalidPlan(at, s"the value $value",
        s"a value that fits decimal<${d.getPrecision},${d.getScale}>")
    }
    Literal(longHeld(Decimal(value, d.getPrecision, d.getScale)), DecimalType(d.getPrecision, d.getScale))
  }

  /**
   * The same value held as an unscaled long when it has up to 18 digits. Spark's Decimal
   * compares two long-held values as longs, and as BigDecimals (an allocation a row) when
   * either holds a BigDecimal. A column read from a file holds the long; so does the literal
   * of a SQL comparison to an integer, which constant folding casts. TPC-DS q13's range
   * filters on store_sales ran 60% more CPU with the BigDecimal form.
   */
  private[convert] def longHeld(d: Decimal): Decimal =
    if (d.precision <= Decimal.MAX_LONG_DIGITS) Decimal(d.toUnscaledLong, d.precision, d.scale) else d

  // Spark's dates and timestamps run from 0001-01-01 to 9999-12-31 (UTC): what its date
  // functions, casts and clients handle (PySpark's datetime fails on a row before year 1).
  // A literal outside is refused here rather than failing when a row is collected.
  private val MinDay = -719162L // 0001-01-01
  private val MaxDay = 2932896L // 9999-12-31
  private val MinMicros = MinDay * 86400L * 1000000L
  private val MaxMicros = (MaxDay + 1) * 86400L * 1000000L - 1

  private def inSparkRange(value: Long, min: Long, max: Long, kind: String, unit: String, at: PlanPath): Long = {
    if (value < min || value > max) {
      throw SubstraitErrors.invalidPlan(at, s"a $kind of $value $unit since 1970-01-01",
        s"a $kind from 0001-01-01 to 9999-12-31 ($min to $max $unit), the range Spark supports")
    }
    value
  }

  private def timestampMicros(value: Long, precision: Int, at: PlanPath): Long =
    inSparkRange(toMicros(value, precision, at), MinMicros, MaxMicros, "timestamp", "microseconds", at)

  private def toMicros(value: Long, precision: Int, at: PlanPath): Long = {
    if (precision < 0 || precision > 12) {
      throw SubstraitErrors.invalidPlan(at / "precision", s"precision $precision", "a precision from 0 to 12")
    }
    if (precision <= 6) {
      try Math.multiplyExact(value, math.pow(10, 6 - precision).toLong)
      catch {
        case _: ArithmeticException =>
          throw SubstraitErrors.invalidPlan(at, s"a timestamp of $value at precision $precision",
            "a timestamp from 0001-01-01 to 9999-12-31, the range Spark supports")
      }
    } else {
      val divisor = math.pow(10, precision - 6).toLong
      if (value % divisor != 0) {
        throw SubstraitErrors.unsupported(at,
          s"a value with precision $precision and nonzero digits below microseconds",
          "a value Spark can hold exactly (microseconds)")
      }
      value / divisor
    }
  }

  private def yearMonthMonths(i: SLiteral.IntervalYearToMonth, at: PlanPath): Int =
    try Math.addExact(Math.multiplyExact(i.getYears, 12), i.getMonths)
    catch {
      case _: ArithmeticException => throw SubstraitErrors.invalidPlan(at,
          s"an interval of ${i.getYears} years and ${i.getMonths} months",
          "an interval of at most 2147483647 months either way")
    }

  /**
   * A time of day as nanoseconds since midnight: exact (digits below microseconds are an
   * error, as for timestamps), and within the day (checked before scaling, which could overflow).
   */
  private def toNanos(value: Long, precision: Int, at: PlanPath): Long = {
    val unitsPerDay = if (precision >= 0 && precision <= 12) BigInt(86400) * BigInt(10).pow(precision) else BigInt(1)
    if (value < 0 || BigInt(value) >= unitsPerDay) {
      throw SubstraitErrors.invalidPlan(at / "value", s"the time $value at precision $precision",
        "a time of day: at least 0 and less than 24 hours")
    }
    Math.multiplyExact(toMicros(value, precision, at), 1000L)
  }

  private def time(nanos: Long, precision: Int, at: PlanPath): CExpression =
    SparkShim.timeLiteral(nanos, precision).fold(
      missing =>
        throw SubstraitErrors.unsupported(at, "a precision_time literal",
          s"$missing (Spark ${org.apache.spark.SPARK_VERSION})"),
      identity)

  private def dayToSecondMicros(i: SLiteral.IntervalDayToSecond, at: PlanPath): Long = {
    // Older plans' microseconds field was lifted into precision 6 by the decoder.
    val subsecondMicros = toMicros(i.getSubseconds, i.getPrecision, at)
    try {
      val seconds = Math.addExact(Math.multiplyExact(i.getDays.toLong, 86400L), i.getSeconds.toLong)
      Math.addExact(Math.multiplyExact(seconds, MicrosPerSecond), subsecondMicros)
    } catch {
      case _: ArithmeticException => throw SubstraitErrors.invalidPlan(at,
          s"an interval of ${i.getDays} days, ${i.getSeconds} seconds and ${i.getSubseconds} subseconds",
          "an interval of at most 2^63 - 1 microseconds either way (Spark's day-time interval)")
    }
  }

  private def checkRange(v: Int, min: Int, max: Int, kind: String, at: PlanPath): Int = {
    if (v < min || v > max) {
      throw SubstraitErrors.invalidPlan(at / kind, s"the value $v", s"a value from $min to $max")
    }
    v
  }

  /** A user-defined type's literal: a built-in unsigned integer's, or one a session's handler reads. */
  private def userDefined(u: SLiteral.UserDefined, at: PlanPath)(implicit env: TypeEnv): CExpression =
    TypeConverter.userType(u.getTypeReference, at) match {
      case unsigned: UnsignedTypes.Unsigned => unsignedLiteral(u, unsigned, at)
      case handled: HandledUserType => HandledUserLiterals.convert(u, handled, at)
    }

  /** An unsigned integer: its value is a decimal string (the struct form's one field). */
  private def unsignedLiteral(u: SLiteral.UserDefined, unsigned: UnsignedTypes.Unsigned, at: PlanPath)
    : CExpression = {
    val text = u.getValCase match {
      case SLiteral.UserDefined.ValCase.STRUCT
          if u.getStruct.getFieldsCount == 1 && u.getStruct.getFields(0).hasString =>
        u.getStruct.getFields(0).getString
      case other =>
        throw SubstraitErrors.invalidPlan(at, s"a ${unsigned.name} value given as ${other.name().toLowerCase}",
          "a struct of one string, the decimal digits (the extension's structure)")
    }
    val value = scala.util.Try(BigInt(text.trim)).toOption.filter(v => v >= 0 && v <= unsigned.max)
      .getOrElse(throw SubstraitErrors.invalidPlan(at, s"${unsigned.name} value '$text'",
          s"a whole number from 0 to ${unsigned.max}"))
    unsigned.sparkType match {
      case ShortType => Literal(value.toShort, ShortType)
      case IntegerType => Literal(value.toInt, IntegerType)
      case LongType => Literal(value.toLong, LongType)
      case d => Literal(Decimal(BigDecimal(value), 20, 0), d)
    }
  }

  def structFields(s: SLiteral.Struct, at: PlanPath)(implicit env: TypeEnv): Seq[CExpression] =
    s.getFieldsList.asScala.zipWithIndex.map { case (f, i) => convert(f, at.at("fields", i)) }.toSeq
}
