package io.sparksubstrait.functiontests

import java.math.{BigDecimal => JBigDecimal, BigInteger}
import java.time.{LocalDate, LocalDateTime, LocalTime, OffsetDateTime, ZoneOffset}

import scala.jdk.CollectionConverters._

import com.google.protobuf.ByteString
import io.sparksubstrait.proto.{Expression, Type}
import io.sparksubstrait.proto.Expression.Literal

/** Test-file types and values as Substrait `Type`s and `Literal`s. */
object TestValues {

  /** A type the runner cannot express as a Substrait type (e.g. a function type). */
  final class UnsupportedTestType(msg: String) extends RuntimeException(msg)

  private def nullability(t: TestType) =
    if (t.nullable) Type.Nullability.NULLABILITY_NULLABLE else Type.Nullability.NULLABILITY_REQUIRED

  private def intParam(t: TestType, i: Int, default: Int): Int = t.params.lift(i) match {
    case Some(IntParam(v)) => v
    case None => default
    case Some(other) => throw new UnsupportedTestType(s"type parameter $other of $t")
  }
  private def typeParam(t: TestType, i: Int): TestType = t.params.lift(i) match {
    case Some(TypeParam(p)) => p
    case other => throw new UnsupportedTestType(s"type parameter $other of $t")
  }

  /** Anchors of user-defined types (the unsigned integers), declared by the plan builder. */
  val userDefinedTypes: Seq[String] = Seq("u8", "u16", "u32", "u64")

  def protoType(t: TestType): Type = {
    val n = nullability(t)
    val b = Type.newBuilder()
    t.name match {
      case "bool" => b.setBool(Type.Boolean.newBuilder().setNullability(n))
      case "i8" => b.setI8(Type.I8.newBuilder().setNullability(n))
      case "i16" => b.setI16(Type.I16.newBuilder().setNullability(n))
      case "i32" => b.setI32(Type.I32.newBuilder().setNullability(n))
      case "i64" => b.setI64(Type.I64.newBuilder().setNullability(n))
      case "fp32" => b.setFp32(Type.FP32.newBuilder().setNullability(n))
      case "fp64" => b.setFp64(Type.FP64.newBuilder().setNullability(n))
      case "str" => b.setString(Type.String.newBuilder().setNullability(n))
      case "vbin" => b.setBinary(Type.Binary.newBuilder().setNullability(n))
      case "date" => b.setDate(Type.Date.newBuilder().setNullability(n))
      case "uuid" => b.setUuid(Type.UUID.newBuilder().setNullability(n))
      case "dec" => b.setDecimal(Type.Decimal.newBuilder().setNullability(n)
            .setPrecision(intParam(t, 0, 38)).setScale(intParam(t, 1, 0)))
      case "vchar" => b.setVarchar(Type.VarChar.newBuilder().setNullability(n).setLength(intParam(t, 0, 1)))
      case "fchar" => b.setFixedChar(Type.FixedChar.newBuilder().setNullability(n).setLength(intParam(t, 0, 1)))
      case "fbin" => b.setFixedBinary(Type.FixedBinary.newBuilder().setNullability(n).setLength(intParam(t, 0, 1)))
      case "iyear" => b.setIntervalYear(Type.IntervalYear.newBuilder().setNullability(n))
      case "iday" => b.setIntervalDay(Type.IntervalDay.newBuilder().setNullability(n).setPrecision(intParam(t, 0, 6)))
      case "icompound" =>
        b.setIntervalCompound(Type.IntervalCompound.newBuilder().setNullability(n).setPrecision(intParam(t, 0, 6)))
      case "pt" => b.setPrecisionTime(Type.PrecisionTime.newBuilder().setNullability(n).setPrecision(intParam(t, 0, 6)))
      case "pts" =>
        b.setPrecisionTimestamp(Type.PrecisionTimestamp.newBuilder().setNullability(n).setPrecision(intParam(t, 0, 6)))
      case "ptstz" => b.setPrecisionTimestampTz(
          Type.PrecisionTimestampTZ.newBuilder().setNullability(n).setPrecision(intParam(t, 0, 6)))
      case "list" => b.setList(Type.List.newBuilder().setNullability(n).setType(protoType(typeParam(t, 0))))
      case "map" => b.setMap(Type.Map.newBuilder().setNullability(n).setKey(protoType(typeParam(t, 0))).setValue(
            protoType(typeParam(t, 1))))
      case "struct" => b.setStruct(Type.Struct.newBuilder().setNullability(n)
            .addAllTypes(t.params.indices.map(i => protoType(typeParam(t, i))).asJava))
      case "func" => t.params.headOption match {
          case Some(FuncParams(ps, r)) => b.setFunc(Type.Func.newBuilder().setNullability(n)
                .addAllParameterTypes(ps.map(protoType).asJava).setReturnType(protoType(r)))
          case _ => throw new UnsupportedTestType(s"function type $t")
        }
      case udt if udt.startsWith("u!") && userDefinedTypes.contains(udt.drop(2)) =>
        b.setUserDefined(Type.UserDefined.newBuilder().setNullability(n)
            .setTypeReference(userDefinedTypes.indexOf(udt.drop(2)) + 1))
      case other => throw new UnsupportedTestType(s"type $other")
    }
    b.build()
  }

