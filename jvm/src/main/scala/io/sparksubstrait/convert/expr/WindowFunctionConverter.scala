package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.substrait.proto.{AggregateFunction, AggregationPhase, ConsistentPartitionWindowRel, FunctionArgument, FunctionOption, Type}
import io.substrait.proto.Expression.{WindowFunction => SWindowFunction}
import io.substrait.proto.Expression.WindowFunction.{Bound, BoundsType}
import org.apache.spark.sql.catalyst.expressions.{Attribute, Cast, CurrentRow, Expression => CExpression, FrameType, Literal, RangeFrame, RankLike, RowFrame, SortOrder, SpecifiedWindowFrame, UnboundedFollowing, UnboundedPreceding, WindowExpression, WindowFrame, WindowSpecDefinition, WindowFunction => CatalystWindowFunction}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Complete}
import org.apache.spark.sql.types.NumericType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.rel.SortConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.functions.FunctionCatalog
import io.sparksubstrait.plan.PlanPath
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
object WindowFunctionConverter {
  /** The parts both forms share. */
  final case class Invocation(functionReference: Int, arguments: Seq[FunctionArgument], legacyArgs: Seq[io.substrait.proto.Expression],
      options: Seq[FunctionOption], outputType: Option[Type], phase: AggregationPhase,
      invocation: AggregateFunction.AggregationInvocation, boundsType: BoundsType, lower: Option[Bound], upper: Option[Bound])

  def fromExpression(w: SWindowFunction, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    val partitions = w.getPartitionsList.asScala.toSeq.zipWithIndex.map { case (p, i) => ExpressionConverter.convert(p, input, at.at("partitions", i)) }
    val order = w.getSortsList.asScala.toSeq.zipWithIndex.map { case (s, i) => SortConverter.order(s, input, at.at("sorts", i)) }
    convert(Invocation(w.getFunctionReference, w.getArgumentsList.asScala.toSeq, w.getArgsList.asScala.toSeq, w.getOptionsList.asScala.toSeq,
      Options.when(w.hasOutputType)(w.getOutputType), w.getPhase, w.getInvocation, w.getBoundsType,
      Options.when(w.hasLowerBound)(w.getLowerBound), Options.when(w.hasUpperBound)(w.getUpperBound)), partitions, order, input, at)
  }

  def fromRel(w: ConsistentPartitionWindowRel.WindowRelFunction, partitions: Seq[CExpression], order: Seq[SortOrder],
      input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression =
    convert(Invocation(w.getFunctionReference, w.getArgumentsList.asScala.toSeq, Nil, w.getOptionsList.asScala.toSeq,
      Options.when(w.hasOutputType)(w.getOutputType), w.getPhase, w.getInvocation, w.getBoundsType,
      Options.when(w.hasLowerBound)(w.getLowerBound), Options.when(w.hasUpperBound)(w.getUpperBound)), partitions, order, input, at)

  private def convert(w: Invocation, partitions: Seq[CExpression], order: Seq[SortOrder], input: Seq[Attribute], at: PlanPath)
      (implicit ctx: ConversionContext): CExpression = {
    w.phase match {
      case AggregationPhase.AGGREGATION_PHASE_UNSPECIFIED | AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT =>
      case other => throw SubstraitErrors.unsupported(at / "phase", s"aggregation phase ${other.name()}", "INITIAL_TO_RESULT")
    }
    if (w.invocation == AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_DISTINCT) {
      throw SubstraitErrors.unsupported(at / "invocation", "a DISTINCT window aggregate", "ALL (Spark has no distinct window aggregates)")
    }
    val fn = ctx.extensions.function(w.functionReference, at / "function_reference")
    val args = FunctionArguments.convert(w.arguments, w.legacyArgs, input, at)
    val windowEntry = FunctionCatalog.window(fn)
    val (function, framed) = windowEntry match {
      case Some(entry) =>
        FunctionArguments.invoke(fn, Some(entry), args, w.options, w.outputType, at)((e, call) => e.build(call)) -> entry.framed
      case None =>
        FunctionArguments.invoke(fn, FunctionCatalog.aggregate(fn), args, w.options, w.outputType, at)(
          (e, call) => e.finish(call, AggregateExpression(e.build(call), Complete, isDistinct = false, None))) -> true
    }
    // Ranking and offset functions carry the frame SQL gives them (and rank-like ones
    // their order keys), set here so the result is resolved.
    def windowed(f: CExpression): CExpression = f match {
      case rank: RankLike =>
        val ordered = rank.withOrder(order.map(_.child))
        WindowExpression(ordered, WindowSpecDefinition(partitions, order, ordered.frame))
      case wf: CatalystWindowFunction if !framed => WindowExpression(wf, WindowSpecDefinition(partitions, order, wf.frame))
      case other => WindowExpression(other, WindowSpecDefinition(partitions, order, frame(w, order, at)))
    }
    // The output-type cast or a mapping's finishing expression wraps the function: the
    // window goes around the aggregate inside them.
    function match {
      case f if f.exists(_.isInstanceOf[AggregateExpression]) => f.transformUp { case ae: AggregateExpression => windowed(ae) }
      case c @ Cast(inner, _, _, _) => c.copy(child = windowed(inner))
      case f => windowed(f)
    }
  }

  private def frame(w: Invocation, order: Seq[SortOrder], at: PlanPath): WindowFrame = {
    val frameType: FrameType = w.boundsType match {
      case BoundsType.BOUNDS_TYPE_RANGE => RangeFrame
      // Before bounds types existed, offsets counted records.
      case _ => RowFrame
    }
    def bound(b: Option[Bound], lower: Boolean, bAt: PlanPath): CExpression = b.map { bound =>
      bound.getKindCase match {
        case Bound.KindCase.UNBOUNDED | Bound.KindCase.KIND_NOT_SET => if (lower) UnboundedPreceding else UnboundedFollowing
        case Bound.KindCase.CURRENT_ROW => CurrentRow
        case Bound.KindCase.PRECEDING => offset(-bound.getPreceding.getOffset, bound.getPreceding.getOffset, frameType, order, bAt / "preceding")
        case Bound.KindCase.FOLLOWING => offset(bound.getFollowing.getOffset, bound.getFollowing.getOffset, frameType, order, bAt / "following")
      }
    }.getOrElse(if (lower) UnboundedPreceding else UnboundedFollowing)
    SpecifiedWindowFrame(frameType, bound(w.lower, lower = true, at / "lower_bound"), bound(w.upper, lower = false, at / "upper_bound"))
  }

  private def offset(signed: Long, requested: Long, frameType: FrameType, order: Seq[SortOrder], at: PlanPath): CExpression = {
    if (requested <= 0) throw SubstraitErrors.invalidPlan(at / "offset", s"offset $requested", "a strictly positive offset")
    frameType match {
      case RowFrame =>
        if (requested > Int.MaxValue) throw SubstraitErrors.unsupported(at / "offset", s"offset $requested", s"an offset up to ${Int.MaxValue}")
        Literal(signed.toInt)
      case _ => order match {
        // A RANGE offset is a value of the (single) order key.
        case Seq(key) if key.dataType.isInstanceOf[NumericType] => Cast(Literal(signed), key.dataType)
        case Seq(key) => throw SubstraitErrors.unsupported(at, s"a RANGE offset over an order key of type ${key.dataType.simpleString}",
          "a numeric order key")
        case keys => throw SubstraitErrors.invalidPlan(at, s"a RANGE offset with ${keys.size} sort fields", "exactly one sort field")
      }
    }
  }
}
