package io.sparksubstrait.convert.expr

import scala.util.control.NonFatal

import io.sparksubstrait.proto.DynamicParameter
import org.apache.spark.sql.catalyst.expressions.{Cast, EvalMode, Literal, Expression => CExpression}
import org.apache.spark.sql.types.{Decimal, NullType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.{SparkTypeNames, TypeConverter}
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * A dynamic parameter becomes a literal of its declared type: the value given through the
 * API (`spark.read.substrait(plan, params={…})`) or else the plan's own binding. The value is
 * cast to the type when the plan is converted, so a value that does not fit is the
 * project's error, not a failure while the query runs.
 */
private[sparksubstrait] object DynamicParameterConverter {
  def convert(p: DynamicParameter, at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    if (!p.hasType) throw SubstraitErrors.missingField(at, "type", "the parameter's type")
    val target = TypeConverter.convert(p.getType, at / "type")(ctx.types).dataType
    val anchor = p.getParameterReference
    val value: CExpression = ctx.parameterValues.get(anchor) match {
      case Some(null) => Literal(null, NullType)
      case Some(v) => try Literal(v)
        catch {
          case NonFatal(_) => throw SubstraitErrors.invalidPlan(at / "parameter_reference",
              s"a value of class ${v.getClass.getSimpleName} for parameter $anchor", "a number, boolean or string")
        }
      case None => ctx.parameterBindings.get(anchor) match {
          case Some(lit) => LiteralConverter.convert(lit, at / "parameter_reference")(ctx.types)
          case None => throw SubstraitErrors.invalidPlan(at / "parameter_reference", s"parameter $anchor with no value",
              "a value for it, in the plan's parameter_bindings or through the API's params")
        }
    }
    // A decimal value from the API (a BigDecimal) takes the literals' long form.
    if (value.dataType == target) longHeld(value)
    else {
      def mismatch = SubstraitErrors.typeMismatch(at / "parameter_reference",
        s"value ${value.sql} for parameter $anchor", s"a value of its type ${SparkTypeNames.of(target)}")
      if (!Cast.canCast(value.dataType, target)) throw mismatch
      val converted = try Cast(value, target, Some(ctx.conf.sessionLocalTimeZone), EvalMode.ANSI).eval()
      catch { case NonFatal(_) => throw mismatch }
      longHeld(Literal(converted, target))
    }
  }

  private def longHeld(e: CExpression): CExpression = e match {
    case Literal(d: Decimal, t) => Literal(LiteralConverter.longHeld(d), t)
    case other => other
  }
}
