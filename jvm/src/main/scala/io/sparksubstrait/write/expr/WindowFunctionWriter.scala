package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Complete}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{AggregateFunction => SAggregateFunction, AggregationPhase, Expression => SExpression}
import io.sparksubstrait.proto.Expression.WindowFunction.{Bound, BoundsType}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.types.TypeWriter

/**
 * A window expression (`f OVER (PARTITION BY … ORDER BY … frame)`) as Expression.WindowFunction:
 * a ranking or offset function of the table's window rows, or an aggregate over the frame.
 * Frames: ROWS with constant offsets, RANGE between unbounded ends and the current row; a
 * RANGE with offsets, DISTINCT or FILTER over a window are refused.
 */
private[sparksubstrait] object WindowFunctionWriter {
  def write(w: WindowExpression, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val spec = w.windowSpec
    val (call, out) = w.windowFunction match {
      case ae @ AggregateExpression(fn, Complete, false, None, _) =>
        val written = FunctionWriter.aggregate(ae, input, at)
        (written, fn.dataType)
      case ae: AggregateExpression => throw SubstraitErrors.unwritable((at / ae).toString,
          s"the window aggregate ${ae.sql}",
          "Spark's DISTINCT or FILTER over a window has no Substrait form here", "plain aggregates over a window")
      case f => (FunctionWriter.window(f, input, at), f.dataType)
    }
    val b = SExpression.WindowFunction.newBuilder()
      .setFunctionReference(call.getFunctionReference)
      .addAllArguments(call.getArgumentsList)
      .addAllOptions(call.getOptionsList)
      .setOutputType(TypeWriter.write(out, w.nullable, at))
      .setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
      .setInvocation(SAggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL)
    spec.partitionSpec.zipWithIndex.foreach { case (p, i) =>
      b.addPartitions(ExpressionWriter.write(p, input, at / s"partition $i"))
    }
    spec.orderSpec.zipWithIndex.foreach { case (o, i) =>
      b.addSorts(io.sparksubstrait.write.rel.SortWriter.field(o, input, at / s"order $i"))
    }
    spec.frameSpecification match {
      case SpecifiedWindowFrame(frameType, lower, upper) =>
        b.setBoundsType(if (frameType == RowFrame) BoundsType.BOUNDS_TYPE_ROWS else BoundsType.BOUNDS_TYPE_RANGE)
        b.setLowerBound(bound(lower, frameType, at)).setUpperBound(bound(upper, frameType, at))
      case other =>
        throw SubstraitErrors.unwritable(at.toString, s"the window frame ${other.sql}", "it is not a specified frame",
          "ROWS or RANGE frames")
    }
    SExpression.newBuilder().setWindowFunction(b).build()
  }

  private def bound(e: Expression, frameType: FrameType, at: CatalystPath): Bound = e match {
    case UnboundedPreceding | UnboundedFollowing =>
      Bound.newBuilder().setUnbounded(Bound.Unbounded.getDefaultInstance).build()
    case CurrentRow => Bound.newBuilder().setCurrentRow(Bound.CurrentRow.getDefaultInstance).build()
    case Literal(n: Int, _) if frameType == RowFrame =>
      val offset = LiteralWriter.write(Literal(math.abs(n.toLong)), at)
      if (n < 0) Bound.newBuilder().setPreceding(Bound.Preceding.newBuilder().setOffsetExpr(offset)).build()
      else Bound.newBuilder().setFollowing(Bound.Following.newBuilder().setOffsetExpr(offset)).build()
    case other => throw SubstraitErrors.unwritable(at.toString, s"the window frame bound ${other.sql}",
        "RANGE frames with offsets are not written yet", "ROWS offsets, UNBOUNDED or CURRENT ROW")
  }
}
