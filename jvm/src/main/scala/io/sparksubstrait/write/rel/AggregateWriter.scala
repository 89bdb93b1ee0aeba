package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Distinct, LogicalPlan}

import io.sparksubstrait.proto.{AggregateRel, Rel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.{ExpressionWriter, FunctionWriter, InputRecord}

/**
 * Aggregate: an AggregateRel (one grouping of the grouping expressions; no grouping for a
 * global aggregate, one row) computing each distinct aggregate call once, then a projection
 * computing Catalyst's aggregate expressions over the keys and calls (`sum(x) + 1`). Grouping
 * sets (an Expand below) are [[GroupingSetsWriter]]'s.
 */
private[sparksubstrait] object AggregateWriter {
  def write(a: Aggregate, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val calls = distinctCalls(a.aggregateExpressions)
    if (GroupingSetsWriter.isGroupingSets(a)) return GroupingSetsWriter.write(a, calls, at)
    val rel = aggregate(a.child, a.groupingExpressions, calls, at)
    ProjectWriter.project(rel, InputRecord(a.groupingExpressions ++ calls), a.aggregateExpressions, at)
  }

  /** DISTINCT (analyzed plans; the optimizer makes it an Aggregate): grouping by every column. */
  def distinct(d: Distinct, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    aggregate(d.child, d.child.output, Nil, at)

  private def aggregate(child: LogicalPlan, keys: Seq[Expression], calls: Seq[AggregateExpression], at: CatalystPath)(
    implicit ctx: WriteContext): Rel = {
    val input = RelWriter.write(child, at)
    val record = InputRecord(child.output)
    val b = AggregateRel.newBuilder().setInput(input)
    val written = keys.zipWithIndex.map { case (k, i) => ExpressionWriter.write(k, record, at / s"grouping key $i") }
    // No keys and no aggregate (`SELECT 1 FROM t GROUP BY ()`): one empty grouping set, the spec's
    // form of one group of every row (an AggregateRel with neither a grouping set nor a measure is invalid).
    if (keys.nonEmpty || calls.isEmpty) {
      val g = AggregateRel.Grouping.newBuilder()
      if (ctx.target.legacyGroupings) written.foreach(g.addGroupingExpressions)
      else {
        written.foreach(b.addGroupingExpressions)
        written.indices.foreach(g.addExpressionReferences(_))
      }
      b.addGroupings(g)
    }
    calls.zipWithIndex.foreach { case (c, i) =>
      val m = AggregateRel.Measure.newBuilder().setMeasure(FunctionWriter.aggregate(c, record, at / s"aggregate $i"))
      c.filter.foreach(f => m.setFilter(ExpressionWriter.write(f, record, at / s"aggregate $i filter")))
      b.addMeasures(m)
    }
    Rel.newBuilder().setAggregate(b).build()
  }

  private def distinctCalls(exprs: Seq[Expression]): Seq[AggregateExpression] = {
    val all = exprs.flatMap(_.collect { case ae: AggregateExpression => ae })
    all.foldLeft(Vector.empty[AggregateExpression]) { (seen, ae) =>
      if (seen.exists(_.semanticEquals(ae))) seen else seen :+ ae
    }
  }

}
