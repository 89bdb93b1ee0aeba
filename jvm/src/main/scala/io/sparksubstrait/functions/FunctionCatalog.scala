package io.sparksubstrait.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

/**
 * The one declarative table of function mappings: Substrait (extension, name) to Catalyst.
 * To add a function, add one line here (or to the part of the table in AggregateFunctions,
 * WindowFunctions, StringFunctions, …) and a row test (docs/adding-functions.md).
 *
 * Each builder receives the converted arguments and returns the Catalyst expression with
 * the function's Substrait semantics, including NULL handling; it reads every option it
 * supports through [[FunctionCall.option]], and any option left unread is an error.
 */
object FunctionCatalog {
  final case class ScalarEntry(name: String, extensions: Set[String], build: FunctionCall => Expression)
  /**
   * An aggregate function. `finish`: what becomes of its result (a range check, a cast), for
   * the few mappings whose result Spark's aggregate does not give directly.
   */
  final case class AggregateEntry(name: String, extensions: Set[String], build: FunctionCall => AggregateFunction,
      finish: (FunctionCall, Expression) => Expression = (_, e) => e)
  /**
   * A window function. `framed`: its result depends on the window frame (first_value…);
   * ranking and offset functions define their own frame, so the plan's bounds do not apply.
   */
  final case class WindowEntry(name: String, extensions: Set[String], framed: Boolean, build: FunctionCall => Expression)

  private val Integral: Set[DataType] = Set(ByteType, ShortType, IntegerType, LongType)
  // Each entry claims exactly the extensions whose YAML defines the function
  // (FunctionTestCorpusSuite checks them against the pinned spec's YAMLs).
  private val Arithmetic = Set("functions_arithmetic", "functions_arithmetic_decimal")
  private val FloatingArithmetic = Set("functions_arithmetic")
  private val Comparison = Set("functions_comparison")
  private val Ordering = Comparison + "functions_datetime"
  private val Boolean = Set("functions_boolean")

