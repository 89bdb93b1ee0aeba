package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{AggregateFunction, AggregationPhase}
import io.sparksubstrait.proto.AggregateFunction.AggregationInvocation
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression => CExpression}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Complete}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.rel.SortConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.{FunctionCatalog, UserFunctionCalls}
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/** One aggregate measure: function, DISTINCT, filter, sort fields; the result typed as the plan declares. */
private[sparksubstrait] object AggregateFunctionConverter {
  def convert(f: AggregateFunction, filter: Option[CExpression], input: Seq[Attribute], at: PlanPath)(
    implicit ctx: ConversionContext): CExpression = {
    f.getPhase match {
      case AggregationPhase.AGGREGATION_PHASE_UNSPECIFIED | AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT =>
      case other => throw SubstraitErrors.unsupported(at / "phase", s"aggregation phase ${other.name()}",
          "INITIAL_TO_RESULT (Spark plans partial aggregation itself)")
    }
    val distinct = f.getInvocation match {
      case AggregationInvocation.AGGREGATION_INVOCATION_DISTINCT => true
      case AggregationInvocation.AGGREGATION_INVOCATION_ALL | AggregationInvocation.AGGREGATION_INVOCATION_UNSPECIFIED =>
        false
      case other =>
        throw SubstraitErrors.invalidPlan(at / "invocation", s"invocation ${other.getNumber}", "ALL or DISTINCT")
    }
    val fn = ctx.extensions.function(f.getFunctionReference, at / "function_reference")
    val args = FunctionArguments.convert(f.getArgumentsList.asScala.toSeq, input, at)
    val sorts = f.getSortsList.asScala.toSeq.zipWithIndex.map { case (s, i) =>
      SortConverter.order(s, input, at.at("sorts", i))
    }
    // Over DISTINCT values only an order of the values themselves is defined (which copy's
    // other column would place a value?); Spark's analysis refuses any other too.
    val byOther = sorts.indexWhere(s => !args.values.headOption.exists(s.child.semanticEquals))
    if (distinct && byOther >= 0) {
      throw SubstraitErrors.unsupported(at.at("sorts", byOther),
        "a DISTINCT aggregate ordered by something other than its value", "sort fields on the aggregated value itself")
    }
    FunctionArguments.invoke(fn, FunctionCatalog.aggregate(fn).orElse(UserFunctionCalls.aggregate(fn)), args,
      f.getOptionsList.asScala.toSeq,
      Options.when(f.hasOutputType)(f.getOutputType), at, sorts) { (entry, call) =>
      // Sort fields on an aggregate no order changes are read, and change nothing (they were
      // converted above, so a bad reference in them is still refused).
      if (entry.ignoresOrder(call)) call.ordering
      entry.finish(call, AggregateExpression(entry.build(call), Complete, distinct, filter))
    }
  }
}
