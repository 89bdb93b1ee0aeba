package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Expression.MaskExpression
import io.sparksubstrait.proto.Expression.MaskExpression.ListSelect.ListSelectItem
import io.sparksubstrait.proto.Expression.MaskExpression.{MapSelect, Select}
import org.apache.spark.sql.catalyst.expressions.{
  Add, ArrayTransform, Concat, CreateNamedStruct, EqualTo, GetStructField, Greatest, If, IsNull, LambdaFunction, Least,
  Literal, MapFilter, NamedExpression, NamedLambdaVariable, Size, Slice, Subtract, TransformValues,
  Expression => CExpression
}
import org.apache.spark.sql.types.{ArrayType, DataType, MapType, StringType, StructType}

import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Masked references (`MaskExpression`): the referenced value with parts removed. The meaning
 * follows the spec's field_references page and its reference validator (substrait-validator's
 * mask.rs), since the proto comments leave details open:
 *  - a struct selection keeps the listed fields, in the listed order (a NULL struct stays NULL);
 *  - at the top, a selection of exactly one field is that field's value unless
 *    `maintain_singular_struct` is set (nested selections always stay structs);
 *  - a list selection keeps the listed elements and inclusive slices, concatenated in the listed
 *    order; negative positions count from the end (-1 is the last), positions outside the list
 *    select nothing (they do not wrap), and no items keeps the whole list; the child selection
 *    applies to every element;
 *  - a map selection by key keeps the entry with that (string) key; the child applies to every
 *    value. Key expressions are an error: the spec has not defined their pattern language.
 */
private[sparksubstrait] object MaskConverter {

  /**
   * A masked reference over a record: `fields` are the record's fields (the input's columns, an
   * expression's struct fields, ...), `nullIf` the expression whose NULL makes the result NULL.
   */
  def reference(mask: MaskExpression, fields: Seq[CExpression], nullIf: Option[CExpression], at: PlanPath)
    : CExpression = {
    if (!mask.hasSelect) throw SubstraitErrors.missingField(at, "select", "the struct selection of the mask")
    val items = structItems(mask.getSelect, fields, at / "select")
    val value = if (items.size == 1 && !mask.getMaintainSingularStruct) items.head._2 else struct(items)
    nullIf.map(guard(_, value)).getOrElse(value)
  }

  /** The selected fields of a record, named as in the record, with their child selections applied. */
  def structItems(sel: MaskExpression.StructSelect, fields: Seq[CExpression], at: PlanPath)
    : Seq[(String, CExpression)] = {
    val items = sel.getStructItemsList.asScala.toSeq
    if (items.isEmpty)
      throw SubstraitErrors.invalidPlan(at / "struct_items", "a struct selection of no fields", "at least one field")
    items.zipWithIndex.map { case (item, i) =>
      val itemAt = at.at("struct_items", i)
      val field = FieldReferenceConverter.topLevel(item.getField, fields, itemAt / "field")
      val name = field match {
        case n: NamedExpression => n.name
        case g: GetStructField => g.name.getOrElse(s"f${item.getField}")
        case _ => s"f${item.getField}"
      }
      name -> (if (item.hasChild) select(field, item.getChild, itemAt / "child") else field)
    }
  }

  /** A nested selection applied to a value of the matching kind. */
  def select(value: CExpression, sel: Select, at: PlanPath): CExpression = {

    /** The value's type when it is of the selection's kind, else the plan's type error. */
    def typeAs[T <: DataType](kind: String, expected: String)(pick: PartialFunction[DataType, T]): T =
      pick.applyOrElse(value.dataType,
        (_: DataType) =>
          throw SubstraitErrors.typeMismatch(at / kind, s"a $kind selection on ${SparkTypeNames.of(value.dataType)}",
            expected))
    sel.getTypeCase match {
      case Select.TypeCase.STRUCT =>
        val st = typeAs("struct", "a struct") { case s: StructType => s }
        val fields = st.fields.indices.map(i => GetStructField(value, i, Some(st.fields(i).name)))
        guard(value, struct(structItems(sel.getStruct, fields, at / "struct")))
      case Select.TypeCase.LIST =>
        val at2 = at / "list"
        val element = typeAs("list", "a list") { case a: ArrayType => a }
        val ls = sel.getList
        val parts = ls.getSelectionList.asScala.toSeq.zipWithIndex.map { case (item, i) =>
          val itemAt = at2.at("selection", i)
          item.getTypeCase match {
            case ListSelectItem.TypeCase.ITEM => slice(value, item.getItem.getField, item.getItem.getField)
            case ListSelectItem.TypeCase.SLICE => slice(value, item.getSlice.getStart, item.getSlice.getEnd)
            case _ => throw SubstraitErrors.missingField(itemAt, "type", "an item or a slice")
          }
        }
        val selected = parts match {
          case Seq() => value
          case Seq(one) => one
          case many => Concat(many)
        }
        if (!ls.hasChild) selected
        else {
          val x = NamedLambdaVariable("x", element.elementType, element.containsNull)
          ArrayTransform(selected, LambdaFunction(select(x, ls.getChild, at2 / "child"), Seq(x)))
        }
      case Select.TypeCase.MAP =>
        val at2 = at / "map"
        val mt = typeAs("map", "a map") { case m: MapType => m }
        val ms = sel.getMap
        val k = NamedLambdaVariable("k", mt.keyType, nullable = false)
        val v = NamedLambdaVariable("v", mt.valueType, mt.valueContainsNull)
        val selected = ms.getSelectCase match {
          case MapSelect.SelectCase.KEY =>
            if (mt.keyType != StringType) throw SubstraitErrors.typeMismatch(at2 / "key",
              s"a string key on a map keyed by ${SparkTypeNames.of(mt.keyType)}", "a map with string keys")
            MapFilter(value, LambdaFunction(EqualTo(k, Literal(ms.getKey.getMapKey)), Seq(k, v)))
          case MapSelect.SelectCase.EXPRESSION => throw SubstraitErrors.unsupported(at2 / "expression",
              "a map key expression", "a map_key (the spec does not yet define the key expression's pattern language)")
          case _ => value
        }
        if (!ms.hasChild) selected
        else TransformValues(selected, LambdaFunction(select(v, ms.getChild, at2 / "child"), Seq(k, v)))
      case _ => throw SubstraitErrors.missingField(at, "type", "a struct, list or map selection")
    }
  }

  private def struct(items: Seq[(String, CExpression)]): CExpression =
    CreateNamedStruct(items.flatMap { case (n, e) => Seq(Literal(n), e) })

  /** NULL when `value` is NULL: a selection from a missing struct is missing, not a struct of NULLs. */
  private def guard(value: CExpression, result: CExpression): CExpression =
    if (value.nullable) If(IsNull(value), Literal(null, result.dataType), result) else result

  /**
   * Elements `start` to `end`, both inclusive, negatives from the end, clamped to the list. The
   * bounds are clamped before any arithmetic that could overflow an int (`Slice` would read a
   * negative start from the end).
   */
  private def slice(list: CExpression, start: Int, end: Int): CExpression = {
    val n = Size(list, legacySizeOfNull = false)
    def position(p: Int): CExpression = if (p >= 0) Literal(p) else Add(n, Literal(p))
    val first = Least(Seq(Greatest(Seq(position(start), Literal(0))), n))
    val last = Greatest(Seq(Least(Seq(position(end), Subtract(n, Literal(1)))), Literal(-1)))
    val length = Greatest(Seq(Add(Subtract(last, first), Literal(1)), Literal(0)))
    Slice(list, Add(first, Literal(1)), length)
  }
}
