package io.sparksubstrait.errors

import org.apache.spark.ErrorClassesJsonReader

import io.sparksubstrait.foundation.PlanPath

/**
 * The one error factory: every failure of spark-substrait is raised through here, so that
 * each has a condition from `error-conditions.json`, names its place in the plan, what was
 * found and what was expected.
 */
private[sparksubstrait] object SubstraitErrors {
  private val reader = new ErrorClassesJsonReader(
    Seq(getClass.getResource("/io/sparksubstrait/error-conditions.json")))

  /**
   * Conditions meaning "valid plan, not supported"; all others mean "invalid plan".
   * python/spark_substrait/_errors.py mirrors this set: Spark Connect sends a client the
   * condition, not the exception class (ConnectPluginSuite checks both agree).
   */
  private[sparksubstrait] val unsupportedConditions = Set(
    "SUBSTRAIT_UNKNOWN_FIELD", "SUBSTRAIT_UNKNOWN_FUNCTION", "SUBSTRAIT_UNSUPPORTED_FEATURE",
    "SUBSTRAIT_UNSUPPORTED_FUNCTION_OPTION", "SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED",
    "SUBSTRAIT_PLAN_TOO_LARGE", "SUBSTRAIT_UNSUPPORTED_VERSION", "SUBSTRAIT_UNWRITABLE_PLAN")

  /** Conditions a function raises at execution, as its options ask: [[SubstraitFunctionException]]. */
  private[sparksubstrait] val functionConditions = Set(
    "SUBSTRAIT_ARITHMETIC_OVERFLOW", "SUBSTRAIT_DIVISION_BY_ZERO", "SUBSTRAIT_DOMAIN_ERROR", "SUBSTRAIT_LOG_OF_ZERO",
    "SUBSTRAIT_RESULT_TOO_LARGE")

  /**
   * Conditions raised while the query runs: the functions' ones, and a table value that does
   * not fit the narrower type base_schema declares for its column (runtime.CheckedNarrowing).
   * Both are [[SubstraitFunctionException]]s: the plan is valid, its data made the read fail.
   */
  private[sparksubstrait] val executionConditions = functionConditions + "SUBSTRAIT_VALUE_OUT_OF_RANGE"

  private[errors] def sqlState(condition: String): String = reader.getSqlState(condition)

  private def raise(
    condition: String,
    at: Option[PlanPath],
    params: (String, Any)*)(implicit cause: Throwable = null): SubstraitException =
    raiseAt(condition, at.map(_.toString), params: _*)

  private def raiseAt(
    condition: String,
    location: Option[String],
    params: (String, Any)*)(implicit cause: Throwable = null): SubstraitException = {
    val all =
      (location.map("location" -> _).toSeq ++
        params.map { case (k, v) => k -> String.valueOf(v) }).toMap
    val message = s"[$condition] ${reader.getErrorMessage(condition, all)}"
    if (unsupportedConditions(condition)) {
      new SubstraitUnsupportedException(condition, all, message, location, cause)
    } else if (executionConditions(condition)) {
      new SubstraitFunctionException(condition, all, message, location, cause)
    } else {
      new SubstraitInvalidPlanException(condition, all, message, location, cause)
    }
  }

  /**
   * At execution: the function at `location` (a plan path) raised the error its options ask
   * for. `condition` is one of [[functionConditions]]; `detail` says what happened.
   */
  def functionError(condition: String, location: String, function: String, detail: String): SubstraitException = {
    require(functionConditions(condition), condition)
    raiseAt(condition, Some(location), "function" -> function, "detail" -> detail)
  }

  /**
   * At execution: column `column` (of its table) holds `value`, which does not fit `declared`,
   * the narrower type base_schema at `location` declares for it; the table holds `stored`.
   */
  def valueOutOfRange(location: String, column: String, value: String, declared: String, stored: String)
    : SubstraitException =
    raiseAt("SUBSTRAIT_VALUE_OUT_OF_RANGE", Some(location), "column" -> column, "value" -> value,
      "declared" -> declared, "stored" -> stored)

  /** The whole input could not be decoded: the location is the plan itself. */
  def malformedPlan(format: String, reason: String, cause: Throwable): SubstraitException =
    raise("SUBSTRAIT_MALFORMED_PLAN", Some(PlanPath.root), "format" -> format,
      "reason" -> Option(reason).map(r => withoutClassNames(r).trim.stripSuffix(".")).getOrElse("no reason given"))(
      cause)

  /**
   * A library's message without the exception class names it starts with: protobuf's JSON
   * parser says `java.io.EOFException: End of input at line 1 column 16`, and a user needs only
   * what follows (the condition already says what kind of failure it is).
   */
  private def withoutClassNames(message: String): String =
    message.replaceFirst("^(?:(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error): )+", "")

  def unknownField(at: PlanPath, field: String): SubstraitException =
    raise("SUBSTRAIT_UNKNOWN_FIELD", Some(at), "field" -> field)

  /** Something unknown in a plan stamped with a newer spec version than ours. */
  def unsupportedVersion(at: PlanPath, found: String, planVersion: String, supported: String): SubstraitException =
    raise("SUBSTRAIT_UNSUPPORTED_VERSION", Some(at), "found" -> found, "planVersion" -> planVersion,
      "supported" -> supported)

  def invalidPlan(at: PlanPath, found: String, expected: String): SubstraitException =
    raise("SUBSTRAIT_INVALID_PLAN", Some(at), "found" -> found, "expected" -> expected)

  def missingField(at: PlanPath, field: String, expected: String): SubstraitException =
    raise("SUBSTRAIT_MISSING_FIELD", Some(at), "field" -> field, "expected" -> expected)

  def fieldReferenceOutOfRange(at: PlanPath, index: Int, size: Int): SubstraitException =
    raise("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE", Some(at),
      "index" -> index, "maxIndex" -> (size - 1), "size" -> size)

  def undeclaredAnchor(at: PlanPath, kind: String, anchor: Long, declared: Iterable[Long])
    : SubstraitException =
    raise("SUBSTRAIT_UNDECLARED_ANCHOR", Some(at), "kind" -> kind, "anchor" -> anchor,
      "declared" -> (if (declared.isEmpty) "(none)" else declared.toSeq.sorted.mkString(", ")))

  def unknownFunction(at: PlanPath, name: String, extension: String, argTypes: Seq[String])
    : SubstraitException =
    raise("SUBSTRAIT_UNKNOWN_FUNCTION", Some(at), "name" -> name, "extension" -> extension,
      "argTypes" -> argTypes.mkString(", "))

  def unsupported(at: PlanPath, found: String, expected: String): SubstraitException =
    raise("SUBSTRAIT_UNSUPPORTED_FEATURE", Some(at), "found" -> found, "expected" -> expected)

  def unsupportedOption(at: PlanPath, function: String, option: String,
    requested: Seq[String], supported: Seq[String]): SubstraitException =
    raise("SUBSTRAIT_UNSUPPORTED_FUNCTION_OPTION", Some(at), "name" -> function,
      "option" -> option, "requested" -> requested.mkString(" or "),
      "supported" -> supported.mkString(", "))

  def typeMismatch(at: PlanPath, found: String, expected: String): SubstraitException =
    raise("SUBSTRAIT_TYPE_MISMATCH", Some(at), "found" -> found, "expected" -> expected)

  def tableNotFound(at: PlanPath, table: Seq[String], cause: Throwable): SubstraitException =
    raise("SUBSTRAIT_TABLE_NOT_FOUND", Some(at), "table" -> table.mkString("."),
      "reason" -> Option(cause).map(_.getMessage.linesIterator.next()).getOrElse("unknown"))(cause)

  def rootNamesMismatch(at: PlanPath, found: Int, expected: Int): SubstraitException =
    raise("SUBSTRAIT_ROOT_NAMES_MISMATCH", Some(at), "found" -> found, "expected" -> expected)

  def noSingleRoot(at: PlanPath, roots: Int): SubstraitException =
    raise("SUBSTRAIT_NO_ROOT", Some(at), "roots" -> roots)

  def localFilesNotAllowed(at: PlanPath, path: String, allowed: Seq[String]): SubstraitException =
    raise("SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED", Some(at), "path" -> path,
      "allowed" -> (if (allowed.isEmpty) "none are set" else allowed.mkString(", ")))

  def fileNotReadable(at: PlanPath, path: String, format: String, cause: Throwable): SubstraitException =
    raise("SUBSTRAIT_FILE_NOT_READABLE", Some(at), "path" -> path, "format" -> format,
      "reason" -> Option(cause.getMessage).map(m => withoutClassNames(m.linesIterator.next()))
        .getOrElse(cause.getClass.getSimpleName))(cause)

  /** The plan is beyond a limit of [[io.sparksubstrait.decode.PlanLimits]]: refused before it is converted. */
  def planTooLarge(found: String, limit: Any, advice: String, cause: Throwable = null): SubstraitException =
    raise("SUBSTRAIT_PLAN_TOO_LARGE", Some(PlanPath.root), "found" -> found, "limit" -> limit,
      "advice" -> advice)(cause)

  /**
   * A spark-substrait setting with a value it cannot use; `at`, when the setting is read for a
   * part of a plan (an extension handler's class), is that part.
   */
  def invalidSetting(key: String, value: String, expected: String, at: Option[PlanPath] = None): SubstraitException =
    raise("SUBSTRAIT_INVALID_SETTING", at, "key" -> key, "value" -> value, "expected" -> expected)

  /**
   * A session's extension handler (docs/extending.md) failed, or broke its contract, doing
   * `what` for the part of the plan at `location` (a plan path, or a Catalyst path when
   * writing): the user's code, not the plan's or this project's fault.
   */
  def extensionFailed(location: String, handler: String, what: String, reason: String, cause: Throwable = null)
    : SubstraitException =
    raiseAt("SUBSTRAIT_EXTENSION_FAILED", Some(location), "handler" -> handler, "what" -> what, "reason" -> reason)(
      cause)

  /**
   * Writing (Catalyst to Substrait): the Catalyst `node` at `location` (its path in the
   * Catalyst tree, e.g. `Project > Filter.condition > Like`) has no exact Substrait form.
   */
  def unwritable(location: String, node: String, reason: String, expected: String): SubstraitException =
    raiseAt("SUBSTRAIT_UNWRITABLE_PLAN", Some(location), "node" -> node, "reason" -> reason, "expected" -> expected)

  /** Anything unexpected while converting the part of the plan at `at`: never a bare JVM exception. */
  def conversionFailed(at: PlanPath, cause: Throwable): SubstraitException =
    raise("SUBSTRAIT_CONVERSION_FAILED", Some(at), "exception" -> cause.getClass.getSimpleName,
      "reason" -> Option(cause.getMessage).map(_.linesIterator.next()).getOrElse("no message"))(cause)

  /** Runs one converter step, turning any non-fatal foreign exception into ours, located at `at`. */
  def located[T](at: PlanPath)(body: => T): T =
    try body
    catch {
      case e: SubstraitException => throw e
      case e: StackOverflowError => throw e
      case scala.util.control.NonFatal(e) => throw conversionFailed(at, e)
    }
}