  // ---- scalar table -------------------------------------------------------------------
  private val scalarEntries: Seq[ScalarEntry] = Seq(
    arithmetic("add", SparkShim.add),
    arithmetic("subtract", SparkShim.subtract),
    arithmetic("multiply", SparkShim.multiply),
    ScalarEntry("divide", Arithmetic, divide),
    ScalarEntry("modulus", Arithmetic, modulus),
    ScalarEntry("negate", Arithmetic, c => unaryNumeric(c) { (x, mode) =>
      x.dataType match {
        case t if Integral(t) && mode == Saturate => saturated(t, UnaryMinus(wide(x), true))
        // Spark's decimal negation rounds 38-digit values to 34 digits: 0 - x is exact.
        case d: DecimalType => Cast(SparkShim.subtract(Literal(Decimal(0), DecimalType(1, 0)), x, mode, c.ctx.conf), d, None, mode)
        case _ => UnaryMinus(x, mode == EvalMode.ANSI)
      }
    }),
    ScalarEntry("abs", Arithmetic, c => unaryNumeric(c) { (x, mode) =>
      if (Integral(x.dataType) && mode == Saturate) saturated(x.dataType, Abs(wide(x), true)) else Abs(x, mode == EvalMode.ANSI)
    }),
    ScalarEntry("sign", FloatingArithmetic, c => { c.expectArity(1); numericArg(c); sameTypeAs(c.arg(0), Signum(asDouble(c.arg(0)))) }),
    ScalarEntry("sqrt", Arithmetic, c => {
      c.expectArity(1)
      c.arg(0).dataType match {
        // functions_arithmetic_decimal's sqrt has no domain option: a negative is an error.
        case _: DecimalType =>
          c.acceptIeeeRounding()
          val x = c.arg(0)
          val d = Cast(x, DoubleType)
          If(LessThan(d, Literal(0.0)), FunctionErrors.domain(c, "the square root of a negative number", DoubleType), Sqrt(d))
        case _ => floatingFunction(c, Sqrt)
      }
    }),
    floating("exp", Exp),
    floating("sin", Sin), floating("cos", Cos), floating("tan", Tan),
    floating("sinh", Sinh), floating("cosh", Cosh), floating("tanh", Tanh),
    floating("asin", Asin), floating("acos", Acos), floating("atan", Atan),
    floating("asinh", Asinh), floating("acosh", Acosh), floating("atanh", Atanh),
    floating("radians", ToRadians), floating("degrees", ToDegrees),
    ScalarEntry("atan2", FloatingArithmetic, c => floatingBinary(c)(Atan2(_, _))),

    comparison("equal")(EqualTo(_, _)),
    comparison("not_equal")((l, r) => Not(EqualTo(l, r))),
    comparison("lt")(LessThan(_, _)),
    comparison("gt")(GreaterThan(_, _)),
    comparison("lte")(LessThanOrEqual(_, _)),
    comparison("gte")(GreaterThanOrEqual(_, _)),
    comparison("is_not_distinct_from")(EqualNullSafe(_, _)),
    comparison("is_distinct_from")((l, r) => Not(EqualNullSafe(l, r))),
    ScalarEntry("between", Comparison, c => {
      c.expectArity(3)
      val Seq(x, lo, hi) = unifyOrFail(c, c.args)
      And(GreaterThanOrEqual(x, lo), LessThanOrEqual(x, hi))
    }),
    predicate("is_null")(IsNull(_)),
    predicate("is_not_null")(IsNotNull(_)),
    predicate("is_true")(x => EqualNullSafe(x, Literal.TrueLiteral)),
    predicate("is_not_true")(x => Not(EqualNullSafe(x, Literal.TrueLiteral))),
    predicate("is_false")(x => EqualNullSafe(x, Literal.FalseLiteral)),
    predicate("is_not_false")(x => Not(EqualNullSafe(x, Literal.FalseLiteral))),
    // Spark's isnan(NULL) is false; Substrait's is NULL.
    predicate("is_nan")(x => nullIfNull(x, IsNaN(x))),
    predicate("is_infinite")(x => infinite(x)),
    predicate("is_finite")(x => Not(Or(nullIfNull(x, IsNaN(x)), infinite(x)))),
    ScalarEntry("nullif", Comparison, c => {
      c.expectArity(2)
      val Seq(l, r) = unifyOrFail(c, c.args)
      If(EqualTo(l, r), Literal(null, l.dataType), l)
    }),
    ScalarEntry("coalesce", Comparison, c => { c.expectAtLeast(1); Coalesce(unifyOrFail(c, c.args)) }),
    // Spark's least/greatest skip NULLs; Substrait's plain forms return NULL if any is NULL.
    ScalarEntry("least", Comparison, c => { c.expectAtLeast(1); val a = unifyOrFail(c, c.args); nullIfAnyNull(a, Least(a)) }),
    ScalarEntry("greatest", Comparison, c => { c.expectAtLeast(1); val a = unifyOrFail(c, c.args); nullIfAnyNull(a, Greatest(a)) }),
    ScalarEntry("least_skip_null", Comparison, c => { c.expectAtLeast(1); Least(unifyOrFail(c, c.args)) }),
    ScalarEntry("greatest_skip_null", Comparison, c => { c.expectAtLeast(1); Greatest(unifyOrFail(c, c.args)) }),

    // Kleene logic, as Spark's And/Or; variadic, with the empty forms of the spec.
    ScalarEntry("and", Boolean, c => booleanArgs(c).reduceOption(And(_, _)).getOrElse(Literal.TrueLiteral)),
    ScalarEntry("or", Boolean, c => booleanArgs(c).reduceOption(Or(_, _)).getOrElse(Literal.FalseLiteral)),
    ScalarEntry("not", Boolean, c => { c.expectArity(1); Not(booleanArgs(c).head) }),
    ScalarEntry("xor", Boolean, c => { c.expectArity(2); val Seq(a, b) = booleanArgs(c); And(Or(a, b), Not(And(a, b))) }),
    ScalarEntry("and_not", Boolean, c => { c.expectArity(2); val Seq(a, b) = booleanArgs(c); And(a, Not(b)) })
  )

  private val aggregateEntries = AggregateFunctions.entries
  private val windowEntries = WindowFunctions.entries
  private val allScalarEntries = scalarEntries ++ StringFunctions.entries ++ MathFunctions.entries ++
    DatetimeFunctions.entries ++ DatetimeFormatting.entries ++ ListFunctions.entries ++ UnsignedFunctions.scalarEntries
  private val scalarByName = allScalarEntries.groupBy(_.name)
  private val windowByName = windowEntries.groupBy(_.name)
  private val allAggregateEntries = aggregateEntries ++ UnsignedFunctions.aggregateEntries ++ StatisticsFunctions.entries ++
    StringFunctions.aggregateEntries
  private val aggregateByName = allAggregateEntries.groupBy(_.name)

