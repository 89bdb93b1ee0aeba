package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{
  AggregateFunction, AggregationPhase, ConsistentPartitionWindowRel, FunctionArgument, FunctionOption, Type
}
import io.sparksubstrait.proto.Expression.{WindowFunction => SWindowFunction}
import io.sparksubstrait.proto.Expression.WindowFunction.{Bound, BoundsType}
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, Cast, Expression => CExpression, RankLike, SortOrder, WindowExpression, WindowSpecDefinition,
  WindowFunction => CatalystWindowFunction
}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Complete}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.rel.SortConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.{FunctionCatalog, UserFunctionCalls}
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * Window functions, in a ProjectRel (Expression.WindowFunction, each with its own
 * partitions and order) or in a ConsistentPartitionWindowRel (shared ones). A window
 * function of the catalog's window table, or an aggregate function over the window.
 *
 * Bounds: lower defaults to the partition's start, upper to its end (the spec's
 * defaults, not SQL's); offsets count rows (ROWS, and the older plans without a bounds
 * type) or order-key values (RANGE). Ranking and offset functions (rank, lead, …) define
 * their own frame, as in SQL, so bounds do not apply to them.
 */
private[sparksubstrait] object WindowFunctionConverter {

  /** The parts both forms share. */
  final case class Invocation(functionReference: Int, arguments: Seq[FunctionArgument],
    options: Seq[FunctionOption], outputType: Option[Type], phase: AggregationPhase,
    invocation: AggregateFunction.AggregationInvocation, boundsType: BoundsType, lower: Option[Bound],
    upper: Option[Bound])

  def fromExpression(w: SWindowFunction, input: Seq[Attribute], at: PlanPath)(
    implicit ctx: ConversionContext): CExpression = {
    val partitions = w.getPartitionsList.asScala.toSeq.zipWithIndex.map { case (p, i) =>
      ExpressionConverter.convert(p, input, at.at("partitions", i))
    }
    val order = w.getSortsList.asScala.toSeq.zipWithIndex.map { case (s, i) =>
      SortConverter.order(s, input, at.at("sorts", i))
    }
    convert(Invocation(w.getFunctionReference, w.getArgumentsList.asScala.toSeq, w.getOptionsList.asScala.toSeq,
        Options.when(w.hasOutputType)(w.getOutputType), w.getPhase, w.getInvocation, w.getBoundsType,
        Options.when(w.hasLowerBound)(w.getLowerBound), Options.when(w.hasUpperBound)(w.getUpperBound)), partitions,
      order, input, at)
  }

  def fromRel(w: ConsistentPartitionWindowRel.WindowRelFunction, partitions: Seq[CExpression], order: Seq[SortOrder],
    input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression =
    convert(Invocation(w.getFunctionReference, w.getArgumentsList.asScala.toSeq, w.getOptionsList.asScala.toSeq,
        Options.when(w.hasOutputType)(w.getOutputType), w.getPhase, w.getInvocation, w.getBoundsType,
        Options.when(w.hasLowerBound)(w.getLowerBound), Options.when(w.hasUpperBound)(w.getUpperBound)), partitions,
      order, input, at)

  private def convert(w: Invocation, partitions: Seq[CExpression], order: Seq[SortOrder], input: Seq[Attribute],
    at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    w.phase match {
      case AggregationPhase.AGGREGATION_PHASE_UNSPECIFIED | AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT =>
      case other =>
        throw SubstraitErrors.unsupported(at / "phase", s"aggregation phase ${other.name()}", "INITIAL_TO_RESULT")
    }
    if (w.invocation == AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_DISTINCT) {
      throw SubstraitErrors.unsupported(at / "invocation", "a DISTINCT window aggregate",
        "ALL (Spark has no distinct window aggregates)")
    }
    val fn = ctx.extensions.function(w.functionReference, at / "function_reference")
    val args = FunctionArguments.convert(w.arguments, input, at)
    val windowEntry = FunctionCatalog.window(fn)
    val (function, framed) = windowEntry match {
      case Some(entry) =>
        FunctionArguments.invoke(fn, Some(entry), args, w.options, w.outputType, at)((e, call) => e.build(call)) ->
          entry.framed
      case None =>
        FunctionArguments.invoke(fn, FunctionCatalog.aggregate(fn).orElse(UserFunctionCalls.aggregate(fn)), args,
          w.options, w.outputType, at)((e, call) =>
          e.finish(call, AggregateExpression(e.build(call), Complete, isDistinct = false, None))) -> true
    }
    // Ranking and offset functions carry the frame SQL gives them (and rank-like ones
    // their order keys), set here so the result is resolved.
    def windowed(f: CExpression): CExpression = f match {
      case rank: RankLike =>
        val ordered = rank.withOrder(order.map(_.child))
        WindowExpression(ordered, WindowSpecDefinition(partitions, order, ordered.frame))
      case wf: CatalystWindowFunction if !framed =>
        WindowExpression(wf, WindowSpecDefinition(partitions, order, wf.frame))
      case other => WindowExpression(other,
          WindowSpecDefinition(partitions, order, WindowBounds.frame(w.boundsType, w.lower, w.upper, order, input, at)))
    }
    // The output-type cast or a mapping's finishing expression wraps the function: the
    // window goes around the aggregate inside them.
    function match {
      case f if f.exists(_.isInstanceOf[AggregateExpression]) =>
        f.transformUp { case ae: AggregateExpression => windowed(ae) }
      // A result the window does not change (lag's NULL offset, nth_value's domain error): as is,
      // a window function Spark's optimizer could have replaced.
      case f if !f.exists(_.isInstanceOf[CatalystWindowFunction]) => f
      case c @ Cast(inner, _, _, _) => c.copy(child = windowed(inner))
      case f => windowed(f)
    }
  }
}
