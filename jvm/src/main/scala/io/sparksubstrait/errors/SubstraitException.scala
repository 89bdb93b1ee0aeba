package io.sparksubstrait.errors

import scala.jdk.CollectionConverters._

/**
 * The one exception family of spark-substrait. Every instance is created by
 * [[SubstraitErrors]]; the condition names live in `error-conditions.json`.
 *
 * Two kinds, so callers can tell "fix the plan" from "use another engine":
 * [[SubstraitInvalidPlanException]] and [[SubstraitUnsupportedException]].
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
