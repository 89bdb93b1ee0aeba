package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{CreateNamedStruct, GetStructField}

import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.proto.Expression.{FieldReference, ReferenceSegment}
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * Structs: building one (named_struct, e.g. the optimizer's merged scalar subqueries, which
 * return their values as one struct) as a Nested struct of its values (Substrait's struct
 * fields are positional: the names stay in the plan's root names where the struct is output),
 * and reading a field of one as a field reference rooted at the struct's expression.
 */
private[sparksubstrait] object StructWriter {
  def create(c: CreateNamedStruct, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val s = SExpression.Nested.Struct.newBuilder()
    c.valExprs.zip(c.names).foreach { case (v, name) =>
      s.addFields(ExpressionWriter.write(v, input, at / s"field $name"))
    }
    SExpression.newBuilder().setNested(SExpression.Nested.newBuilder().setNullable(false).setStruct(s)).build()
  }

  def field(g: GetStructField, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    if (!ctx.target.fieldsOfExpressions) {
      throw SubstraitErrors.unwritable((at / g).toString, s"a field of ${g.child.prettyName} (GetStructField)",
        s"the ${ctx.target.name} target's consumer reads a field of an expression as a column of the input",
        "a plan for another target (the default reads it)")
    }
    val struct = ExpressionWriter.write(g.child, input, at)
    SExpression.newBuilder().setSelection(FieldReference.newBuilder().setExpression(struct).setDirectReference(
        ReferenceSegment.newBuilder().setStructField(ReferenceSegment.StructField.newBuilder().setField(g.ordinal))))
      .build()
  }
}
