package io.sparksubstrait.convert.expr

import io.sparksubstrait.proto.Expression.{FieldReference, ReferenceSegment}
import io.sparksubstrait.proto.Expression.FieldReference.{ReferenceTypeCase, RootTypeCase}
import io.sparksubstrait.proto.Expression.FieldReference.OuterReference.OuterReferenceTypeCase
import io.sparksubstrait.proto.Expression.ReferenceSegment.{ReferenceTypeCase => SegmentCase}
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, ElementAt, GetArrayItem, GetMapValue, GetStructField, Literal, OuterReference, Expression => CExpression
}
import org.apache.spark.sql.types.{ArrayType, MapType, StructType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * Field references: from the input record or from an expression, through chains of struct
 * fields, list elements (negative offsets count from the end; out of range is NULL) and
 * map keys (a missing key is NULL); masked references select parts of the record (MaskConverter).
 */
private[sparksubstrait] object FieldReferenceConverter {
  def convert(ref: FieldReference, input: Seq[Attribute], at: PlanPath)(
    implicit ctx: ConversionContext): CExpression = {
    // The record the first struct field indexes: the input's columns, or a lambda's parameters.
    var record: Seq[CExpression] = input
    val root: Option[CExpression] = ref.getRootTypeCase match {
      case RootTypeCase.ROOT_REFERENCE | RootTypeCase.ROOTTYPE_NOT_SET => None
      case RootTypeCase.EXPRESSION => Some(ExpressionConverter.convert(ref.getExpression, input, at / "expression"))
      case RootTypeCase.OUTER_REFERENCE =>
        // A column of the enclosing query's record: a correlated subquery.
        val outer = ref.getOuterReference
        val oAt = at / "outer_reference"
        record = (outer.getOuterReferenceTypeCase match {
          case OuterReferenceTypeCase.REL_REFERENCE => ctx.outerScopeOf(outer.getRelReference, oAt)
          case OuterReferenceTypeCase.STEPS_OUT => ctx.outerScope(outer.getStepsOut, oAt)
          case _ => throw SubstraitErrors.missingField(oAt, "outer_reference_type", "steps_out or rel_reference")
        }).map(a => OuterReference(a))
        None
      case RootTypeCase.LAMBDA_PARAMETER_REFERENCE =>
        record = ctx.lambdaParameters(ref.getLambdaParameterReference.getStepsOut, at / "lambda_parameter_reference")
        None
      case other => throw SubstraitErrors.unsupported(at / other.name().toLowerCase,
          s"a field reference rooted at ${other.name().toLowerCase}",
          "a reference to the input record or to an expression (outer references are not yet supported)")
    }
    ref.getReferenceTypeCase match {
      case ReferenceTypeCase.DIRECT_REFERENCE =>
        val segAt = at / "direct_reference"
        val segment = ref.getDirectReference
        root match {
          // The first struct field of a root reference is a column of the input.
          case None => segment.getReferenceTypeCase match {
              case SegmentCase.STRUCT_FIELD =>
                val sf = segment.getStructField
                val column = topLevel(sf.getField, record, segAt / "struct_field" / "field")
                if (sf.hasChild) applySegment(column, sf.getChild, segAt / "struct_field" / "child") else column
              case SegmentCase.REFERENCETYPE_NOT_SET =>
                throw SubstraitErrors.missingField(segAt, "reference_type", "a reference segment")
              case other =>
                throw SubstraitErrors.invalidPlan(segAt, s"a ${other.name().toLowerCase} segment on the input record",
                  "a struct_field (the input record is a struct)")
            }
          case Some(e) => applySegment(e, segment, segAt)
        }
      case ReferenceTypeCase.MASKED_REFERENCE =>
        val maskAt = at / "masked_reference"
        root match {
          case None => MaskConverter.reference(ref.getMaskedReference, record, None, maskAt)
          case Some(e) => e.dataType match {
              case s: StructType =>
                val fields = s.fields.indices.map(i => GetStructField(e, i, Some(s.fields(i).name)))
                MaskConverter.reference(ref.getMaskedReference, fields, Some(e), maskAt)
              case other =>
                throw SubstraitErrors.typeMismatch(maskAt, s"a masked reference on ${SparkTypeNames.of(other)}",
                  "a struct (a mask selects fields of a struct)")
            }
        }
      case _ => throw SubstraitErrors.missingField(at, "reference_type", "a direct_reference")
    }
  }

  /** The input attribute at `index`, or the project's error. */
  def topLevel[E <: CExpression](index: Int, input: Seq[E], at: PlanPath): E = {
    if (index < 0 || index >= input.size) throw SubstraitErrors.fieldReferenceOutOfRange(at, index, input.size)
    input(index)
  }

  private def applySegment(base: CExpression, segment: ReferenceSegment, at: PlanPath)(
    implicit ctx: ConversionContext): CExpression = {
    def typeError(kind: String, expected: String) =
      SubstraitErrors.typeMismatch(at / kind, s"a $kind segment on ${SparkTypeNames.of(base.dataType)}", expected)
    val (next, child, childAt) = segment.getReferenceTypeCase match {
      case SegmentCase.STRUCT_FIELD =>
        val sf = segment.getStructField
        val fields = base.dataType match {
          case s: StructType => s.fields
          case _ => throw typeError("struct_field", "a struct")
        }
        if (sf.getField < 0 || sf.getField >= fields.length) {
          throw SubstraitErrors.fieldReferenceOutOfRange(at / "struct_field" / "field", sf.getField, fields.length)
        }
        (GetStructField(base, sf.getField, Some(fields(sf.getField).name)): CExpression,
          Options.when(sf.hasChild)(sf.getChild), at / "struct_field" / "child")
      case SegmentCase.LIST_ELEMENT =>
        if (!base.dataType.isInstanceOf[ArrayType]) throw typeError("list_element", "a list")
        val offset = segment.getListElement.getOffset
        // From the start: a 0-based item (NULL when out of range). From the end: element_at,
        // -1-based. (element_at from the start failed Spark's codegen as a sort key: FuzzSuite.)
        val item = if (offset >= 0) GetArrayItem(base, Literal(offset), failOnError = false)
        else ElementAt(base, Literal(offset), None, failOnError = false)
        (item,
          Options.when(segment.getListElement.hasChild)(segment.getListElement.getChild), at / "list_element" / "child")
      case SegmentCase.MAP_KEY =>
        val keyType = base.dataType match {
          case m: MapType => m.keyType
          case _ => throw typeError("map_key", "a map")
        }
        val key = LiteralConverter.convert(segment.getMapKey.getMapKey, at / "map_key" / "map_key")(ctx.types)
        if (key.dataType != keyType)
          throw SubstraitErrors.typeMismatch(at / "map_key" / "map_key", SparkTypeNames.of(key.dataType),
            s"${SparkTypeNames.of(keyType)}, the map's key type")
        (GetMapValue(base, key), Options.when(segment.getMapKey.hasChild)(segment.getMapKey.getChild),
          at / "map_key" / "child")
      case _ => throw SubstraitErrors.missingField(at, "reference_type", "a reference segment")
    }
    child.map(applySegment(next, _, childAt)).getOrElse(next)
  }
}
