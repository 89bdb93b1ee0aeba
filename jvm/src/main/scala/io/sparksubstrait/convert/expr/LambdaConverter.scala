package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Expression.Lambda
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, LambdaFunction, NamedLambdaVariable, Expression => CExpression
}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.TypeConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * A lambda (the function argument of list functions such as transform): its parameters
 * become Catalyst lambda variables, which references rooted at the lambda's parameters
 * (`lambda_parameter_reference`) resolve to. Spark's higher-order functions take it as is.
 */
private[sparksubstrait] object LambdaConverter {
  def convert(l: Lambda, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    if (!l.hasBody) throw SubstraitErrors.missingField(at, "body", "the lambda's body")
    val parameters = l.getParameters.getTypesList.asScala.toSeq.zipWithIndex.map { case (t, i) =>
      val converted = TypeConverter.convert(t, (at / "parameters").at("types", i))(ctx.types)
      NamedLambdaVariable(s"p$i", converted.dataType, converted.nullable)
    }
    val body = ctx.withLambdaParameters(parameters)(ExpressionConverter.convert(l.getBody, input, at / "body"))
    LambdaFunction(body, parameters)
  }
}