  /** The entry for a declared function, by extension and base name (aliases applied). */
  def scalar(fn: DeclaredFunction): Option[ScalarEntry] = lookup(scalarByName, fn)(_.extensions)
  def aggregate(fn: DeclaredFunction): Option[AggregateEntry] = lookup(aggregateByName, fn)(_.extensions)
  def window(fn: DeclaredFunction): Option[WindowEntry] = lookup(windowByName, fn)(_.extensions)

  def scalarNames: Seq[(String, Set[String])] = allScalarEntries.map(e => e.name -> e.extensions)
  def aggregateNames: Seq[(String, Set[String])] = allAggregateEntries.map(e => e.name -> e.extensions)
  def windowNames: Seq[(String, Set[String])] = windowEntries.map(e => e.name -> e.extensions)

  private def lookup[E](table: Map[String, Seq[E]], fn: DeclaredFunction)(exts: E => Set[String]): Option[E] = {
    val name = FunctionAliases.canonicalName(fn.baseName)
    val candidates = table.getOrElse(name, Nil)
    fn.extension match {
      // A plan that names no standard extension (DataFusion, DuckDB's folder URI) is
      // resolved by name over the standard extensions.
      case None => candidates.headOption
      case Some(ext) => candidates.find(e => exts(e).contains(ext))
    }
  }

  // ---- builders -----------------------------------------------------------------------
  private type Binary = (Expression, Expression, EvalMode.Value, org.apache.spark.sql.internal.SQLConf) => Expression

  /** add / subtract / multiply: numbers (functions_arithmetic*), or a date-time and an interval (functions_datetime). */
  private def arithmetic(name: String, f: Binary): ScalarEntry = ScalarEntry(name, Arithmetic + "functions_datetime", c => {
    if (c.args.size != 3 || name == "multiply") c.expectArity(2)
    (c.arg(0).dataType, c.args.lift(1).map(_.dataType).orNull) match {
      case _ if c.args.size == 3 => DatetimeArithmetic.shift(c, negate = name == "subtract")
      case (DateType | TimestampType | TimestampNTZType, _: YearMonthIntervalType | _: DayTimeIntervalType) if name != "multiply" => DatetimeArithmetic.shift(c, negate = name == "subtract")
      case (n, _: YearMonthIntervalType | _: DayTimeIntervalType) if name == "multiply" && Integral(n) => DatetimeArithmetic.scale(c)
      case _ =>
        c.acceptIeeeRounding()
        val Seq(l, r) = numericArgs(c)
        if (Integral(l.dataType) && c.saturates) saturated(l.dataType, f(wide(l), wide(r), EvalMode.ANSI, c.ctx.conf))
        else f(l, r, c.overflowMode, c.ctx.conf)
    }
  })

  /**
   * Saturating integer arithmetic: computed exactly in DECIMAL(38,0) (wide enough for any
   * i64 sum or product), then clamped to the type's range.
   */
  private val Exact = DecimalType(38, 0)
  private def wide(e: Expression): Expression = Cast(e, Exact)
  private def saturated(t: DataType, exact: Expression): Expression = {
    val (min, max) = t match {
      case ByteType => (Byte.MinValue.toLong, Byte.MaxValue.toLong)
      case ShortType => (Short.MinValue.toLong, Short.MaxValue.toLong)
      case IntegerType => (Int.MinValue.toLong, Int.MaxValue.toLong)
      case _ => (Long.MinValue, Long.MaxValue)
    }
    def bound(v: Long) = Literal(Decimal(v), Exact)
    // least/greatest skip NULLs: a NULL result must stay NULL, not become a bound.
    val e = Cast(exact, Exact)
    Cast(If(IsNull(e), Literal(null, Exact), Least(Seq(Greatest(Seq(e, bound(min))), bound(max)))), t)
  }

