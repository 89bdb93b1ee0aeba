package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.proto.Expression.{FieldReference, ReferenceSegment}
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * Field references by position in the input record; an outer reference (a correlated
 * subquery's reference to the enclosing query) by position in the enclosing relation's
 * record, one subquery boundary out (Spark resolves outer references one level out only).
 */
private[sparksubstrait] object FieldReferenceWriter {
  def field(index: Int): SExpression = SExpression.newBuilder().setSelection(
    FieldReference.newBuilder().setDirectReference(segment(index)).setRootReference(
      FieldReference.RootReference.getDefaultInstance)).build()

  def attribute(a: Attribute, input: InputRecord, at: CatalystPath): SExpression =
    input.indexOf(a).map(field).getOrElse(throw SubstraitErrors.unwritable(at.toString, s"the column ${a.sql}",
        s"it is not among the input's columns (${input.columns.map(_.sql).mkString(", ")})",
        "references to the input's columns"))

  def outer(e: Expression, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val record =
      ctx.outerRecord.getOrElse(throw SubstraitErrors.unwritable(at.toString, s"the outer reference ${e.sql}",
          "it is outside any subquery", "outer references inside a subquery"))
    val index =
      record.indexOf(e).getOrElse(throw SubstraitErrors.unwritable(at.toString, s"the outer reference ${e.sql}",
          "it is not a column of the enclosing relation's input", "references to the immediately enclosing query"))
    SExpression.newBuilder().setSelection(FieldReference.newBuilder().setDirectReference(segment(index))
        .setOuterReference(FieldReference.OuterReference.newBuilder().setStepsOut(1))).build()
  }

  private def segment(index: Int): ReferenceSegment =
    ReferenceSegment.newBuilder().setStructField(ReferenceSegment.StructField.newBuilder().setField(index)).build()
}
