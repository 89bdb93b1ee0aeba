package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{SortField, SortRel}
import io.sparksubstrait.proto.SortField.SortDirection
import org.apache.spark.sql.catalyst.expressions.{Ascending, Attribute, Descending, NullsFirst, NullsLast, SortOrder}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Sort}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/** SortRel: an order by the sort fields, in the four direction / null orderings, or clustered. */
private[sparksubstrait] object SortConverter {
  def convert(rel: SortRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (rel.getSortsCount == 0) {
      throw SubstraitErrors.invalidPlan(at / "sorts", "a SortRel with no sort fields",
        "one or more sort fields (spec: logical relations, Sort: 'One sort field required')")
    }
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val orders = rel.getSortsList.asScala.zipWithIndex.map { case (f, i) =>
      order(f, child.output, at.at("sorts", i))
    }.toSeq
    val (keys, below) = WindowsBelow(orders, child)
    WindowsBelow.keepingOutput(Sort(keys.map(_.asInstanceOf[SortOrder]), global = true, below), child, below)
  }

  def order(f: SortField, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): SortOrder = {
    if (!f.hasExpr) throw SubstraitErrors.missingField(at, "expr", "the expression to sort by")
    val e = ConstantKeys.notAnOrdinal(ExpressionConverter.convert(f.getExpr, input, at / "expr"))
    f.getSortKindCase match {
      case SortField.SortKindCase.DIRECTION => f.getDirection match {
          case SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST => SortOrder(e, Ascending, NullsFirst, Seq.empty)
          case SortDirection.SORT_DIRECTION_ASC_NULLS_LAST => SortOrder(e, Ascending, NullsLast, Seq.empty)
          case SortDirection.SORT_DIRECTION_DESC_NULLS_FIRST => SortOrder(e, Descending, NullsFirst, Seq.empty)
          case SortDirection.SORT_DIRECTION_DESC_NULLS_LAST => SortOrder(e, Descending, NullsLast, Seq.empty)
          // Clustered asks only that equal values be adjacent; ascending order is one such order.
          case SortDirection.SORT_DIRECTION_CLUSTERED => SortOrder(e, Ascending, NullsFirst, Seq.empty)
          case other => throw SubstraitErrors.invalidPlan(at / "direction", s"sort direction ${other.name()}",
              "ASC_NULLS_FIRST, ASC_NULLS_LAST, DESC_NULLS_FIRST or DESC_NULLS_LAST")
        }
      case SortField.SortKindCase.COMPARISON_FUNCTION_REFERENCE =>
        throw SubstraitErrors.unsupported(at / "comparison_function_reference", "a sort by comparison function",
          "a sort direction")
      case _ => throw SubstraitErrors.missingField(at, "sort_kind", "a sort direction")
    }
  }
}
