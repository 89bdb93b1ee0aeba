package io.sparksubstrait.convert.expr

import io.sparksubstrait.proto.Expression.Cast.FailureBehavior
import io.sparksubstrait.proto.Expression.{Cast => SCast}
import org.apache.spark.sql.catalyst.expressions.{Attribute, Cast, EvalMode, Expression => CExpression}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.TypeConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/**
 * Cast. The failure behaviour maps to Spark's evaluation modes: RETURN_NULL is Spark's
 * TRY cast, THROW_EXCEPTION its ANSI cast, UNSPECIFIED whatever the session's SQL would do.
 */
object CastConverter {
  def convert(c: SCast, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    if (!c.hasInput) throw SubstraitErrors.missingField(at, "input", "the expression to cast")
    if (!c.hasType) throw SubstraitErrors.missingField(at, "type", "the target type")
    val child = ExpressionConverter.convert(c.getInput, input, at / "input")
    val target = TypeConverter.convert(c.getType, at / "type")(ctx.types).dataType
    val mode = c.getFailureBehavior match {
      case FailureBehavior.FAILURE_BEHAVIOR_RETURN_NULL => EvalMode.TRY
      case FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION => EvalMode.ANSI
      case FailureBehavior.FAILURE_BEHAVIOR_UNSPECIFIED => ctx.defaultEvalMode
      case other => throw SubstraitErrors.invalidPlan(at / "failure_behavior", s"failure behaviour ${other.getNumber}",
        "UNSPECIFIED, RETURN_NULL or THROW_EXCEPTION")
    }
    val cast = Cast(child, target, Option(ctx.conf.sessionLocalTimeZone), mode)
    if (child.resolved && cast.checkInputDataTypes().isFailure) {
      throw SubstraitErrors.unsupported(at, s"a cast from ${child.dataType.simpleString} to ${target.simpleString}",
        "a cast Spark supports")
    }
    cast
  }
}
