package io.sparksubstrait.convert.expr

import io.sparksubstrait.proto.Expression.Cast.FailureBehavior
import io.sparksubstrait.proto.Expression.{Cast => SCast}
import org.apache.spark.sql.catalyst.expressions.{Attribute, Cast, EvalMode, Literal, Expression => CExpression}
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.types.{DataType, NullType, StringType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.{SparkTypeNames, TypeConverter, UuidType}
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.errors.SubstraitErrors

/**
 * Cast. The failure behaviour maps to Spark's evaluation modes: RETURN_NULL is Spark's
 * TRY cast, THROW_EXCEPTION its ANSI cast, UNSPECIFIED whatever the session's SQL would do.
 * A uuid casts only to and from string, as its canonical text (a string of another form is
 * NULL under RETURN_NULL, else an error); any other cast of a uuid is refused.
 */
private[sparksubstrait] object CastConverter {
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
    if (child.resolved) (child.dataType, target) match {
      case (_: UuidType, _: UuidType) => return child
      case (NullType, _: UuidType) => return Literal(null, target)
      case (_: UuidType, _: StringType) => return uuidText(child, "toText", StringType, Nil)
      case (_: StringType, _: UuidType) => return uuidText(child, "parse", target, Seq(Literal(mode == EvalMode.TRY)))
      case (_: UuidType, _) | (_, _: UuidType) =>
        throw SubstraitErrors.unsupported(at,
          s"a cast from ${SparkTypeNames.of(child.dataType)} to ${SparkTypeNames.of(target)}",
          "a cast of uuid to or from string (its canonical text)")
      case _ =>
    }
    val cast = Cast(child, target, Option(ctx.conf.sessionLocalTimeZone), mode)
    if (child.resolved && cast.checkInputDataTypes().isFailure) {
      throw SubstraitErrors.unsupported(at, s"a cast from ${child.dataType.simpleString} to ${target.simpleString}",
        "a cast Spark supports")
    }
    cast
  }

  /** A cast between uuid and its text, in [[io.sparksubstrait.runtime.UuidText]]. */
  private def uuidText(child: CExpression, method: String, result: DataType, more: Seq[CExpression]): CExpression =
    StaticInvoke(classOf[io.sparksubstrait.runtime.UuidText], result, method, child +: more)
}
