package io.sparksubstrait.convert.types

import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

/** Spark types written with Substrait's short names, for error messages and signatures. */
private[sparksubstrait] object SparkTypeNames {
  def of(dt: DataType): String = dt match {
    case BooleanType => "bool"
    case ByteType => "i8"
    case ShortType => "i16"
    case IntegerType => "i32"
    case LongType => "i64"
    case FloatType => "fp32"
    case DoubleType => "fp64"
    case _: StringType => "string"
    case BinaryType => "binary"
    case _: UuidType => "uuid"
    case DateType => "date"
    case TimestampNTZType => "precision_timestamp<6>"
    case TimestampType => "precision_timestamp_tz<6>"
    case d: DecimalType => s"decimal<${d.precision},${d.scale}>"
    case _: YearMonthIntervalType => "interval_year"
    case _: DayTimeIntervalType => "interval_day<6>"
    case CalendarIntervalType => "interval_compound<6>"
    case t if SparkShim.timePrecision(t).isDefined => s"precision_time<${SparkShim.timePrecision(t).get}>"
    case NullType => "null"
    case ArrayType(e, _) => s"list<${of(e)}>"
    case MapType(k, v, _) => s"map<${of(k)},${of(v)}>"
    case s: StructType => s.fields.map(f => of(f.dataType)).mkString("struct<", ",", ">")
    case other => other.simpleString
  }
}
