package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, Plan, Type}

import io.sparksubstrait.errors.SubstraitErrors

/**
 * A struct built from values is the spec's nested expression (`Expression.Nested.struct`);
 * DuckDB writes its `struct_pack(a := x, b := y)` and `{'a': x, 'b': y}` as a call of
 * `struct_pack(x, y)`, DataFusion its `named_struct('a', x, 'b', y)` (and `struct(x, y)`) as
 * a call of `named_struct('a', x, 'b', y)`, neither declared in any extension. In both
 * engines the call is the struct of those values, in order; the field names are the plan's
 * root names (both write them depth first: `[id, s, a, b]`), as for any nested struct. Read
 * as the nested struct of the values. A DataFusion call whose names are not string literals
 * in the even places is refused: nothing else gives the values' places.
 */
private[sparksubstrait] final case class StructConstructors(name: String, releases: String,
  applies: ProducerStamp => Boolean, function: String, namesInterleaved: Boolean) extends Reading {
  val meaning: String =
    if (namesInterleaved) s"$function('a', x, 'b', y) read as the nested struct (x, y), named by the root names"
    else s"$function(x, y) read as the nested struct (x, y), named by the root names"

  def appliesTo(stamp: ProducerStamp): Boolean = applies(stamp)

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Set(function))
    if (anchors.isEmpty) plan
    else MessageRewrite.skippingLeavesLocated(plan) {
      case (e: Expression, at) if e.hasScalarFunction && anchors(e.getScalarFunction.getFunctionReference) =>
        val f = e.getScalarFunction
        val callAt = at / "scalar_function"
        val args = f.getArgumentsList.asScala.toSeq.zipWithIndex.map { case (a, i) =>
          if (!a.hasValue)
            throw SubstraitErrors.invalidPlan(callAt.at("arguments", i), s"a ${a.getArgTypeCase} argument",
              s"a value: $function takes values only")
          a.getValue
        }
        val values = if (!namesInterleaved) args
        else {
          val names = args.indices.collect { case i if i % 2 == 0 => i }
          val named = args.size % 2 == 0 && names.forall(i => args(i).hasLiteral && args(i).getLiteral.hasString)
          if (!named) throw SubstraitErrors.invalidPlan(callAt, s"$function with ${args.size} arguments",
            s"pairs of a field name (a string literal) and its value, as DataFusion writes $function")
          args.indices.collect { case i if i % 2 == 1 => args(i) }
        }
        if (values.isEmpty) throw SubstraitErrors.invalidPlan(callAt, s"$function of no values",
          "one or more values (a struct has at least one field)")
        found(s"$callAt: $function of ${values.size} value(s) read as a nested struct")
        val nullable = f.hasOutputType && f.getOutputType.hasStruct &&
          f.getOutputType.getStruct.getNullability == Type.Nullability.NULLABILITY_NULLABLE
        val struct = Expression.Nested.Struct.newBuilder().addAllFields(values.asJava)
        Expression.newBuilder().setNested(
          Expression.Nested.newBuilder().setNullable(nullable).setStruct(struct)).build()
    }
  }
}

private[sparksubstrait] object StructConstructors {
  val duckDb: StructConstructors = StructConstructors("duckdb-struct-pack", Releases.DuckDb.describe,
    Releases.DuckDb.applies, "struct_pack", namesInterleaved = false)
  val dataFusion: StructConstructors = StructConstructors("datafusion-named-struct",
    "DataFusion 39 to 55 (every release that writes it; spec 0.45 on)",
    _.within("datafusion", "0.0", ProducerStamp.Newest),
    "named_struct", namesInterleaved = true)
}