  def literal(v: RawValue, t: TestType): Expression = Expression.newBuilder().setLiteral(lit(v, t)).build()

  private def lit(v: RawValue, t: TestType): Literal = {
    val b = Literal.newBuilder().setNullable(t.nullable)
    (v, t.name) match {
      case (NullValue, _) => b.setNull(protoType(t.copy(nullable = true))).setNullable(true)
      case (Token(x), "bool") => b.setBoolean(x.toBoolean)
      case (Token(x), "i8") => b.setI8(exactInt(x, Byte.MinValue, Byte.MaxValue, t).toInt)
      case (Token(x), "i16") => b.setI16(exactInt(x, Short.MinValue, Short.MaxValue, t).toInt)
      case (Token(x), "i32") => b.setI32(exactInt(x, Int.MinValue, Int.MaxValue, t).toInt)
      case (Token(x), "i64") => b.setI64(exactInt(x, Long.MinValue, Long.MaxValue, t))
      case (Token(x), "fp32") => b.setFp32(float(x).toFloat)
      case (Token(x), "fp64") => b.setFp64(float(x))
      case (Token(x), "dec") =>
        val p = intParam(t, 0, 38)
        val s = intParam(t, 1, 0)
        val d = new JBigDecimal(x).setScale(s, java.math.RoundingMode.UNNECESSARY)
        if (d.precision() > p) throw new UnsupportedTestType(s"$x does not fit $t")
        b.setDecimal(Literal.Decimal.newBuilder().setPrecision(p).setScale(s).setValue(decimalBytes(d.unscaledValue())))
      case (QuotedString(s), "str") => b.setString(s)
      case (QuotedString(s), "vchar") =>
        b.setVarChar(Literal.VarChar.newBuilder().setValue(s).setLength(intParam(t, 0, s.length)))
      case (QuotedString(s), "fchar") => b.setFixedChar(s)
      case (QuotedString(s), "vbin") => b.setBinary(ByteString.copyFromUtf8(s))
      case (QuotedString(s), "fbin") => b.setFixedBinary(ByteString.copyFromUtf8(s))
      case (Token(x), "date") => b.setDate(LocalDate.parse(x).toEpochDay.toInt)
      case (Token(x), "pts") =>
        val p = intParam(t, 0, 6)
        b.setPrecisionTimestamp(Literal.PrecisionTimestamp.newBuilder().setPrecision(p)
            .setValue(scaled(LocalDateTime.parse(normaliseDateTime(x)).toInstant(ZoneOffset.UTC), p)))
      case (Token(x), "ptstz") =>
        val p = intParam(t, 0, 6)
        val instant = if (x.length > 19 && (x.endsWith("Z") || x.lastIndexOf('+') > 10 || x.lastIndexOf('-') > 10))
          OffsetDateTime.parse(x).toInstant
        else LocalDateTime.parse(normaliseDateTime(x)).toInstant(ZoneOffset.UTC)
        b.setPrecisionTimestampTz(Literal.PrecisionTimestamp.newBuilder().setPrecision(p).setValue(scaled(instant, p)))
      case (Token(x), "pt") =>
        val p = intParam(t, 0, 6)
        val nanos = LocalTime.parse(x).toNanoOfDay
        b.setPrecisionTime(Literal.PrecisionTime.newBuilder().setPrecision(p).setValue(nanos / math.pow(10,
            9 - p).toLong))
      case (Token(x), "iyear") =>
        val (years, months) = Durations.yearMonth(x)
        b.setIntervalYearToMonth(Literal.IntervalYearToMonth.newBuilder().setYears(years).setMonths(months))
      case (Token(x), "iday") =>
        val p = intParam(t, 0, 6)
        val (days, seconds, nanos) = Durations.daySecond(x)
        b.setIntervalDayToSecond(Literal.IntervalDayToSecond.newBuilder().setDays(days).setSeconds(seconds)
            .setPrecision(p).setSubseconds(nanos / math.pow(10, 9 - p).toLong))
      case (ListValue(items), "list") =>
        val elem = typeParam(t, 0)
        if (items.isEmpty) b.setEmptyList(protoType(t).getList)
        else b.setList(Literal.List.newBuilder().addAllValues(items.map(lit(_, elem)).asJava))
      case (MapValue(entries), "map") =>
        val (k, vt) = (typeParam(t, 0), typeParam(t, 1))
        if (entries.isEmpty) b.setEmptyMap(protoType(t).getMap)
        else b.setMap(Literal.Map.newBuilder().addAllKeyValues(entries.map { case (kk, vv) =>
          Literal.Map.KeyValue.newBuilder().setKey(lit(kk, k)).setValue(lit(vv, vt)).build()
        }.asJava))
      case (StructValue(items), "struct") if items.size == t.params.size =>
        b.setStruct(Literal.Struct.newBuilder().addAllFields(items.zipWithIndex.map { case (x, i) =>
          lit(x, typeParam(t, i))
        }.asJava))
      case (StructValue(Seq(QuotedString(s))), udt) if udt.startsWith("u!") => unsigned(b, s, udt)
      case (QuotedString(s), udt) if udt.startsWith("u!") => unsigned(b, s, udt)
      case _ => throw new UnsupportedTestType(s"value $v of type $t")
    }
    b.build()
  }

