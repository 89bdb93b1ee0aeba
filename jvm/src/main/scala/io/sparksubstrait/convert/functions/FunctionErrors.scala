package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.types.DataType

import io.sparksubstrait.runtime.RaiseFunctionError

/**
 * The errors a function's options ask for, raised at execution with a condition per kind
 * (docs/errors.md): what mappings put where Spark would return NULL or a wrong value.
 */
private[functions] object FunctionErrors {
  def overflow(c: FunctionCall, detail: String, t: DataType): Expression =
    raise("SUBSTRAIT_ARITHMETIC_OVERFLOW", c, detail, t)
  def divisionByZero(c: FunctionCall, detail: String, t: DataType): Expression =
    raise("SUBSTRAIT_DIVISION_BY_ZERO", c, detail, t)
  def domain(c: FunctionCall, detail: String, t: DataType): Expression = raise("SUBSTRAIT_DOMAIN_ERROR", c, detail, t)
  def logOfZero(c: FunctionCall, detail: String, t: DataType): Expression = raise("SUBSTRAIT_LOG_OF_ZERO", c, detail, t)

  def tooLarge(c: FunctionCall, detail: String, t: DataType): Expression =
    raise("SUBSTRAIT_RESULT_TOO_LARGE", c, detail, t)

  /** The same error at conversion, for a size that constants fix. */
  def tooLargeNow(c: FunctionCall, detail: String): Nothing =
    throw io.sparksubstrait.errors.SubstraitErrors.functionError("SUBSTRAIT_RESULT_TOO_LARGE", c.at.toString, c.name,
      detail)

  private def raise(condition: String, c: FunctionCall, detail: String, t: DataType): Expression =
    RaiseFunctionError(condition, c.at.toString, c.name, detail, t)
}
