package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Expression.Nested
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, CreateArray, CreateMap, CreateNamedStruct, Literal, Expression => CExpression
}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.TypeConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/** Struct, list and map constructors. Struct fields get positional names (f0, f1, …), as struct types do. */
private[sparksubstrait] object NestedConverter {
  def convert(n: Nested, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    TypeConverter.checkVariation(n.getTypeVariationReference, at)(ctx.types)
    n.getNestedTypeCase match {
      case Nested.NestedTypeCase.STRUCT =>
        val fields = n.getStruct.getFieldsList.asScala.toSeq.zipWithIndex.map { case (f, i) =>
          ExpressionConverter.convert(f, input, (at / "struct").at("fields", i))
        }
        CreateNamedStruct(fields.zipWithIndex.flatMap { case (f, i) => Seq(Literal(s"f$i"), f) })
      case Nested.NestedTypeCase.LIST =>
        val values = n.getList.getValuesList.asScala.toSeq.zipWithIndex.map { case (v, i) =>
          ExpressionConverter.convert(v, input, (at / "list").at("values", i))
        }
        if (values.isEmpty) throw SubstraitErrors.invalidPlan(at / "list", "an empty list",
          "one or more values (an empty list is a literal)")
        CreateArray(values)
      case Nested.NestedTypeCase.MAP =>
        val kvs = n.getMap.getKeyValuesList.asScala.toSeq.zipWithIndex.flatMap { case (kv, i) =>
          val kvAt = (at / "map").at("key_values", i)
          Seq(ExpressionConverter.convert(kv.getKey, input, kvAt / "key"),
            ExpressionConverter.convert(kv.getValue, input, kvAt / "value"))
        }
        if (kvs.isEmpty) throw SubstraitErrors.invalidPlan(at / "map", "an empty map",
          "one or more entries (an empty map is a literal)")
        CreateMap(kvs)
      case _ => throw SubstraitErrors.missingField(at, "nested_type", "a struct, list or map")
    }
  }
}
