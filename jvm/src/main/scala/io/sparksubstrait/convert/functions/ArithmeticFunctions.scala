package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.convert.functions.FunctionCatalog.{ScalarEntry, asDouble, numericArg, numericArgs}
import io.sparksubstrait.convert.functions.Saturation.{Integral, saturated, wide}
import io.sparksubstrait.runtime.CorrectlyRounded

/**
 * The scalar functions of functions_arithmetic (and their decimal forms): the basic
 * operations, divide and modulus ([[Division]]), and the floating-point functions. A
 * floating-point result rounds as the plan's `rounding` option says: the JVM's own arithmetic
 * for TIE_TO_EVEN (IEEE's default, correctly rounded for + - * / and sqrt), and
 * [[CorrectlyRounded]] for the other modes and for the functions whose JVM forms are only
 * within an ulp (exp, sin, …) when the plan names any mode.
 */
private[functions] object ArithmeticFunctions {
  private val Arithmetic = Set("functions_arithmetic", "functions_arithmetic_decimal")
  private val FloatingArithmetic = Set("functions_arithmetic")

  val entries: Seq[ScalarEntry] = Seq(
    basic("add", SparkShim.add),
    basic("subtract", SparkShim.subtract),
    basic("multiply", SparkShim.multiply),
    ScalarEntry("divide", Arithmetic, Division.divide),
    ScalarEntry("modulus", Arithmetic, Division.modulus),
    ScalarEntry("negate", Arithmetic,
      c =>
        unaryNumeric(c) { (x, mode) =>
          x.dataType match {
            case t if Integral(t) && mode == Saturate => saturated(t, UnaryMinus(wide(x), true))
            // Spark's decimal negation rounds 38-digit values to 34 digits (and 0 - x loses a
            // place at 38 digits): exactly, in x's type (a negated decimal always fits).
            case d: DecimalType => MathFunctions.exact(d, "negateDecimal", x)
            case _ => UnaryMinus(x, mode == EvalMode.ANSI)
          }
        }),
    ScalarEntry("abs", Arithmetic,
      c =>
        unaryNumeric(c) { (x, mode) =>
          if (Integral(x.dataType) && mode == Saturate) saturated(x.dataType, Abs(wide(x), true))
          // Spark's decimal abs negates as negate does (34 digits): exactly, in x's type.
          else x.dataType match {
            case d: DecimalType => MathFunctions.exact(d, "absDecimal", x)
            case _ => Abs(x, mode == EvalMode.ANSI)
          }
        }),
    ScalarEntry("sign", FloatingArithmetic,
      c => { c.expectArity(1); numericArg(c); sameTypeAs(c.arg(0), Signum(asDouble(c.arg(0)))) }),
    ScalarEntry("sqrt", Arithmetic,
      c => {
        c.expectArity(1)
        c.arg(0).dataType match {
          // functions_arithmetic_decimal's sqrt has no domain option: a negative is an error.
          case _: DecimalType =>
            c.acceptIeeeRounding()
            val d = Cast(c.arg(0), DoubleType)
            If(LessThan(d, Literal(0.0)), FunctionErrors.domain(c, "the square root of a negative number", DoubleType),
              Sqrt(d))
          case _ => floatingFunction(c, "sqrt", Sqrt)
        }
      }),
    floating("exp", Exp),
    floating("sin", Sin), floating("cos", Cos), floating("tan", Tan),
    floating("sinh", Sinh), floating("cosh", Cosh), floating("tanh", Tanh),
    floating("asin", Asin), floating("acos", Acos), floating("atan", Atan),
    floating("asinh", Asinh), floating("acosh", Acosh), floating("atanh", Atanh),
    floating("radians", ToRadians), floating("degrees", ToDegrees),
    ScalarEntry("atan2", FloatingArithmetic, atan2)
  )

  private type Binary = (Expression, Expression, EvalMode.Value, SQLConf) => Expression

  /** add / subtract / multiply: numbers (functions_arithmetic*), or a date-time and an interval (functions_datetime). */
  private def basic(name: String, f: Binary): ScalarEntry = ScalarEntry(name, Arithmetic + "functions_datetime",
    c => {
      if (c.args.size != 3 || name == "multiply") c.expectArity(2)
      (c.arg(0).dataType, c.args.lift(1).map(_.dataType).orNull) match {
        case _ if c.args.size == 3 => DatetimeArithmetic.shift(c, negate = name == "subtract")
        case (DateType | TimestampType | TimestampNTZType, _: YearMonthIntervalType | _: DayTimeIntervalType)
            if name != "multiply" =>
          DatetimeArithmetic.shift(c, negate = name == "subtract")
        case (n, _: YearMonthIntervalType | _: DayTimeIntervalType) if name == "multiply" && Integral(n) =>
          DatetimeArithmetic.scale(c)
        case _ =>
          val Seq(l, r) = numericArgs(c)
          l.dataType match {
            // Integer results are exact: every rounding mode gives them.
            case t if Integral(t) =>
              c.rounding
              if (c.saturates) saturated(t, f(wide(l), wide(r), EvalMode.ANSI, c.ctx.conf))
              else f(l, r, c.overflowMode, c.ctx.conf)
            case t @ (DoubleType | FloatType) => c.rounding match {
                case Some(mode) if mode != CorrectlyRounded.TieToEven =>
                  c.overflowMode
                  StaticInvoke(classOf[CorrectlyRounded], t, if (t == FloatType) name + "Float" else name,
                    Seq(l, r, Literal(mode)))
                case _ => f(l, r, c.overflowMode, c.ctx.conf)
              }
            // functions_arithmetic_decimal declares no rounding option: Spark rounds half up.
            case _: DecimalType if c.saturates =>
              val sign = if (name == "multiply") Saturation.productSign(l, r)
              else f(Cast(l, DoubleType), Cast(r, DoubleType), EvalMode.LEGACY, c.ctx.conf)
              Saturation.decimal(l, r, f(l, r, EvalMode.LEGACY, c.ctx.conf), sign, c.declaredType)
            case _: DecimalType =>
              val (narrowL, narrowR) = WidenedDecimals(name, l, r, c.declaredType)
              f(narrowL, narrowR, c.overflowMode, c.ctx.conf)
            case _ => f(l, r, c.overflowMode, c.ctx.conf)
          }
      }
    })

  /** Marks a saturating call for the unary builders (never reaches Catalyst). */
  private val Saturate: EvalMode.Value = EvalMode.TRY

  private def unaryNumeric(c: FunctionCall)(f: (Expression, EvalMode.Value) => Expression): Expression = {
    c.expectArity(1)
    numericArg(c)
    f(c.arg(0), if (Integral(c.arg(0).dataType) && c.saturates) Saturate else c.overflowMode)
  }

  /** Functions Spark computes in double; the result keeps the argument's float width. */
  private def floating(name: String, f: Expression => Expression): ScalarEntry =
    ScalarEntry(name, FloatingArithmetic, c => floatingFunction(c, name, f))

  /**
   * A function of one floating-point argument: the JVM's (within an ulp) when the plan names
   * no rounding mode, correctly rounded in the mode it names; a NaN from a number that is not
   * NaN (asin(2), acosh(0.5), sqrt(-1)) is a domain error, as on_domain_error says.
   */
  private def floatingFunction(c: FunctionCall, name: String, f: Expression => Expression): Expression = {
    c.expectArity(1)
    val onDomain =
      c.option("on_domain_error", Map("NAN" -> "nan", "NULL" -> "null", "ERROR" -> "error")).getOrElse("nan")
    val x = c.arg(0)
    if (!NumericCoercion.isNumeric(x.dataType) && x.dataType != NullType) c.wrongArguments("a numeric argument")
    val resultType = if (x.dataType == FloatType) FloatType else DoubleType
    val (argument, result) = c.rounding match {
      case None => val d = asDouble(x); (d, resultFloat(x.dataType, f(d)))
      case Some(mode) => correctlyRounded(name, x, mode)
    }
    val outsideDomain = And(IsNaN(result), Not(IsNaN(argument)))
    onDomain match {
      case "nan" => result
      case "null" => If(outsideDomain, Literal(null, resultType), result)
      case _ => If(outsideDomain, FunctionErrors.domain(c, "the argument is outside the domain", resultType), result)
    }
  }

  /** (the argument as the runtime takes it, the correctly rounded result) of a named function. */
  private[functions] def correctlyRounded(name: String, x: Expression, mode: Int): (Expression, Expression) = {
    val code = Literal(CorrectlyRounded.functions(name))
    x.dataType match {
      case FloatType =>
        (x, StaticInvoke(classOf[CorrectlyRounded], FloatType, "apply1Float", Seq(code, x, Literal(mode))))
      case LongType => (Cast(x, DoubleType),
          StaticInvoke(classOf[CorrectlyRounded], DoubleType, "apply1Long", Seq(code, x, Literal(mode))))
      case _: DecimalType =>
        (Cast(x, DoubleType),
          StaticInvoke(classOf[CorrectlyRounded], DoubleType, "apply1Decimal", Seq(code, x, Literal(mode))))
      case _ =>
        val d = asDouble(x)
        (d, StaticInvoke(classOf[CorrectlyRounded], DoubleType, "apply1", Seq(code, d, Literal(mode))))
    }
  }

  private def atan2(c: FunctionCall): Expression = {
    c.expectArity(2)
    // atan2 has a value for every pair of numbers (IEEE 754 §9.2.1): no domain error arises.
    c.option("on_domain_error", Map("NAN" -> (), "ERROR" -> ()))
    c.option("overflow", Map("SILENT" -> ()))
    val Seq(l, r) = numericArgs(c)
    if (Integral(l.dataType) || l.dataType.isInstanceOf[DecimalType]) {
      // Spark computes these in double; an integral or decimal result would be rounded.
      c.wrongArguments("fp32 or fp64 arguments")
    }
    c.rounding match {
      // java.lang.Math.atan2 itself: Spark's atan2 adds 0.0 to its arguments, which makes -0.0
      // +0.0 and loses the half-plane IEEE 754 gives atan2(±0, -0) and atan2(-0, x).
      case None => resultFloat(l.dataType,
          StaticInvoke(classOf[java.lang.Math], DoubleType, "atan2", Seq(asDouble(l), asDouble(r))))
      case Some(mode) =>
        val code = Literal(CorrectlyRounded.functions("atan2"))
        if (l.dataType == FloatType)
          StaticInvoke(classOf[CorrectlyRounded], FloatType, "apply2Float", Seq(code, l, r, Literal(mode)))
        else StaticInvoke(classOf[CorrectlyRounded], DoubleType, "apply2",
          Seq(code, asDouble(l), asDouble(r), Literal(mode)))
    }
  }

  private def resultFloat(argType: DataType, e: Expression): Expression =
    if (argType == FloatType) Cast(e, FloatType) else e
  private def sameTypeAs(arg: Expression, e: Expression): Expression =
    if (e.dataType == arg.dataType) e else Cast(e, arg.dataType)
}