  /** An unsigned integer is a user-defined type: its value travels as a struct of its digits. */
  private def unsigned(b: Literal.Builder, digits: String, udt: String): Literal.Builder =
    b.setUserDefined(Literal.UserDefined.newBuilder().setTypeReference(userDefinedTypes.indexOf(udt.drop(2)) + 1)
        .setStruct(Literal.Struct.newBuilder().addFields(Literal.newBuilder().setString(digits))))

  private def exactInt(x: String, min: Long, max: Long, t: TestType): Long = {
    val v = new JBigDecimal(x)
    val l = try v.longValueExact()
    catch { case _: ArithmeticException => throw new UnsupportedTestType(s"$x is not a $t") }
    if (l < min || l > max) throw new UnsupportedTestType(s"$x does not fit $t")
    l
  }

  def float(x: String): Double = x.toLowerCase.replace("infinity", "inf") match {
    case "inf" | "+inf" => Double.PositiveInfinity
    case "-inf" => Double.NegativeInfinity
    case "nan" | "+nan" | "-nan" => Double.NaN
    case other => other.toDouble
  }

  /** Two's complement, little-endian, 16 bytes: Substrait's decimal literal encoding. */
  private def decimalBytes(unscaled: BigInteger): ByteString = {
    val big = unscaled.toByteArray
    val out = Array.fill[Byte](16)(if (unscaled.signum < 0) -1 else 0)
    big.reverse.zipWithIndex.foreach { case (byte, i) => if (i < 16) out(i) = byte }
    ByteString.copyFrom(out)
  }

  private def normaliseDateTime(x: String): String = x.takeWhile(c => c != 'Z' && c != '+') match {
    case s if s.length > 19 && s.lastIndexOf('-') > 10 => s.substring(0, s.lastIndexOf('-'))
    case s => s
  }

  private def scaled(i: java.time.Instant, precision: Int): Long = {
    val perSecond = BigInteger.TEN.pow(precision)
    BigInteger.valueOf(i.getEpochSecond).multiply(perSecond)
      .add(BigInteger.valueOf(i.getNano).multiply(perSecond).divide(BigInteger.valueOf(1000000000L))).longValueExact()
  }
}

/** ISO 8601 durations as the test files write intervals: `P1Y2M`, `P1DT10H0M0S`, `PT1.5S`. */
object Durations {
  private val shape = """(-?)P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?)?""".r

  private def parts(x: String) = x match {
    case shape(sign, y, mo, d, h, mi, s, frac) =>
      def n(v: String) = Option(v).map(_.toLong).getOrElse(0L)
      (if (sign == "-") -1 else 1, n(y), n(mo), n(d), n(h), n(mi), n(s),
        Option(frac).map(f => (f + "000000000").take(9).toLong).getOrElse(0L))
    case _ => throw new TestValues.UnsupportedTestType(s"interval $x")
  }

  def yearMonth(x: String): (Int, Int) = {
    val (sign, y, mo, d, h, mi, s, f) = parts(x)
    if (d != 0 || h != 0 || mi != 0 || s != 0 || f != 0)
      throw new TestValues.UnsupportedTestType(s"year-month interval $x")
    ((sign * y).toInt, (sign * mo).toInt)
  }

  /** (days, seconds, nanoseconds). */
  def daySecond(x: String): (Int, Int, Long) = {
    val (sign, y, mo, d, h, mi, s, f) = parts(x)
    if (y != 0 || mo != 0) throw new TestValues.UnsupportedTestType(s"day-second interval $x")
    ((sign * d).toInt, (sign * (h * 3600 + mi * 60 + s)).toInt, sign * f)
  }
}
