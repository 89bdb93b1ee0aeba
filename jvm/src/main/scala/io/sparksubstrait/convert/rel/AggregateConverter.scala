package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{AggregateRel, Expression}
import org.apache.spark.sql.catalyst.expressions.{Alias, NamedExpression, Expression => CExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.{AggregateFunctionConverter, ExpressionConverter}
import io.sparksubstrait.convert.rel.FilterConverter.condition
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * AggregateRel. Output: the distinct grouping expressions of all grouping sets (in order of
 * first appearance), then the measures, then — with more than one grouping set — an i32
 * naming the grouping set each row comes from. A grouping expression absent from a row's
 * grouping set is NULL there.
 *
 * Groupings reference the rel's `grouping_expressions` (the decoder lifted older plans'
 * expressions inside each grouping into that form).
 *
 * Several grouping sets: [[AggregateGroupingSets]].
 */
private[sparksubstrait] object AggregateConverter {
  def convert(rel: AggregateRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    // Nothing to fold by and nothing to compute: the spec gives such a relation no meaning (a
    // single empty grouping set, `GROUP BY ()`, is a grouping set and stays valid).
    if (rel.getGroupingsCount == 0 && rel.getMeasuresCount == 0) {
      throw SubstraitErrors.invalidPlan(at, "an AggregateRel with no grouping set and no measure",
        "at least one grouping set (the empty set counts) or one measure (spec: logical relations, Aggregate: " +
          "grouping sets are 'required if no measures', measures 'required if no grouping sets')")
    }
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val input = child.output.toIndexedSeq // indexed by field references: constant time per reference
    val sets = groupingSets(rel, at)
    checkReferenced(rel, at)
    // Distinct grouping expressions, by first appearance, each converted once.
    val distinct: Seq[(Expression, PlanPath)] = sets.flatten.foldLeft(Seq.empty[(Expression, PlanPath)]) {
      case (seen, e) => if (seen.exists(_._1 == e._1)) seen else seen :+ e
    }
    val groupExprs: Seq[CExpression] = distinct.map { case (e, eAt) =>
      ConstantKeys.notAnOrdinal(ExpressionConverter.convert(e, input, eAt))
    }
    val converted: Seq[(CExpression, String)] = rel.getMeasuresList.asScala.toSeq.zipWithIndex.map { case (m, i) =>
      val mAt = at.at("measures", i)
      if (!m.hasMeasure) throw SubstraitErrors.missingField(mAt, "measure", "an aggregate function")
      val filter = Options.when(m.hasFilter)(condition(m.getFilter, input, mAt / "filter"))
      AggregateFunctionConverter.convert(m.getMeasure, filter, input, mAt / "measure") -> (mAt / "measure").toString
    }
    val (aggregates, withIntegers) = IntegerMomentArguments(converted, child)
    val (computed, below) = WindowsBelow(groupExprs ++ aggregates, withIntegers)
    val (keys, measures) = computed.splitAt(groupExprs.size)
    def measureOutput: Seq[NamedExpression] = measures.zipWithIndex.map { case (m, i) => Alias(m, s"measure$i")() }

    if (sets.size <= 1) {
      val groupOutput: Seq[NamedExpression] = keys.zipWithIndex.map {
        case (n: NamedExpression, _) => n
        case (e, k) => Alias(e, s"group$k")()
      }
      Aggregate(keys, groupOutput ++ measureOutput, below)
    } else {
      val keyPlans = distinct.map(_._1)
      AggregateGroupingSets(sets.map(_.map(e => keyPlans.indexOf(e._1))), keys, measureOutput, below)
    }
  }

  /** Each grouping set's expressions, with their plan locations. */
  private def groupingSets(rel: AggregateRel, at: PlanPath): Seq[Seq[(Expression, PlanPath)]] = {
    val shared = rel.getGroupingExpressionsList.asScala.toSeq
    rel.getGroupingsList.asScala.toSeq.zipWithIndex.map { case (g, i) =>
      val gAt = at.at("groupings", i)
      val byReference = g.getExpressionReferencesList.asScala.toSeq.zipWithIndex.map { case (r, k) =>
        if (r < 0 || r >= shared.size) {
          throw SubstraitErrors.fieldReferenceOutOfRange(gAt.at("expression_references", k), r.toInt, shared.size)
        }
        shared(r.toInt) -> at.at("grouping_expressions", r.toInt)
      }
      byReference
    }
  }

  /** The spec asks every grouping expression to be used by some grouping set: one that is not groups by nothing. */
  private def checkReferenced(rel: AggregateRel, at: PlanPath): Unit = {
    val referenced = new java.util.BitSet(rel.getGroupingExpressionsCount)
    rel.getGroupingsList.asScala.foreach(_.getExpressionReferencesList.asScala.foreach { r =>
      if (r >= 0 && r < rel.getGroupingExpressionsCount) referenced.set(r.toInt)
    })
    val unused = referenced.nextClearBit(0)
    if (unused < rel.getGroupingExpressionsCount) {
      throw SubstraitErrors.invalidPlan(at.at("grouping_expressions", unused),
        "a grouping expression no grouping set refers to",
        "each grouping expression referred to by at least one grouping's expression_references " +
          "(spec: algebra.proto, AggregateRel.grouping_expressions)")
    }
  }
}
