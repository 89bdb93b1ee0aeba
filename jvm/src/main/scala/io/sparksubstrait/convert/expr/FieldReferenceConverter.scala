package io.sparksubstrait.convert.expr

import io.substrait.proto.Expression.FieldReference
import io.substrait.proto.Expression.FieldReference.{ReferenceTypeCase, RootTypeCase}
import io.substrait.proto.Expression.ReferenceSegment.{ReferenceTypeCase => SegmentCase}
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression => CExpression}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/** Field references into the input record. */
object FieldReferenceConverter {
  def convert(ref: FieldReference, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    ref.getRootTypeCase match {
      case RootTypeCase.ROOT_REFERENCE | RootTypeCase.ROOTTYPE_NOT_SET =>
      case other => throw SubstraitErrors.unsupported(at, s"a field reference rooted at ${other.name().toLowerCase}",
        "a reference to the input record (root_reference)")
    }
    ref.getReferenceTypeCase match {
      case ReferenceTypeCase.DIRECT_REFERENCE =>
        val segment = ref.getDirectReference
        val segAt = at / "direct_reference"
        segment.getReferenceTypeCase match {
          case SegmentCase.STRUCT_FIELD =>
            val sf = segment.getStructField
            if (sf.hasChild) {
              throw SubstraitErrors.unsupported(segAt / "struct_field" / "child", "a nested field reference",
                "a reference to a top-level field")
            }
            topLevel(sf.getField, input, segAt / "struct_field" / "field")
          case SegmentCase.REFERENCETYPE_NOT_SET => throw SubstraitErrors.missingField(segAt, "reference_type", "a reference segment")
          case other => throw SubstraitErrors.unsupported(segAt, s"a ${other.name().toLowerCase} reference at the root",
            "a struct_field reference")
        }
      case ReferenceTypeCase.MASKED_REFERENCE =>
        throw SubstraitErrors.unsupported(at / "masked_reference", "a masked reference in an expression", "a direct reference")
      case _ => throw SubstraitErrors.missingField(at, "reference_type", "a direct_reference")
    }
  }

  /** The input attribute at `index`, or the project's error. */
  def topLevel(index: Int, input: Seq[Attribute], at: PlanPath): Attribute = {
    if (index < 0 || index >= input.size) throw SubstraitErrors.fieldReferenceOutOfRange(at, index, input.size)
    input(index)
  }
}
