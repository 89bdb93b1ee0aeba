package io.sparksubstrait.functiontests

import org.apache.spark.SparkThrowable

import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.testing.Throwables.causes

/** The kinds of error a case can ask for, named by the conditions that carry them. */
sealed abstract class ErrorKind(val name: String, val conditions: Set[String]) {
  override def toString: String = name
}
object ErrorKind {

  /** Ours (SUBSTRAIT_…) where a mapping raises it, Spark's where Spark's ANSI arithmetic does. */
  case object Overflow extends ErrorKind("overflow",
        Set("SUBSTRAIT_ARITHMETIC_OVERFLOW", "ARITHMETIC_OVERFLOW",
          "BINARY_ARITHMETIC_OVERFLOW", "CAST_OVERFLOW", "NUMERIC_VALUE_OUT_OF_RANGE"))
  case object DivisionByZero extends ErrorKind("division by zero",
        Set("SUBSTRAIT_DIVISION_BY_ZERO", "DIVIDE_BY_ZERO",
          "REMAINDER_BY_ZERO"))
  case object Domain extends ErrorKind("domain error", Set("SUBSTRAIT_DOMAIN_ERROR"))
  case object LogOfZero extends ErrorKind("logarithm of zero", Set("SUBSTRAIT_LOG_OF_ZERO"))

  /** The plan itself is wrong (an option value the YAML does not list). */
  case object InvalidPlan extends ErrorKind("invalid plan", Set("SUBSTRAIT_INVALID_PLAN"))

  val all: Seq[ErrorKind] = Seq(Overflow, DivisionByZero, Domain, LogOfZero, InvalidPlan)

  /** The condition of the first SparkThrowable in the cause chain (ours or Spark's), if any. */
  def conditionOf(e: Throwable): Option[String] =
    causes(e).collectFirst {
      case s: SubstraitException => s.condition
      case s: SparkThrowable if errorClass(s) != null => errorClass(s)
    }

  /** The kind of error `e` is, by its condition; None for any other exception. */
  def of(e: Throwable): Option[ErrorKind] =
    conditionOf(e).flatMap(c => all.find(_.conditions(c.takeWhile(_ != '.'))))

  // Spark 4 renamed it getCondition; getErrorClass answers on every version.
  @annotation.nowarn("cat=deprecation")
  private def errorClass(s: SparkThrowable): String = s.getErrorClass

  /**
   * The kinds a `<!ERROR>` case may raise: what its ERROR options ask for. Left: the case
   * names no kind and none is listed for it in [[UnoptionedErrors]].
   */
  def expected(c: FunctionTestCase): Either[String, Set[ErrorKind]] = {
    def kinds(option: String): Seq[ErrorKind] = option match {
      case "overflow" => Seq(Overflow)
      case "on_division_by_zero" => Seq(DivisionByZero)
      // modulus: the YAML's on_domain_error governs a zero divisor, Spark's DIVIDE_BY_ZERO.
      case "on_domain_error" if c.call.function == "modulus" => Seq(Domain, DivisionByZero)
      case "on_domain_error" | "complex_number_result" => Seq(Domain)
      case "on_log_zero" => Seq(LogOfZero)
      case _ => Nil
    }
    val asked: Set[ErrorKind] = c.options.collect { case (name, v) if v.equalsIgnoreCase("ERROR") => name.toLowerCase }
      .flatMap(kinds).toSet
    if (asked.nonEmpty) Right(asked)
    else UnoptionedErrors.kinds.get(c.source).map(k => Right(Set(k._1)))
      .getOrElse(
        Left("the case asks for an error without an ERROR option, and no kind is listed for it (UnoptionedErrors)"))
  }
}

/** `<!ERROR>` cases without an option naming the error: the kind each must raise, and why. */
object UnoptionedErrors {
  import ErrorKind._
  val kinds: Map[String, (ErrorKind, String)] = Map(
    "sqrt(-9223372036854775800::dec<19, 0>) = <!ERROR>" ->
      (Domain ->
        "functions_arithmetic_decimal's sqrt has no on_domain_error option: a negative argument is outside its domain"),
    "sqrt(-2.5::dec<2, 1>) = <!ERROR>" ->
      (Domain ->
        "functions_arithmetic_decimal's sqrt has no on_domain_error option: a negative argument is outside its domain"),
    "factorial(34::dec<2, 0>) = <!ERROR>" ->
      (Overflow -> "34! = 2.95e38 has 39 digits, beyond decimal<38, 0>"),
    "factorial(-1::dec<1, 0>) = <!ERROR>" ->
      (Domain -> "the factorial of a negative number is undefined")
  )
}
