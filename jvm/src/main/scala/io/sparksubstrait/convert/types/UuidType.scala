package io.sparksubstrait.convert.types

import java.util.UUID

import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.{BinaryType, DataType, UserDefinedType}

import io.sparksubstrait.foundation.UuidBytes

/**
 * Substrait's `uuid`: 16 bytes, held as Spark BINARY under a type of its own, so that a uuid
 * stays a uuid through the plan (a cast of it to string writes the canonical text, which a
 * cast of binary must not) while Spark compares, sorts, hashes, joins and stores it as its
 * bytes: equality is byte equality and the order is the unsigned byte order, the spec's.
 * Rows give java.util.UUID in Scala and Java, uuid.UUID in Python (spark_substrait.types).
 * Its class name is stored in the schemas of data written with it and named by Python's
 * UuidType (scalaUDT): it stays in this package; what runtime/ shares with it is UuidBytes.
 */
private[sparksubstrait] class UuidType extends UserDefinedType[UUID] {
  override def sqlType: DataType = BinaryType
  override def pyUDT: String = "spark_substrait.types.UuidType"
  override def userClass: Class[UUID] = classOf[UUID]

  override def serialize(obj: UUID): Any = UuidBytes.of(obj)
  override def deserialize(datum: Any): UUID = datum match {
    case b: Array[Byte] => UuidBytes.uuid(b)
    case other => throw new IllegalArgumentException(s"a uuid is 16 bytes, not $other")
  }
}

private[sparksubstrait] object UuidType {

  /** The one instance converters use; Spark makes others from schemas (all equal: same class). */
  val Instance: UuidType = {
    // Spark 3.5's row encoder finds the type of a java.util.UUID value only by registration.
    SparkShim.registerUserType(classOf[UUID].getName, classOf[UuidType].getName)
    new UuidType
  }
}
