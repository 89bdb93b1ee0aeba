package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.convert.functions.FunctionCatalog.numericArgs
import io.sparksubstrait.convert.functions.Saturation.{Integral, integralLiteral, range}
import io.sparksubstrait.runtime.{CorrectlyRounded, DecimalQuotient, FloatingQuotient, FunctionFault, IeeeMath}
import io.sparksubstrait.util.Options

/**
 * divide and modulus with every combination of their options. Each special case the YAML
 * names (a zero divisor, MIN / -1, a NaN operand, ∞ / ∞) is its own branch, so each option
 * decides its own case; the ordinary quotient is Spark's arithmetic, or IEEE division where
 * Spark's would return NULL.
 */
private[functions] object Division {
  def divide(c: FunctionCall): Expression = {
    c.expectArity(2)
    val Seq(l, r) = numericArgs(c)
    l.dataType match {
      case t if Integral(t) => integers(c, l, r, t)
      case DoubleType | FloatType => floating(c, l, r)
      case _ => decimals(c, l, r)
    }
  }

  /** An option left open takes the session's behaviour: errors under ANSI, NULL without. */
  private def sessionChoice(c: FunctionCall): String = if (c.ctx.defaultEvalMode == EvalMode.ANSI) "ERROR" else "NULL"

  /** A NULL operand gives NULL before any special case is looked at. */
  private def anyNull(l: Expression, r: Expression): Expression = Or(IsNull(l), IsNull(r))

  private def zero(e: Expression): Expression = EqualTo(e, Cast(Literal(0), e.dataType))

  /**
   * Integer division truncates toward zero (the YAML). A zero divisor follows
   * on_division_by_zero; MIN / -1, the one quotient beyond the type, follows overflow
   * (SILENT wraps around to MIN, as the JVM does); integer division has no domain error, so
   * on_domain_error's choices give the same answers.
   */
  private def integers(c: FunctionCall, l: Expression, r: Expression, t: DataType): Expression = {
    c.acceptIeeeRounding()
    val byZero = c.option("on_division_by_zero", Map("NULL" -> "NULL", "ERROR" -> "ERROR")).getOrElse(sessionChoice(c))
    c.option("on_domain_error", Map("NULL" -> (), "ERROR" -> ()))
    val overflow = if (c.saturates) "SATURATE"
    else c.option("overflow", Map("ERROR" -> "ERROR", "SILENT" -> "SILENT"))
      .getOrElse(if (c.ctx.defaultEvalMode == EvalMode.ANSI) "ERROR" else "SILENT")
    val (min, max) = range(t)
    val quotient = Cast(SparkShim.integralDivide(Cast(l, LongType), Cast(r, LongType), EvalMode.LEGACY, c.ctx.conf), t,
      None, EvalMode.LEGACY)
    val byZeroValue =
      if (byZero == "NULL") Literal(null, t) else FunctionErrors.divisionByZero(c, "the divisor is 0", t)
    val overflowValue = overflow match {
      case "SATURATE" => integralLiteral(max, t)
      case "SILENT" => integralLiteral(min, t)
      case _ => FunctionErrors.overflow(c, s"$min / -1 exceeds ${t.simpleString}", t)
    }
    CaseWhen(
      Seq(
        anyNull(l, r) -> Literal(null, t),
        zero(r) -> byZeroValue,
        And(EqualTo(l, integralLiteral(min, t)), EqualTo(r, integralLiteral(-1, t))) -> overflowValue),
      Some(quotient))
  }

  /**
   * Floating-point division. A NaN operand or ∞ / ∞ follows on_domain_error (NaN when open,
   * as IEEE gives); a zero divisor follows on_division_by_zero: IEEE's ±∞ (NaN for 0 / 0),
   * LIMIT's ±∞ whatever the dividend, NULL or an error; the quotient rounds in the plan's mode.
   */
  private def floating(c: FunctionCall, l: Expression, r: Expression): Expression = {
    val t = l.dataType
    val single = t == FloatType
    val mode = c.rounding.getOrElse(CorrectlyRounded.TieToEven)
    val byZero =
      c.option("on_division_by_zero", Map("IEEE" -> "IEEE", "LIMIT" -> "LIMIT", "NULL" -> "NULL", "ERROR" -> "ERROR"))
        .getOrElse(sessionChoice(c))
    val domain = c.option("on_domain_error", Map("NAN" -> "NAN", "NULL" -> "NULL", "ERROR" -> "ERROR")).getOrElse("NAN")
    def invoke(cls: Class[_], method: String, args: Expression*) =
      StaticInvoke(cls, t, if (single) method + "Float" else method, args)
    val quotient =
      if (mode == CorrectlyRounded.TieToEven) invoke(classOf[IeeeMath], "divide", l, r)
      else invoke(classOf[CorrectlyRounded], "divide", l, r, Literal(mode))
    // IEEE division gives NaN for a NaN operand and for ∞ / ∞, and ±∞ or NaN for a zero
    // divisor: where the options ask for IEEE's answers to those, one expression answers the
    // rest (FloatingQuotient), not a CASE: fewer expressions for Spark's optimizer and the
    // generated code (DuckDB's TPC-DS q66 divides 24 doubles).
    if (mode == CorrectlyRounded.TieToEven && domain == "NAN") {
      return byZero match {
        case "IEEE" => quotient
        case "LIMIT" => FloatingQuotient(l, r, FloatingQuotient.Limit)
        case "NULL" => FloatingQuotient(l, r, FloatingQuotient.NullResult)
        case _ =>
          FloatingQuotient(l, r, FloatingQuotient.Raise(zeroDivisorFault(c)))
      }
    }
    val nan = Literal.create(if (single) Float.NaN else Double.NaN, t)
    val domainValue = domain match {
      case "NAN" => nan
      case "NULL" => Literal(null, t)
      case _ => FunctionErrors.domain(c, "a NaN operand, or an infinity divided by an infinity", t)
    }
    val byZeroValue = byZero match {
      case "IEEE" => quotient
      case "LIMIT" => invoke(classOf[IeeeMath], "limit", l, r)
      case "NULL" => Literal(null, t)
      case _ => FunctionErrors.divisionByZero(c, "the divisor is 0", t)
    }
    def infinite(e: Expression) =
      EqualTo(Abs(e), Literal.create(if (single) Float.PositiveInfinity else Double.PositiveInfinity, t))
    // A NULL operand gives NULL before any branch (IEEE's quotient of a NULL is NULL).
    CaseWhen(Seq(anyNull(l, r) -> Literal(null, t),
        Or(Or(IsNaN(l), IsNaN(r)), And(infinite(l), infinite(r))) -> domainValue, zero(r) -> byZeroValue),
      Some(quotient))
  }

  /** The zero divisor's error, raised from inside FloatingQuotient or DecimalQuotient at run time. */
  private def zeroDivisorFault(c: FunctionCall): FunctionFault =
    FunctionFault("SUBSTRAIT_DIVISION_BY_ZERO", c.at.toString, c.name, "the divisor is 0")

  /** Decimal division: Spark's, rounding half up at the result's scale; its options pick Spark's mode. */
  private def decimals(c: FunctionCall, l: Expression, r: Expression): Expression = {
    if (c.saturates) {
      // Spark's legacy quotient is NULL for a zero divisor too: that one is the session's
      // (the decimal YAML has no on_division_by_zero), the other NULLs are overflows.
      val legacy = SparkShim.divide(l, r, EvalMode.LEGACY, c.ctx.conf)
      val t = c.declaredType.collect { case d: DecimalType => d }.getOrElse(legacy.dataType)
      val byZero =
        c.option("on_division_by_zero", Map("NULL" -> "NULL", "ERROR" -> "ERROR")).getOrElse(sessionChoice(c))
      return CaseWhen(Seq(anyNull(l, r) -> Literal(null, t),
          zero(r) ->
            (if (byZero == "NULL") Literal(null, t) else FunctionErrors.divisionByZero(c, "the divisor is 0", t))),
        Some(Saturation.decimal(l, r, legacy, Saturation.productSign(l, r), c.declaredType)))
    }
    val overflow = c.option("overflow", Map("ERROR" -> EvalMode.ANSI, "SILENT" -> EvalMode.LEGACY))
    val byZero = c.option("on_division_by_zero", Map("NULL" -> EvalMode.LEGACY, "ERROR" -> EvalMode.ANSI))
    c.declaredType match {
      // The plan's type names the quotient's scale: rounded once there (DecimalQuotient), not at
      // Spark's scale and again by the cast to the plan's type.
      // NULLs, a zero divisor and an overflow are answered inside it (no CASE around it).
      case Some(d: DecimalType) =>
        def raises(mode: Option[EvalMode.Value]) = mode.getOrElse(c.ctx.defaultEvalMode) == EvalMode.ANSI
        return DecimalQuotient(l, r, d.scale, Options.when(raises(byZero))(zeroDivisorFault(c)),
          Options.when(raises(overflow))(
            FunctionFault("SUBSTRAIT_ARITHMETIC_OVERFLOW", c.at.toString, c.name, "the quotient exceeds 38 digits")))
      case _ =>
    }
    val modes = Seq(overflow, byZero).flatten.distinct
    if (modes.size > 1) {
      // A mix: the zero divisor answered first as on_division_by_zero asks, then Spark's
      // division in the overflow option's mode (its own zero-divisor answer never reached).
      val quotient = SparkShim.divide(l, r, overflow.get, c.ctx.conf)
      val t = quotient.dataType
      val zeroValue = if (byZero.contains(EvalMode.LEGACY)) Literal(null, t)
      else FunctionErrors.divisionByZero(c, "the divisor is 0", t)
      return CaseWhen(Seq(anyNull(l, r) -> Literal(null, t), zero(r) -> zeroValue), Some(quotient))
    }
    val mode = modes.headOption.getOrElse(c.ctx.defaultEvalMode)
    val quotient = SparkShim.divide(l, r, mode, c.ctx.conf)
    if (mode != EvalMode.ANSI) return quotient
    // A plan that declares no output type (DataFusion 31-54) reaches here: Spark's ANSI
    // quotient would raise its own DIVIDE_BY_ZERO, so the zero divisor is answered first,
    // with this consumer's error naming the place in the plan.
    val t = quotient.dataType
    CaseWhen(Seq(anyNull(l, r) -> Literal(null, t), zero(r) -> FunctionErrors.divisionByZero(c, "the divisor is 0", t)),
      Some(quotient))
  }

  /**
   * The remainder of truncated (default) or floor division. A zero divisor follows
   * on_domain_error (the YAML: "y is 0 … the mod is undefined"); a remainder always fits its
   * type (MIN % -1 is 0), so every overflow choice gives the same answers.
   */
  def modulus(c: FunctionCall): Expression = {
    c.expectArity(2)
    val Seq(l, r) = numericArgs(c)
    val floor = c.option("division_type", Map("TRUNCATE" -> false, "FLOOR" -> true)).getOrElse(false)
    val integral = Integral(l.dataType)
    val onZero = c.option("on_domain_error", Map("NULL" -> "NULL", "ERROR" -> "ERROR")).getOrElse(sessionChoice(c))
    // A remainder always fits its type (|x mod y| < |y|, and the decimal result type has y's
    // integer digits): every overflow choice gives the same answers.
    val saturates = (integral || l.dataType.isInstanceOf[DecimalType]) && c.saturates
    if (integral && !saturates) c.option("overflow", Map("ERROR" -> (), "SILENT" -> ()))
    val mode = if (integral) EvalMode.LEGACY
    else if (saturates) EvalMode.ANSI
    else
      c.option("overflow", Map("ERROR" -> EvalMode.ANSI, "SILENT" -> EvalMode.LEGACY)).getOrElse(c.ctx.defaultEvalMode)
    val truncated = SparkShim.remainder(l, r, EvalMode.LEGACY, c.ctx.conf)
    val t = truncated.dataType
    // Floor division's remainder has the divisor's sign: a non-zero remainder of the other
    // sign moves by one divisor.
    val remainder = if (floor) {
      val z = Cast(Literal(0), t)
      If(And(Not(EqualTo(truncated, z)),
          Not(EqualTo(LessThan(truncated, z), LessThan(r, Cast(Literal(0), r.dataType))))),
        SparkShim.add(truncated, r, mode, c.ctx.conf), truncated)
    } else truncated
    val onZeroValue = if (onZero == "NULL") Literal(null, t) else FunctionErrors.domain(c, "the divisor is 0", t)
    CaseWhen(Seq(anyNull(l, r) -> Literal(null, t), zero(r) -> onZeroValue), Some(remainder))
  }
}
