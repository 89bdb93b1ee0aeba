package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.substrait.proto.Expression.ScalarFunction
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression => CExpression}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.functions.FunctionCatalog
import io.sparksubstrait.plan.PlanPath

/** Scalar function invocations, through the one [[FunctionCatalog]]. */
object ScalarFunctionConverter {
  def convert(f: ScalarFunction, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    val fn = ctx.extensions.function(f.getFunctionReference, at / "function_reference")
    val args = FunctionArguments.convert(f.getArgumentsList.asScala.toSeq, f.getArgsList.asScala.toSeq, input, at)
    val entry = FunctionCatalog.scalar(fn).getOrElse(
      throw SubstraitErrors.unknownFunction(at, fn.compoundName, fn.describeExtension,
        args.map(a => if (a.resolved) SparkTypeNames.of(a.dataType) else "?")))
    val call = FunctionArguments.call(fn, args, f.getOptionsList.asScala.toSeq, at)
    val built = entry.build(call)
    call.checkAllOptionsConsumed()
    FunctionArguments.withOutputType(FunctionArguments.checkResolved(built, args, fn, at), Option.when(f.hasOutputType)(f.getOutputType), fn, at)
  }
}
