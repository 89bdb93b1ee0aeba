package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Expression.ScalarFunction
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression => CExpression}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.functions.{FunctionCatalog, UserFunctionCalls}
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/** Scalar function invocations, through the one [[FunctionCatalog]]. */
private[sparksubstrait] object ScalarFunctionConverter {
  def convert(f: ScalarFunction, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    val fn = ctx.extensions.function(f.getFunctionReference, at / "function_reference")
    val args = FunctionArguments.convert(f.getArgumentsList.asScala.toSeq, input, at)
    FunctionArguments.invoke(fn, FunctionCatalog.scalar(fn).orElse(UserFunctionCalls.scalar(fn)), args,
      f.getOptionsList.asScala.toSeq,
      Options.when(f.hasOutputType)(f.getOutputType), at)((entry, call) => entry.build(call))
  }
}
