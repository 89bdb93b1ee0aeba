package io.sparksubstrait.convert

import io.sparksubstrait.proto.{Rel, Type}
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.sparksubstrait.convert.functions.DeclaredFunction
import io.sparksubstrait.foundation.PlanPath

/**
 * What a conversion tells whoever watches it (the plan explorer, explain/). Conversion owns
 * this trait so that it never names its watcher: a [[ConversionContext]] carries one or null
 * (a plain read pays one null check per node), and only the dispatch points call it.
 */
private[sparksubstrait] trait ConversionListener {

  /** Relation `rel` at `at` converted to `plan` (RelConverter). */
  def relation(rel: Rel, at: PlanPath, plan: LogicalPlan): Unit

  /**
   * A call of `fn` at `at` mapped through catalog entry `entry` to `result`; `declared` is
   * the plan's output_type, when given (FunctionArguments).
   */
  def function(fn: DeclaredFunction, entry: Any, declared: Option[Type], at: PlanPath, result: Expression): Unit
}
