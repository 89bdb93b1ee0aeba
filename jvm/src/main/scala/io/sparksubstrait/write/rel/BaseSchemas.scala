package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.Attribute

import io.sparksubstrait.proto.{NamedStruct, Type}
import io.sparksubstrait.write.CatalystPath
import io.sparksubstrait.write.types.TypeWriter

/** A read's base_schema: the columns' names (nested struct fields too, depth first) and types. */
private[sparksubstrait] object BaseSchemas {
  def of(output: Seq[Attribute], at: CatalystPath): NamedStruct = {
    val struct = Type.Struct.newBuilder().setNullability(Type.Nullability.NULLABILITY_REQUIRED)
    output.foreach(a => struct.addTypes(TypeWriter.write(a.dataType, a.nullable, at / s"column ${a.name}")))
    val b = NamedStruct.newBuilder().setStruct(struct)
    TypeWriter.nestedNames(org.apache.spark.sql.types.StructType(output.map(a =>
          org.apache.spark.sql.types.StructField(a.name, a.dataType, a.nullable)))).foreach(b.addNames)
    b.build()
  }
}