  private def divide(c: FunctionCall): Expression = {
    c.expectArity(2)
    c.acceptIeeeRounding()
    val Seq(l, divisor) = numericArgs(c)
    val byZero = c.option("on_division_by_zero", Map("NULL" -> EvalMode.LEGACY, "ERROR" -> EvalMode.ANSI))
    val domain = c.option("on_domain_error", Map("NULL" -> EvalMode.LEGACY, "ERROR" -> EvalMode.ANSI))
    val saturate = Integral(l.dataType) && c.saturates
    val overflow = if (saturate) None else c.option("overflow", Map("ERROR" -> EvalMode.ANSI, "SILENT" -> EvalMode.LEGACY))
    // A NULL quotient by zero with errors otherwise (DuckDB's integer division): Spark has no
    // such mode, so a zero divisor becomes NULL first and the other options pick the mode.
    val nullByZero = byZero.contains(EvalMode.LEGACY) && Seq(domain, overflow).flatten.contains(EvalMode.ANSI)
    val r = if (nullByZero) If(EqualTo(divisor, Cast(Literal(0), divisor.dataType)), Literal(null, divisor.dataType), divisor) else divisor
    val mode = singleMode(c, Seq(if (nullByZero) None else byZero, domain, overflow).flatten)
    l.dataType match {
      // Only MIN / -1 overflows: computed exactly, then clamped.
      case t if saturate =>
        saturated(t, SparkShim.integralDivide(wide(l), wide(r), mode, c.ctx.conf))
      // Substrait integer division truncates and keeps the argument type.
      case t if Integral(t) =>
        Cast(SparkShim.integralDivide(Cast(l, LongType), Cast(r, LongType), mode, c.ctx.conf), t, None, mode)
      // Spark divides doubles only; a float quotient computed in double and rounded once is
      // the correctly rounded float quotient.
      case FloatType => Cast(SparkShim.divide(Cast(l, DoubleType), Cast(r, DoubleType), mode, c.ctx.conf), FloatType)
      case _ => SparkShim.divide(l, r, mode, c.ctx.conf)
    }
  }

  private def modulus(c: FunctionCall): Expression = {
    c.expectArity(2)
    val Seq(l, r) = numericArgs(c)
    val floor = c.option("division_type", Map("TRUNCATE" -> false, "FLOOR" -> true)).getOrElse(false)
    val domain = c.option("on_domain_error", Map("NULL" -> EvalMode.LEGACY, "ERROR" -> EvalMode.ANSI))
    val overflow = c.option("overflow", Map("ERROR" -> EvalMode.ANSI, "SILENT" -> EvalMode.LEGACY))
    val mode = singleMode(c, Seq(domain, overflow).flatten)
    val truncated = SparkShim.remainder(l, r, mode, c.ctx.conf)
    // Floor division's remainder has the divisor's sign: a non-zero remainder of the other
    // sign moves by one divisor.
    if (floor) {
      val zero = Cast(Literal(0), truncated.dataType)
      If(And(Not(EqualTo(truncated, zero)), Not(EqualTo(LessThan(truncated, zero), LessThan(r, Cast(Literal(0), r.dataType))))),
        SparkShim.add(truncated, r, mode, c.ctx.conf), truncated)
    } else truncated
  }

  private def singleMode(c: FunctionCall, modes: Seq[EvalMode.Value]): EvalMode.Value = modes.distinct match {
    case Seq() => c.ctx.defaultEvalMode
    case Seq(one) => one
    case _ => throw io.sparksubstrait.errors.SubstraitErrors.unsupportedOption(c.at, c.name,
      "on_division_by_zero/on_domain_error/overflow", Seq("a mix of NULL and ERROR"), Seq("all NULL", "all ERROR"))
  }

  /** Marks a saturating call for the unary builders (never reaches Catalyst). */
  private val Saturate: EvalMode.Value = EvalMode.TRY

  private def unaryNumeric(c: FunctionCall)(f: (Expression, EvalMode.Value) => Expression): Expression = {
    c.expectArity(1)
    numericArg(c)
    f(c.arg(0), if (Integral(c.arg(0).dataType) && c.saturates) Saturate else c.overflowMode)
  }

  /** Functions Spark computes in double; the result keeps the argument's float width. */
  private def floating(name: String, f: Expression => Expression): ScalarEntry = ScalarEntry(name, FloatingArithmetic, c => floatingFunction(c, f))

