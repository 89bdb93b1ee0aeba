package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.runtime.{CorrectlyRounded, DecimalPlaces}

import io.sparksubstrait.convert.functions.FunctionCatalog.ScalarEntry

/**
 * functions_logarithmic, functions_rounding(_decimal) and the bitwise functions of
 * functions_arithmetic. Spark's logarithms return NULL outside their domain, so the spec's
 * domain and log-zero choices are spelled out around them.
 */
private[functions] object MathFunctions {
  private val Logarithmic = Set("functions_logarithmic")
  private val Rounding = Set("functions_rounding", "functions_rounding_decimal")
  private val Arithmetic = Set("functions_arithmetic")
  private val Arithmetics = Set("functions_arithmetic", "functions_arithmetic_decimal")

  val entries: Seq[ScalarEntry] = Seq(
    logarithm("ln", lowest = 0)(Log(_)),
    logarithm("log10", lowest = 0)(Log10(_)),
    logarithm("log2", lowest = 0)(Log2(_)),
    logarithm("log1p", lowest = -1)(Log1p(_)),
    // logb(x, base) = ln(x) / ln(base), x first as the YAML's arguments are (and DataFusion
    // writes them); the spec's test file puts the base first (docs/function-tests.md, errata).
    // A base that is not positive, or is 1, has no logarithms: a domain error like a negative x.
    ScalarEntry("logb", Logarithmic,
      c => {
        c.expectArity(2)
        val Seq(x, base) = floats(c)
        // Correctly rounded in every mode, nearest-even when the plan names none.
        val exact = correctlyRoundedLogb(c, c.rounding.getOrElse(CorrectlyRounded.TieToEven))
        logOf(c, x, lowest = 0, resultType(c), _ => exact, anyNaN = Or(IsNaN(x), IsNaN(base)),
          // log_inf(inf) = inf / inf has no value either: the domain's edge, not NaN's.
          badBase = Or(Or(LessThanOrEqual(base, Literal(0.0)), EqualTo(base, Literal(1.0))),
            And(EqualTo(x, Literal(Double.PositiveInfinity)), EqualTo(base, Literal(Double.PositiveInfinity)))))
      }),

    ScalarEntry("ceil", Rounding, c => roundToIntegral(c, "ceil", SparkShim.ceil)),
    ScalarEntry("floor", Rounding, c => roundToIntegral(c, "floor", SparkShim.floor)),
    ScalarEntry("round", Rounding, round),

    ScalarEntry("bitwise_and", Arithmetics, c => bitwise(c, "decimalAnd")(BitwiseAnd(_, _))),
    ScalarEntry("bitwise_or", Arithmetics, c => bitwise(c, "decimalOr")(BitwiseOr(_, _))),
    ScalarEntry("bitwise_xor", Arithmetics, c => bitwise(c, "decimalXor")(BitwiseXor(_, _))),
    ScalarEntry("bitwise_not", Arithmetic, c => { c.expectArity(1); integral(c, c.arg(0)); BitwiseNot(c.arg(0)) }),
    shift("shift_left")(ShiftLeft(_, _)),
    shift("shift_right")(ShiftRight(_, _)),
    shift("shift_right_unsigned")(ShiftRightUnsigned(_, _)),
    ScalarEntry("factorial", Arithmetics, factorial),
    ScalarEntry("power", Arithmetics, power)
  )

  private def factorial(c: FunctionCall): Expression = {
    c.expectArity(1)
    val x = c.arg(0)
    x.dataType match {
      case d: DecimalType if d.scale == 0 =>
        c.option("overflow", Map("ERROR" -> ()))
        // 33! has 37 digits, 34! 39: beyond DECIMAL(38, 0).
        val whole = DecimalType(38, 0)
        val n = Cast(x, whole)
        CaseWhen(
          Seq(
            LessThan(n, Literal(Decimal(0), whole)) ->
              FunctionErrors.domain(c, "the factorial of a negative number", whole),
            GreaterThan(n, Literal(Decimal(33), whole)) ->
              FunctionErrors.overflow(c, "the factorial exceeds 38 digits", whole)),
          Some(exact(whole, "decimalFactorial", x)))
      case t =>
        integral(c, x)
        // n! for n up to the largest whose factorial the type holds (Spark's factorial, to 20!);
        // beyond it the overflow option; a negative n is an error whatever the options (the YAML).
        val overflow = if (c.saturates) "SATURATE"
        else c.option("overflow", Map("ERROR" -> "ERROR", "SILENT" -> "SILENT"))
          .getOrElse(if (c.ctx.defaultEvalMode == EvalMode.ANSI) "ERROR" else "SILENT")
        val limit = t match {
          case ByteType => 5
          case ShortType => 7
          case IntegerType => 12
          case _ => 20
        }
        val beyond = overflow match {
          case "SATURATE" => Saturation.integralLiteral(Saturation.range(t)._2, t)
          case "SILENT" => Literal(null, t)
          case _ => FunctionErrors.overflow(c, s"the factorial exceeds ${t.simpleString}", t)
        }
        CaseWhen(
          Seq(
            LessThan(x, Cast(Literal(0), t)) -> FunctionErrors.domain(c, "the factorial of a negative number", t),
            GreaterThan(x, Cast(Literal(limit), t)) -> beyond),
          Some(Cast(Factorial(Cast(x, IntegerType)), t)))
    }
  }

  /**
   * power: integers exactly (overflow ERROR or SILENT), anything else in double, where a
   * complex result (negative base, fractional exponent) is NaN or, if asked, an error.
   */
  private def power(c: FunctionCall): Expression = {
    c.expectArity(2)
    val Seq(x, y) = c.args
    if (!c.args.forall(a => NumericCoercion.isNumeric(a.dataType) || a.dataType == NullType))
      c.wrongArguments("numeric arguments")
    val integers = Seq(x, y).forall(a =>
      a.dataType match {
        case ByteType | ShortType | IntegerType | LongType => true
        case _ => false
      })
    if (integers) {
      val t = NumericCoercion.unify(c.args).getOrElse(c.wrongArguments("integers of one type")).head.dataType
      if (c.saturates) {
        val (min, max) = Saturation.range(t)
        return Cast(exact(LongType, "powerSaturating", Cast(x, LongType), Cast(y, LongType), Literal(min), Literal(max),
            Literal(c.at.toString)), t)
      }
      val checked = c.overflowMode == EvalMode.ANSI
      Cast(exact(LongType, if (checked) "power" else "powerWrapping", Cast(x, LongType), Cast(y, LongType),
          Literal(c.at.toString)),
        t, None, c.overflowMode)
    } else {
      c.acceptIeeeRounding()
      c.option("on_domain_error", Map("NAN" -> ()))
      val complexIsError = c.option("complex_number_result", Map("NAN" -> false, "ERROR" -> true)).getOrElse(false)
      val Seq(dx, dy) = floats(c)
      val result = StaticInvoke(classOf[io.sparksubstrait.runtime.IeeeMath], DoubleType, "pow", Seq(dx, dy))
      val complexChecked = if (complexIsError)
        If(And(IsNaN(result), Not(Or(IsNaN(dx), IsNaN(dy)))),
          FunctionErrors.domain(c, "a negative base to a fractional power has a complex result", DoubleType), result)
      else result
      // functions_arithmetic_decimal's power has an overflow option: decimals are finite, so an
      // infinite power of a base other than 0 (whose negative powers are a pole, not an
      // overflow) is one. SILENT may give any value: IEEE's infinity.
      val decimals = x.dataType.isInstanceOf[DecimalType] || y.dataType.isInstanceOf[DecimalType]
      val overflow = if (!decimals) None
      else if (c.saturates) Some("SATURATE") else c.option("overflow", Map("ERROR" -> "ERROR", "SILENT" -> "SILENT"))
      val overflowed = And(EqualTo(Abs(result), Literal(Double.PositiveInfinity)), Not(EqualTo(dx, Literal(0.0))))
      val checked = overflow match {
        case Some("ERROR") =>
          If(overflowed, FunctionErrors.overflow(c, "the power exceeds fp64", DoubleType), complexChecked)
        case Some("SATURATE") => If(overflowed,
            If(GreaterThan(result, Literal(0.0)), Literal(Double.MaxValue),
              Literal(-Double.MaxValue)), complexChecked)
        case _ => complexChecked
      }
      if (resultType(c) == FloatType) Cast(checked, FloatType) else checked
    }
  }

  private def logarithm(name: String, lowest: Int)(f: Expression => Expression): ScalarEntry =
    ScalarEntry(name, Logarithmic,
      c => {
        c.expectArity(1)
        val Seq(x) = floats(c)
        // A plan naming a rounding mode gets the logarithm correctly rounded in it.
        val exact =
          c.rounding.map(mode => Cast(ArithmeticFunctions.correctlyRounded(name, c.arg(0), mode)._2, DoubleType))
        logOf(c, x, lowest, resultType(c), v => exact.getOrElse(f(v)))
      })

  /** logb correctly rounded: floats and doubles as they are, integers and decimals exactly. */
  private def correctlyRoundedLogb(c: FunctionCall, mode: Int): Expression = {
    val code = Literal(CorrectlyRounded.functions("logb"))
    val Seq(x, base) = c.args
    val call = (x.dataType, base.dataType) match {
      case (FloatType, FloatType) =>
        StaticInvoke(classOf[CorrectlyRounded], FloatType, "apply2Float", Seq(code, x, base, Literal(mode)))
      case (DoubleType | FloatType, DoubleType | FloatType) =>
        StaticInvoke(classOf[CorrectlyRounded], DoubleType, "apply2",
          Seq(code, Cast(x, DoubleType), Cast(base, DoubleType), Literal(mode)))
      case _ =>
        def exact(e: Expression) = e.dataType match {
          case d: DecimalType => e
          case _ => Cast(e, DecimalType(20, 0))
        }
        StaticInvoke(classOf[CorrectlyRounded], DoubleType, "apply2Decimal",
          Seq(code, exact(x), exact(base), Literal(mode)))
    }
    Cast(call, DoubleType)
  }

  /**
   * `f(x)` for x above `lowest`; at `lowest` the on_log_zero choice (default -infinity, as
   * IEEE), below it (or for a `badBase`) the on_domain_error choice (default NaN, as IEEE).
   */
  private def logOf(c: FunctionCall, x: Expression, lowest: Int, result: DataType, f: Expression => Expression,
    badBase: Expression = Literal.FalseLiteral, anyNaN: Expression = Literal.FalseLiteral): Expression = {
    val onZero =
      c.option("on_log_zero", Map("MINUS_INFINITY" -> "-inf", "NAN" -> "nan", "ERROR" -> "error")).getOrElse("-inf")
    val onDomain =
      c.option("on_domain_error", Map("NAN" -> "nan", "NULL" -> "null", "ERROR" -> "error")).getOrElse("nan")
    def choice(what: String, error: => Expression): Expression = what match {
      case "-inf" => Literal(Double.NegativeInfinity)
      case "nan" => Literal(Double.NaN)
      case "null" => Literal(null, DoubleType)
      case _ => error
    }
    val at = Literal(lowest.toDouble)
    // A NULL argument (x, or logb's base) is NULL before any domain or log-zero case.
    val anyNull = c.args.map(a => IsNull(a): Expression).reduce(Or(_, _))
    val value = CaseWhen(
      Seq(
        anyNull -> Literal(null, DoubleType),
        // A NaN argument is NaN, before any domain case (IEEE: NaN in, NaN out).
        anyNaN -> Literal(Double.NaN),
        badBase -> choice(onDomain,
          FunctionErrors.domain(c, "the base is not positive or is 1, or both are infinite", DoubleType)),
        LessThan(x, at) -> choice(onDomain, FunctionErrors.domain(c, s"the argument is below $lowest", DoubleType)),
        EqualTo(x, at) -> choice(onZero, FunctionErrors.logOfZero(c, s"the argument is $lowest", DoubleType))),
      Some(f(x)))
    if (result == FloatType) Cast(value, FloatType) else value
  }

  /** Arguments as doubles (the result keeps an fp32 argument's width). */
  private def floats(c: FunctionCall): Seq[Expression] = c.args.map { a =>
    a.dataType match {
      case DoubleType => a
      case _: NumericType | NullType => Cast(a, DoubleType)
      case _ => c.wrongArguments("numeric arguments")
    }
  }
  private def resultType(c: FunctionCall): DataType =
    if (c.args.forall(a => a.dataType == FloatType || a.dataType == NullType) && c.args.exists(_.dataType == FloatType))
      FloatType
    else DoubleType

  /** ceil / floor: floats stay floats (Spark's return a long), decimals become DECIMAL(P-S+1, 0). */
  private def roundToIntegral(c: FunctionCall, method: String, decimal: Expression => Expression): Expression = {
    c.expectArity(1)
    val x = c.arg(0)
    x.dataType match {
      case _: DecimalType => decimal(x)
      case DoubleType => StaticInvoke(classOf[java.lang.Math], DoubleType, method, Seq(x))
      case FloatType =>
        Cast(StaticInvoke(classOf[java.lang.Math], DoubleType, method, Seq(Cast(x, DoubleType))), FloatType)
      case ByteType | ShortType | IntegerType | LongType => x
      case _ => c.wrongArguments("a numeric argument")
    }
  }

  /**
   * round(x, s) in every mode of the rounding option ([[DecimalPlaces]]), the scale a literal or
   * a column. Without a choice, ties go away from zero, as in SQL. The result keeps x's type
   * (decimal<min(P+1, 38), S> for decimal<P, S>); a value beyond it is an overflow (round has
   * no overflow option: an error in an ANSI session, NULL otherwise, the YAML's nullable return).
   */
  private def round(c: FunctionCall): Expression = {
    if (c.args.size != 2) c.wrongArguments("2 arguments")
    val Seq(x, scale) = c.args
    // The YAML's scale is an i32; a narrower or wider integer is cast (checked). Another type
    // (binary, a timestamp, …) has no cast to an integer: refused here, not left unresolved.
    val s = scale.dataType match {
      case IntegerType => scale
      case ByteType | ShortType | LongType | NullType => Cast(scale, IntegerType, None, EvalMode.ANSI)
      case _ => c.wrongArguments("an integer number of decimal places")
    }
    val mode = Literal(c.option("rounding", DecimalPlaces.modes).getOrElse(DecimalPlaces.TieAwayFromZero))
    def overflowArgs = Seq(Literal(c.overflowMode != EvalMode.ANSI), Literal(c.at.toString))
    def places(t: DataType, method: String, args: Expression*) =
      StaticInvoke(classOf[DecimalPlaces], t, method, args, returnNullable = true)
    x.dataType match {
      case DoubleType => places(DoubleType, "roundDouble", x, s, mode)
      case FloatType => places(FloatType, "roundFloat", x, s, mode)
      case t @ (ByteType | ShortType | IntegerType | LongType) =>
        val (min, max) = Saturation.range(t)
        Cast(places(LongType, "roundLong",
            Seq(Cast(x, LongType), s, mode, Literal(min), Literal(max)) ++ overflowArgs: _*), t)
      case d: DecimalType =>
        val result = DecimalType(math.min(d.precision + 1, DecimalType.MAX_PRECISION), d.scale)
        places(result, "roundDecimal",
          Seq(x, s, mode, Literal(result.precision), Literal(result.scale)) ++ overflowArgs: _*)
      case NullType => Literal(null, DoubleType)
      case _ => c.wrongArguments("a numeric value")
    }
  }

  /** A call of [[io.sparksubstrait.runtime.ExactMath]]: exact integer arithmetic Spark lacks. */
  private[functions] def exact(result: DataType, method: String, args: Expression*): Expression =
    StaticInvoke(classOf[io.sparksubstrait.runtime.ExactMath], result, method, args)

  private def bitwise(c: FunctionCall, decimalMethod: String)(f: (Expression, Expression) => Expression): Expression = {
    c.expectArity(2)
    (c.arg(0).dataType, c.arg(1).dataType) match {
      // Whole decimals: two's complement on their exact values, at the wider precision.
      case (d1: DecimalType, d2: DecimalType) if d1.scale == 0 && d2.scale == 0 =>
        val t = DecimalType(math.max(d1.precision, d2.precision), 0)
        return exact(t, decimalMethod, c.arg(0), c.arg(1), Literal(t.precision), Literal(c.at.toString))
      case _ =>
    }
    c.args.foreach(integral(c, _))
    val Seq(l, r) = NumericCoercion.unify(c.args).getOrElse(c.wrongArguments("arguments of one integer type"))
    f(l, r)
  }

  /** Shifts of i32 and i64 (Spark's); the shift amount is an int. */
  private def shift(name: String)(f: (Expression, Expression) => Expression): ScalarEntry = ScalarEntry(name,
    Arithmetic,
    c => {
      c.expectArity(2)
      val Seq(x, n) = c.args
      integral(c, n)
      val by = if (n.dataType == IntegerType) n else Cast(n, IntegerType, None, EvalMode.ANSI)
      x.dataType match {
        case IntegerType | LongType | NullType => f(x, by)
        // Beyond the YAML's i32 and i64, for DataFusion's GROUPING() (a shift of its narrow
        // grouping id): a signed right shift of an i8 or i16 is its i32's, which always fits back.
        case t @ (ByteType | ShortType) if name == "shift_right" => Cast(f(Cast(x, IntegerType), by), t)
        case _ => c.wrongArguments("an i32 or i64 value")
      }
    })

  private def integral(c: FunctionCall, e: Expression): Unit = e.dataType match {
    case ByteType | ShortType | IntegerType | LongType | NullType =>
    case _ => c.wrongArguments("integer arguments")
  }
}
