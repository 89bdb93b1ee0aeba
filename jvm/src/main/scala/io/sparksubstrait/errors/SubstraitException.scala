package io.sparksubstrait.errors

import scala.jdk.CollectionConverters._

/**
 * The one exception family of spark-substrait. Every instance is created by
 * [[SubstraitErrors]]; the condition names live in `error-conditions.json`.
 *
 * Two kinds, so callers can tell "fix the plan" from "use another engine":
 * [[SubstraitInvalidPlanException]] and [[SubstraitUnsupportedException]]; and, at execution,
 * [[SubstraitFunctionException]]: the error a function's options ask for.
 */
sealed abstract class SubstraitException(
  val condition: String,
  val parameters: Map[String, String],
  message: String,
  val location: Option[String],
  cause: Throwable)
    extends RuntimeException(message, cause) with SparkThrowableCondition {

  override def getMessageParameters: java.util.Map[String, String] = parameters.asJava
  override def getSqlState: String = SubstraitErrors.sqlState(condition)

  /** Location in the plan, e.g. `relations[0].root.input.filter.condition`, or null. */
  def getLocation: String = location.orNull
}

/** The plan is not valid Substrait (or not a plan at all). */
final class SubstraitInvalidPlanException private[errors] (
  condition: String, parameters: Map[String, String], message: String,
  location: Option[String], cause: Throwable)
    extends SubstraitException(condition, parameters, message, location, cause)

/** The plan is valid Substrait, but asks for something Spark or this consumer cannot do. */
final class SubstraitUnsupportedException private[errors] (
  condition: String, parameters: Map[String, String], message: String,
  location: Option[String], cause: Throwable)
    extends SubstraitException(condition, parameters, message, location, cause)

/**
 * A function of the plan raised, while the query ran, the error its options ask for: an
 * overflow under `overflow` ERROR, a domain error under `on_domain_error` ERROR, … The plan
 * is valid and supported; its data made the function fail, as the plan wanted. Also a table
 * value that does not fit the narrower type base_schema declares for its column
 * (SUBSTRAIT_VALUE_OUT_OF_RANGE).
 */
final class SubstraitFunctionException private[errors] (
  condition: String, parameters: Map[String, String], message: String,
  location: Option[String], cause: Throwable)
    extends SubstraitException(condition, parameters, message, location, cause)
