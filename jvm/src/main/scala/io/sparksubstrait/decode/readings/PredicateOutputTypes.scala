package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Expression, Plan, Type}

/**
 * DuckDB stamps a predicate with its arguments' type as output_type (`lte:date_date`
 * declared `date?`). A comparison or boolean connective returns a boolean whatever the plan
 * declares, so the declared type is lifted to boolean (same nullability).
 */
private[sparksubstrait] object PredicateOutputTypes extends ReadingOf(Releases.DuckDb) with LiftsOneAtATime {
  val name = "duckdb-predicate-output-type"
  val meaning = "predicates declare their arguments' type as output_type; read as boolean"

  /** The standard extensions' functions that return a boolean for any arguments, by base name. */
  private val Predicates = Set("equal", "not_equal", "lt", "lte", "gt", "gte", "between", "is_null", "is_not_null",
    "is_nan", "is_finite", "is_infinite", "is_distinct_from", "is_not_distinct_from", "is_true", "is_false",
    "is_not_true", "is_not_false", "and", "or", "not", "xor", "and_not", "like", "ilike", "contains", "starts_with",
    "ends_with", "prefix", "suffix", "~~", "!~~")

  def rewrite(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Message]] = {
    val names = plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map { d =>
      d.getExtensionFunction.getFunctionAnchor -> DeclaredFunctions.baseName(d.getExtensionFunction.getName)
    }.toMap
    Some {
      case (f: Expression.ScalarFunction, _)
          if f.hasOutputType && f.getOutputType.getKindCase != Type.KindCase.BOOL &&
            names.get(f.getFunctionReference).exists(Predicates) =>
        found(s"${names(f.getFunctionReference)} declared ${f.getOutputType.getKindCase.name.toLowerCase}")
        f.toBuilder.setOutputType(Type.newBuilder().setBool(Type.Boolean.newBuilder()
              .setNullability(nullability(f.getOutputType)))).build()
    }
  }

  private def nullability(t: Type): Type.Nullability = {
    val kind = t.getAllFields.asScala.values.collectFirst { case m: com.google.protobuf.Message => m }
    kind.flatMap(m => Option(m.getDescriptorForType.findFieldByName("nullability")).map(m.getField))
      .collect { case v: com.google.protobuf.Descriptors.EnumValueDescriptor => Type.Nullability.valueOf(v) }
      .getOrElse(Type.Nullability.NULLABILITY_NULLABLE)
  }
}
