package io.sparksubstrait.runtime

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.LeafExpression
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenFallback
import org.apache.spark.sql.types.DataType

import io.sparksubstrait.errors.SubstraitErrors

/**
 * Raises, when evaluated, the error a function's options ask for (overflow ERROR,
 * on_domain_error ERROR, …) with our condition and the function's place in the plan, so that
 * a user (and the spec's test runner) can tell an overflow from a domain error by its
 * condition. Mappings put it in the branch of an `If` taken only by the rows at fault.
 * Spark's own raise_error takes only Spark's conditions.
 */
final case class RaiseFunctionError(condition: String, location: String, function: String, detail: String,
  dataType: DataType) extends LeafExpression with CodegenFallback {
  require(SubstraitErrors.functionConditions(condition), condition)

  override def nullable: Boolean = true
  override def foldable: Boolean = false
  override def eval(input: InternalRow): Any =
    throw SubstraitErrors.functionError(condition, location, function, detail)
  override def prettyName: String = "substrait_function_error"
  override def toString: String = s"$prettyName($condition, $function: $detail)"
  override def sql: String = s"$prettyName('$condition', '$function: $detail')"
}