  private def floatingFunction(c: FunctionCall, f: Expression => Expression): Expression = {
    c.expectArity(1)
    c.acceptIeeeRounding()
    val onDomain = c.option("on_domain_error", Map("NAN" -> "nan", "NULL" -> "null", "ERROR" -> "error")).getOrElse("nan")
    val x = c.arg(0)
    if (!NumericCoercion.isNumeric(x.dataType) && x.dataType != NullType) {
      c.wrongArguments("a numeric argument")
    }
    val d = asDouble(x)
    val result = f(d)
    // A NaN from a number that is not NaN is a domain error (asin(2), acosh(0.5), sqrt(-1)).
    val outsideDomain = And(IsNaN(result), Not(IsNaN(d)))
    val checked = onDomain match {
      case "nan" => result
      case "null" => If(outsideDomain, Literal(null, DoubleType), result)
      case _ => If(outsideDomain, FunctionErrors.domain(c, "the argument is outside the domain", DoubleType), result)
    }
    resultFloat(x.dataType, checked)
  }

  private def floatingBinary(c: FunctionCall)(f: (Expression, Expression) => Expression): Expression = {
    c.expectArity(2)
    c.acceptIeeeRounding()
    c.option("on_domain_error", Map("NAN" -> ()))
    c.option("overflow", Map("SILENT" -> ()))
    val Seq(l, r) = numericArgs(c)
    if (Integral(l.dataType) || l.dataType.isInstanceOf[DecimalType]) {
      // Spark computes these in double; an integral or decimal result would be rounded.
      c.wrongArguments("fp32 or fp64 arguments")
    }
    resultFloat(l.dataType, f(asDouble(l), asDouble(r)))
  }

  private[functions] def asDouble(e: Expression): Expression = if (e.dataType == DoubleType) e else Cast(e, DoubleType)
  private def resultFloat(argType: DataType, e: Expression): Expression = if (argType == FloatType) Cast(e, FloatType) else e
  private def sameTypeAs(arg: Expression, e: Expression): Expression = if (e.dataType == arg.dataType) e else Cast(e, arg.dataType)

  /** lt, gt, lte and gte are functions_datetime's too (for its date-time types). */
  private def comparison(name: String)(f: (Expression, Expression) => Expression): ScalarEntry =
    ScalarEntry(name, if (Set("lt", "gt", "lte", "gte")(name)) Ordering else Comparison, c => {
      c.expectArity(2)
      val Seq(l, r) = unifyOrFail(c, c.args)
      f(l, r)
    })

  private def predicate(name: String)(f: Expression => Expression): ScalarEntry =
    ScalarEntry(name, Comparison, c => { c.expectArity(1); f(c.arg(0)) })

  private def infinite(x: Expression): Expression = x.dataType match {
    case FloatType => Or(EqualTo(x, Literal(Float.PositiveInfinity)), EqualTo(x, Literal(Float.NegativeInfinity)))
    case _ => Or(EqualTo(x, Literal(Double.PositiveInfinity)), EqualTo(x, Literal(Double.NegativeInfinity)))
  }

  private def nullIfNull(x: Expression, e: Expression): Expression = If(IsNull(x), Literal(null, BooleanType), e)
  private def nullIfAnyNull(args: Seq[Expression], e: Expression): Expression =
    If(args.map(a => IsNull(a): Expression).reduce(Or(_, _)), Literal(null, e.dataType), e)

  private[functions] def numericArgs(c: FunctionCall): Seq[Expression] = {
    if (!c.args.forall(a => NumericCoercion.isNumeric(a.dataType) || a.dataType == NullType)) c.wrongArguments("numeric arguments")
    // Spark's decimal arithmetic takes any two decimals and derives the result type from
    // both; widening them first would change the result's scale (and its rounding).
    if (c.args.forall(_.dataType.isInstanceOf[DecimalType])) c.args else unifyOrFail(c, c.args)
  }
  private[functions] def numericArg(c: FunctionCall): Unit =
    if (!NumericCoercion.isNumeric(c.arg(0).dataType) && c.arg(0).dataType != NullType) c.wrongArguments("a numeric argument")

  private[functions] def booleanArgs(c: FunctionCall): Seq[Expression] = {
    if (!c.args.forall(a => a.dataType == BooleanType || a.dataType == NullType)) c.wrongArguments("boolean arguments")
    c.args.map(a => if (a.dataType == NullType) Cast(a, BooleanType) else a)
  }

  private def unifyOrFail(c: FunctionCall, args: Seq[Expression]): Seq[Expression] =
    NumericCoercion.unify(args).getOrElse(c.wrongArguments("arguments of one type"))
}
