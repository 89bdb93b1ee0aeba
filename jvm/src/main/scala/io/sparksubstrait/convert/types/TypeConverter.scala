package io.sparksubstrait.convert.types

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Type
import io.sparksubstrait.proto.Type.KindCase
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.extending.{HandlerClasses, UserDefinedTypes}

/**
 * Substrait types to Spark types. Nullability is returned separately because Spark keeps
 * it on the field (or element / value), not on the type.
 */
private[sparksubstrait] object TypeConverter {

  /** Spark holds timestamps and day-time intervals in microseconds. */
  val MaxSubsecondPrecision = 6

  final case class Converted(dataType: DataType, nullable: Boolean)

  def convert(t: Type, at: PlanPath)(implicit env: TypeEnv): Converted = {
    def nullable(n: Type.Nullability): Boolean = n match {
      case Type.Nullability.NULLABILITY_REQUIRED => false
      case Type.Nullability.NULLABILITY_NULLABLE => true
      // Unspecified is not valid in a plan, but some producers write it: treat as nullable,
      // the only reading that cannot produce a wrong answer.
      case _ => true
    }
    def simple(dt: DataType, n: Type.Nullability, variation: Int, kind: String): Converted = {
      checkVariation(variation, at / kind)
      Converted(dt, nullable(n))
    }
    t.getKindCase match {
      case KindCase.BOOL => simple(BooleanType, t.getBool.getNullability, t.getBool.getTypeVariationReference, "bool")
      case KindCase.I8 => simple(ByteType, t.getI8.getNullability, t.getI8.getTypeVariationReference, "i8")
      case KindCase.I16 => simple(ShortType, t.getI16.getNullability, t.getI16.getTypeVariationReference, "i16")
      case KindCase.I32 => simple(IntegerType, t.getI32.getNullability, t.getI32.getTypeVariationReference, "i32")
      case KindCase.I64 => simple(LongType, t.getI64.getNullability, t.getI64.getTypeVariationReference, "i64")
      case KindCase.FP32 => simple(FloatType, t.getFp32.getNullability, t.getFp32.getTypeVariationReference, "fp32")
      case KindCase.FP64 => simple(DoubleType, t.getFp64.getNullability, t.getFp64.getTypeVariationReference, "fp64")
      case KindCase.STRING =>
        simple(StringType, t.getString.getNullability, t.getString.getTypeVariationReference, "string")
      case KindCase.BINARY =>
        simple(BinaryType, t.getBinary.getNullability, t.getBinary.getTypeVariationReference, "binary")
      case KindCase.DATE => simple(DateType, t.getDate.getNullability, t.getDate.getTypeVariationReference, "date")
      case KindCase.UUID =>
        simple(UuidType.Instance, t.getUuid.getNullability, t.getUuid.getTypeVariationReference, "uuid")
      case KindCase.PRECISION_TIMESTAMP =>
        val p = t.getPrecisionTimestamp
        checkPrecision(p.getPrecision, at / "precision_timestamp", "precision_timestamp")
        simple(TimestampNTZType, p.getNullability, p.getTypeVariationReference, "precision_timestamp")
      case KindCase.PRECISION_TIMESTAMP_TZ =>
        val p = t.getPrecisionTimestampTz
        checkPrecision(p.getPrecision, at / "precision_timestamp_tz", "precision_timestamp_tz")
        simple(TimestampType, p.getNullability, p.getTypeVariationReference, "precision_timestamp_tz")
      case KindCase.INTERVAL_YEAR =>
        simple(YearMonthIntervalType(), t.getIntervalYear.getNullability, t.getIntervalYear.getTypeVariationReference,
          "interval_year")
      case KindCase.INTERVAL_DAY =>
        val d = t.getIntervalDay
        // precision is optional (older plans): microseconds then.
        if (d.hasPrecision) checkPrecision(d.getPrecision, at / "interval_day", "interval_day")
        simple(DayTimeIntervalType(), d.getNullability, d.getTypeVariationReference, "interval_day")
      case KindCase.INTERVAL_COMPOUND =>
        // Spark's CalendarInterval keeps months, days and microseconds apart, as Substrait does.
        val c = t.getIntervalCompound
        checkPrecision(c.getPrecision, at / "interval_compound", "interval_compound")
        simple(CalendarIntervalType, c.getNullability, c.getTypeVariationReference, "interval_compound")
      case KindCase.PRECISION_TIME =>
        val p = t.getPrecisionTime
        checkPrecision(p.getPrecision, at / "precision_time", "precision_time")
        simple(time(p.getPrecision, at / "precision_time"), p.getNullability, p.getTypeVariationReference,
          "precision_time")
      // Spark keeps CHAR/VARCHAR as metadata on table columns only; values are strings.
      case KindCase.FIXED_CHAR =>
        simple(StringType, t.getFixedChar.getNullability, t.getFixedChar.getTypeVariationReference, "fixed_char")
      case KindCase.VARCHAR =>
        simple(StringType, t.getVarchar.getNullability, t.getVarchar.getTypeVariationReference, "varchar")
      case KindCase.FIXED_BINARY =>
        simple(BinaryType, t.getFixedBinary.getNullability, t.getFixedBinary.getTypeVariationReference, "fixed_binary")
      case KindCase.DECIMAL =>
        val d = t.getDecimal
        if (d.getPrecision < 1 || d.getPrecision > DecimalType.MAX_PRECISION || d.getScale < 0 ||
          d.getScale > d.getPrecision) {
          throw SubstraitErrors.invalidPlan(at / "decimal", s"decimal<${d.getPrecision},${d.getScale}>",
            s"a precision from 1 to ${DecimalType.MAX_PRECISION} and a scale from 0 to the precision")
        }
        simple(DecimalType(d.getPrecision, d.getScale), d.getNullability, d.getTypeVariationReference, "decimal")
      case KindCase.STRUCT =>
        val s = t.getStruct
        checkVariation(s.getTypeVariationReference, at / "struct")
        Converted(structOf(s, at / "struct"), nullable(s.getNullability))
      case KindCase.LIST =>
        val l = t.getList
        checkVariation(l.getTypeVariationReference, at / "list")
        val e = convert(l.getType, at / "list" / "type")
        Converted(ArrayType(e.dataType, e.nullable), nullable(l.getNullability))
      case KindCase.MAP =>
        val m = t.getMap
        checkVariation(m.getTypeVariationReference, at / "map")
        val k = convert(m.getKey, at / "map" / "key")
        val v = convert(m.getValue, at / "map" / "value")
        Converted(MapType(k.dataType, v.dataType, v.nullable), nullable(m.getNullability))
      case KindCase.USER_DEFINED =>
        val u = t.getUserDefined
        val held = userType(u.getTypeReference, at / "user_defined")
        checkVariation(u.getTypeVariationReference, at / "user_defined")
        Converted(held.sparkType, nullable(u.getNullability))
      case KindCase.KIND_NOT_SET =>
        throw SubstraitErrors.missingField(at, "kind", "a type")
      case other =>
        throw SubstraitErrors.unsupported(at, s"type ${kindName(other)}",
          "a type with a Spark equivalent (see docs/supported.md)")
    }
  }

  /** A Substrait struct's fields carry no names: they get positional ones. */
  def structOf(s: Type.Struct, at: PlanPath)(implicit env: TypeEnv): StructType = StructType(
    s.getTypesList.asScala.zipWithIndex.map { case (ft, i) =>
      val c = convert(ft, at.at("types", i))
      StructField(s"f$i", c.dataType, c.nullable)
    }.toSeq)

  def kindName(k: KindCase): String = k.name().toLowerCase

  /**
   * A declared user-defined type Spark can hold: the spec's unsigned integers (built in, never
   * replaced), or a type a session's handler holds; any other is an error naming how to
   * register a handler.
   */
  def userType(anchor: Int, at: PlanPath)(implicit env: TypeEnv): HeldUserType = {
    val declared = env.userTypes.getOrElse(anchor,
      throw SubstraitErrors.undeclaredAnchor(at / "type_reference", "type", anchor, env.userTypes.keys.map(_.toLong)))
    UnsignedTypes.of(declared).getOrElse {
      val registered = env.registered(at)
      registered.find(declared.extension, declared.name).map { h =>
        val sparkType = HandlerClasses.call(h, "naming its Spark type", at.toString)(h.sparkType)
        if (sparkType == null) throw SubstraitErrors.extensionFailed(at.toString, HandlerClasses.describe(h),
          "naming its Spark type", "it returned null")
        HandledUserType(declared, h, sparkType)
      }.getOrElse(throw SubstraitErrors.unsupported(at,
          s"user-defined type ${declared.name} of ${declared.extension.getOrElse("an undeclared extension")}",
          "a user-defined type with a Spark equivalent: the unsigned integers u8, u16, u32, u64, or a type a " +
            s"handler named in ${UserDefinedTypes.Key} holds (docs/extending.md; ${registered.describe})"))
    }
  }

  /** Spark's TIME (4.1 and later, when the session has it on); otherwise the error says why not. */
  def time(precision: Int, at: PlanPath): DataType = SparkShim.timeType(precision).fold(
    missing =>
      throw SubstraitErrors.unsupported(at, s"precision_time<$precision>",
        s"$missing (Spark ${org.apache.spark.SPARK_VERSION})"),
    identity)

  private def checkPrecision(precision: Int, at: PlanPath, kind: String): Unit = {
    if (precision < 0 || precision > 12) {
      throw SubstraitErrors.invalidPlan(at, s"$kind precision $precision", "a precision from 0 to 12")
    }
    if (precision > MaxSubsecondPrecision) {
      throw SubstraitErrors.unsupported(at, s"$kind with precision $precision",
        s"a precision of at most $MaxSubsecondPrecision: Spark holds microseconds and would lose digits")
    }
  }

  /** Type variations other than the system-preferred one (0) change semantics we do not know. */
  def checkVariation(variation: Int, at: PlanPath)(implicit env: TypeEnv): Unit = {
    if (variation != 0) {
      throw SubstraitErrors.unsupported(at / "type_variation_reference",
        s"type variation $variation", "the system-preferred variation 0")
    }
  }
}
