package io.sparksubstrait.convert.expr

import io.sparksubstrait.proto.{ExecutionBehavior, Type}
import io.sparksubstrait.proto.Expression.ExecutionContextVariable
import io.sparksubstrait.proto.Expression.ExecutionContextVariable.ExecutionContextVariableTypeCase
import org.apache.spark.sql.catalyst.expressions.{
  CurrentDate, CurrentTimeZone, CurrentTimestamp, Expression => CExpression
}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Execution context variables (spec 0.100+): current_timestamp, current_timezone and
 * current_date as Spark's, which evaluates each once per query, in the session time zone.
 * That is the plan's VARIABLE_EVALUATION_MODE_PER_PLAN; once per record Spark cannot do,
 * and a plan that says neither leaves the answer open (the spec requires the mode).
 */
private[sparksubstrait] object ContextVariableConverter {
  def convert(v: ExecutionContextVariable, at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    ctx.executionBehavior.getVariableEvalMode match {
      case ExecutionBehavior.VariableEvaluationMode.VARIABLE_EVALUATION_MODE_PER_PLAN =>
      case ExecutionBehavior.VariableEvaluationMode.VARIABLE_EVALUATION_MODE_PER_RECORD =>
        throw SubstraitErrors.unsupported(PlanPath.root / "execution_behavior" / "variable_eval_mode",
          "execution context variables evaluated once per record", "PER_PLAN (Spark evaluates them once per query)")
      case _ => throw SubstraitErrors.missingField(PlanPath.root / "execution_behavior", "variable_eval_mode",
          "how often the plan's execution context variables are evaluated (the spec requires it)")
    }
    v.getExecutionContextVariableTypeCase match {
      case ExecutionContextVariableTypeCase.CURRENT_TIMESTAMP =>
        val t = v.getCurrentTimestamp
        required(t.getNullability, at / "current_timestamp")
        if (t.getPrecision != 6) {
          throw SubstraitErrors.unsupported(at / "current_timestamp" / "precision",
            s"current_timestamp at precision ${t.getPrecision}",
            "precision 6 (Spark's current timestamp is in microseconds)")
        }
        CurrentTimestamp()
      case ExecutionContextVariableTypeCase.CURRENT_TIMEZONE =>
        required(v.getCurrentTimezone.getNullability, at / "current_timezone")
        CurrentTimeZone()
      case ExecutionContextVariableTypeCase.CURRENT_DATE =>
        required(v.getCurrentDate.getNullability, at / "current_date")
        CurrentDate(Some(ctx.conf.sessionLocalTimeZone))
      case _ => throw SubstraitErrors.missingField(at, "execution_context_variable_type",
          "current_timestamp, current_timezone or current_date")
    }
  }

  private def required(n: Type.Nullability, at: PlanPath): Unit =
    if (n != Type.Nullability.NULLABILITY_REQUIRED) {
      throw SubstraitErrors.invalidPlan(at / "nullability", s"nullability ${n.name()}",
        "NULLABILITY_REQUIRED (the spec's)")
    }
}
