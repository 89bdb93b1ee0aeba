package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.substrait.proto.AggregateRel
import org.apache.spark.sql.catalyst.expressions.{Alias, Expression => CExpression, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.{AggregateFunctionConverter, ExpressionConverter}
import io.sparksubstrait.convert.rel.FilterConverter.condition
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/**
 * AggregateRel with no grouping or one grouping set: output is the grouping columns, then
 * the measures. Groupings come in the newer form (`grouping_expressions` on the rel plus
 * `expression_references`) or the older one (expressions inside each grouping); a plan
 * that carries both (DataFusion) must say the same thing in both.
 */
object AggregateConverter {
  def convert(rel: AggregateRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val input = child.output
    val shared = rel.getGroupingExpressionsList.asScala.toSeq
    val groupings = rel.getGroupingsList.asScala.toSeq.zipWithIndex.map { case (g, i) =>
      val gAt = at.at("groupings", i)
      val byReference = g.getExpressionReferencesList.asScala.toSeq.zipWithIndex.map { case (r, k) =>
        if (r < 0 || r >= shared.size) {
          throw SubstraitErrors.fieldReferenceOutOfRange(gAt.at("expression_references", k), r.toInt, shared.size)
        }
        shared(r.toInt)
      }
      val legacy = g.getGroupingExpressionsList.asScala.toSeq
      if (byReference.nonEmpty && legacy.nonEmpty && byReference != legacy) {
        throw SubstraitErrors.invalidPlan(gAt, "grouping_expressions and expression_references that disagree",
          "both forms to name the same expressions")
      }
      if (byReference.nonEmpty || legacy.isEmpty) (byReference, gAt, "expression_references") else (legacy, gAt, "grouping_expressions")
    }
    if (groupings.size > 1) {
      throw SubstraitErrors.unsupported(at.at("groupings", 1), s"${groupings.size} grouping sets",
        "at most one grouping set (several grouping sets are not yet supported)")
    }
    val groupExprs: Seq[CExpression] = groupings.headOption.toSeq.flatMap { case (exprs, gAt, field) =>
      exprs.zipWithIndex.map { case (e, k) => ExpressionConverter.convert(e, input, gAt.at(field, k)) }
    }
    val groupOutput: Seq[NamedExpression] = groupExprs.zipWithIndex.map {
      case (n: NamedExpression, _) => n
      case (e, k) => Alias(e, s"group$k")()
    }
    val measures: Seq[NamedExpression] = rel.getMeasuresList.asScala.toSeq.zipWithIndex.map { case (m, i) =>
      val mAt = at.at("measures", i)
      if (!m.hasMeasure) throw SubstraitErrors.missingField(mAt, "measure", "an aggregate function")
      val filter = Option.when(m.hasFilter)(condition(m.getFilter, input, mAt / "filter"))
      Alias(AggregateFunctionConverter.convert(m.getMeasure, filter, input, mAt / "measure"), s"measure$i")()
    }
    Aggregate(groupExprs, groupOutput ++ measures, child)
  }
}
