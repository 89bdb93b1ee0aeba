package io.sparksubstrait.convert.expr

import io.sparksubstrait.proto.Expression
import io.sparksubstrait.proto.Expression.RexTypeCase
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression => CExpression}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/** Dispatches each expression kind to its converter. Holds no conversion logic itself. */
private[sparksubstrait] object ExpressionConverter {
  def convert(e: Expression, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression =
    SubstraitErrors.located(at)(ResolvedCheck(at)(e.getRexTypeCase match {
      case RexTypeCase.LITERAL => LiteralConverter.convert(e.getLiteral, at / "literal")(ctx.types)
      case RexTypeCase.SELECTION => FieldReferenceConverter.convert(e.getSelection, input, at / "selection")
      case RexTypeCase.SCALAR_FUNCTION =>
        ScalarFunctionConverter.convert(e.getScalarFunction, input, at / "scalar_function")
      case RexTypeCase.CAST => CastConverter.convert(e.getCast, input, at / "cast")
      case RexTypeCase.IF_THEN => ConditionalConverter.ifThen(e.getIfThen, input, at / "if_then")
      case RexTypeCase.SWITCH_EXPRESSION =>
        ConditionalConverter.switch(e.getSwitchExpression, input, at / "switch_expression")
      case RexTypeCase.MULTI_OR_LIST => ConditionalConverter.multiOrList(e.getMultiOrList, input, at / "multi_or_list")
      case RexTypeCase.SINGULAR_OR_LIST =>
        ConditionalConverter.singularOrList(e.getSingularOrList, input, at / "singular_or_list")
      case RexTypeCase.WINDOW_FUNCTION =>
        WindowFunctionConverter.fromExpression(e.getWindowFunction, input, at / "window_function")
      case RexTypeCase.NESTED => NestedConverter.convert(e.getNested, input, at / "nested")
      // Lambdas are function arguments only (FunctionArguments converts them there).
      case RexTypeCase.LAMBDA =>
        throw SubstraitErrors.unsupported(at / "lambda", "a lambda outside a function argument",
          "a lambda as the function argument of a list function (transform, filter, any_match, all_match)")
      case RexTypeCase.DYNAMIC_PARAMETER =>
        DynamicParameterConverter.convert(e.getDynamicParameter, at / "dynamic_parameter")
      case RexTypeCase.SUBQUERY => SubqueryConverter.convert(e.getSubquery, input, at / "subquery")
      case RexTypeCase.EXECUTION_CONTEXT_VARIABLE =>
        ContextVariableConverter.convert(e.getExecutionContextVariable, at / "execution_context_variable")
      case RexTypeCase.REXTYPE_NOT_SET => throw SubstraitErrors.missingField(at, "rex_type", "an expression")
      case other =>
        throw SubstraitErrors.unsupported(at, s"expression of kind ${other.name().toLowerCase}",
          "an expression kind listed in docs/supported.md")
    }))
}
