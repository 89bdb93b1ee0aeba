package io.sparksubstrait.convert.expr

import org.apache.spark.sql.catalyst.analysis.TypeCheckResult
import org.apache.spark.sql.catalyst.expressions.{Expression => CExpression}

import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Every converted expression must be resolved once its children are: Catalyst's input-type
 * check failing (a list of i64 and i32 values, a map with mixed key types) means the plan's
 * types do not fit. Left alone, such an expression would surface later as Spark's analysis
 * error or as an unresolved attribute in another converter (both found by FuzzSuite).
 */
private[convert] object ResolvedCheck {
  def apply(at: PlanPath)(e: CExpression): CExpression = {
    if (e.childrenResolved && !e.resolved) {
      val reason = e.checkInputDataTypes() match {
        case TypeCheckResult.DataTypeMismatch(sub, params) =>
          s"$sub ${params.map { case (k, v) => s"$k=$v" }.mkString(", ")}"
        case TypeCheckResult.TypeCheckFailure(m) => m
        case other => other.toString
      }
      throw SubstraitErrors.typeMismatch(at,
        s"${e.prettyName} of (${e.children.map(c => SparkTypeNames.of(c.dataType)).mkString(", ")})",
        s"arguments of types that fit together ($reason)")
    }
    e
  }
}
