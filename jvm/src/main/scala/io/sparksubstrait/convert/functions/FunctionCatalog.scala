package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction
import org.apache.spark.sql.types._

import io.sparksubstrait.foundation.ExtensionUrns

/**
 * The one declarative table of function mappings: Substrait (extension, name) to Catalyst.
 * To add a function, add one line here (or to the part of the table in AggregateFunctions,
 * WindowFunctions, StringFunctions, …) and a row test (docs/adding-functions.md).
 *
 * Each builder receives the converted arguments and returns the Catalyst expression with
 * the function's Substrait semantics, including NULL handling; it reads every option it
 * supports through [[FunctionCall.option]], and any option left unread is an error.
 */
private[sparksubstrait] object FunctionCatalog {
  final case class ScalarEntry(name: String, extensions: Set[String], build: FunctionCall => Expression)

  /**
   * An aggregate function. `finish`: what becomes of its result (a range check, a cast), for
   * the few mappings whose result Spark's aggregate does not give directly.
   */
  /**
   * An aggregate function. `ignoresOrder`: whether its result for these arguments is the same
   * whatever order its values come in ([[OrderInsensitive]]), so that the plan's sort fields
   * on it (DataFusion writes `count(name ORDER BY name)`) change nothing and are read as such.
   */
  final case class AggregateEntry(name: String, extensions: Set[String], build: FunctionCall => AggregateFunction,
    finish: (FunctionCall, Expression) => Expression = (_, e) => e,
    ignoresOrder: FunctionCall => Boolean = OrderInsensitive.Never)

  /**
   * A window function. `framed`: its result depends on the window frame (first_value…);
   * ranking and offset functions define their own frame, so the plan's bounds do not apply.
   */
  final case class WindowEntry(name: String, extensions: Set[String], framed: Boolean,
    build: FunctionCall => Expression)

  // Each entry claims exactly the extensions whose YAML defines the function
  // (FunctionTestCorpusSuite checks them against the pinned spec's YAMLs).
  private val Comparison = Set("functions_comparison")
  private val Ordering = Comparison + "functions_datetime"
  private val Boolean = Set("functions_boolean")

  // ---- scalar table -------------------------------------------------------------------
  private val scalarEntries: Seq[ScalarEntry] = Seq(
    comparison("equal")(EqualTo(_, _)),
    comparison("not_equal")((l, r) => Not(EqualTo(l, r))),
    comparison("lt")(LessThan(_, _)),
    comparison("gt")(GreaterThan(_, _)),
    comparison("lte")(LessThanOrEqual(_, _)),
    comparison("gte")(GreaterThanOrEqual(_, _)),
    comparison("is_not_distinct_from")(EqualNullSafe(_, _)),
    comparison("is_distinct_from")((l, r) => Not(EqualNullSafe(l, r))),
    ScalarEntry("between", Comparison,
      c => {
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
    ScalarEntry("nullif", Comparison,
      c => {
        c.expectArity(2)
        val Seq(l, r) = unifyOrFail(c, c.args)
        If(EqualTo(l, r), Literal(null, l.dataType), l)
      }),
    ScalarEntry("coalesce", Comparison, c => { c.expectAtLeast(1); Coalesce(unifyOrFail(c, c.args)) }),
    // Spark's least/greatest skip NULLs; Substrait's plain forms return NULL if any is NULL.
    ScalarEntry("least", Comparison,
      c => { c.expectAtLeast(1); val a = unifyOrFail(c, c.args); nullIfAnyNull(a, Least(a)) }),
    ScalarEntry("greatest", Comparison,
      c => { c.expectAtLeast(1); val a = unifyOrFail(c, c.args); nullIfAnyNull(a, Greatest(a)) }),
    ScalarEntry("least_skip_null", Comparison, c => { c.expectAtLeast(1); Least(unifyOrFail(c, c.args)) }),
    ScalarEntry("greatest_skip_null", Comparison, c => { c.expectAtLeast(1); Greatest(unifyOrFail(c, c.args)) }),

    // Kleene logic, as Spark's And/Or; variadic, with the empty forms of the spec.
    // Balanced: a variadic and/or of thousands of arguments stays shallow (Kleene logic is associative).
    ScalarEntry("and", Boolean, c => variadic(booleanArgs(c), Literal.TrueLiteral)(And(_, _))),
    ScalarEntry("or", Boolean, c => variadic(booleanArgs(c), Literal.FalseLiteral)(Or(_, _))),
    ScalarEntry("not", Boolean, c => { c.expectArity(1); Not(booleanArgs(c).head) }),
    ScalarEntry("xor", Boolean,
      c => { c.expectArity(2); val Seq(a, b) = booleanArgs(c); And(Or(a, b), Not(And(a, b))) }),
    ScalarEntry("and_not", Boolean, c => { c.expectArity(2); val Seq(a, b) = booleanArgs(c); And(a, Not(b)) })
  )

  private val aggregateEntries = AggregateFunctions.entries
  private val windowEntries = WindowFunctions.entries
  private val allScalarEntries = ArithmeticFunctions.entries ++ scalarEntries ++ StringFunctions.entries ++
    MathFunctions.entries ++
    DatetimeFunctions.entries ++ DatetimeFormatting.entries ++ ListFunctions.entries ++
    UnsignedFunctions.scalarEntries ++
    SparkDialectFunctions.entries
  private val scalarByName = allScalarEntries.groupBy(_.name)
  private val windowByName = windowEntries.groupBy(_.name)
  private val allAggregateEntries = aggregateEntries ++ UnsignedFunctions.aggregateEntries ++
    StatisticsFunctions.entries ++
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
      // resolved by name over the standard extensions: never to a dialect's function of the
      // same name (substrait-java's Spark `add` is date + days, not the standard add).
      case None => candidates.find(e => !exts(e).contains(ExtensionUrns.SparkDialect))
      case Some(ext) => candidates.find(e => exts(e).contains(ext))
    }
  }

  // ---- builders -----------------------------------------------------------------------
  private[functions] def asDouble(e: Expression): Expression = if (e.dataType == DoubleType) e else Cast(e, DoubleType)

  /** lt, gt, lte and gte are functions_datetime's too (for its date-time types). */
  private def comparison(name: String)(f: (Expression, Expression) => Expression): ScalarEntry =
    ScalarEntry(name, if (Set("lt", "gt", "lte", "gte")(name)) Ordering else Comparison,
      c => {
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

  private def variadic(args: Seq[Expression], empty: Expression)(
    f: (Expression, Expression) => Expression): Expression =
    if (args.isEmpty) empty else io.sparksubstrait.util.Balanced.reduce(args.toIndexedSeq)(f)

  private def nullIfNull(x: Expression, e: Expression): Expression = If(IsNull(x), Literal(null, BooleanType), e)
  private def nullIfAnyNull(args: Seq[Expression], e: Expression): Expression =
    If(args.map(a => IsNull(a): Expression).reduce(Or(_, _)), Literal(null, e.dataType), e)

  private[functions] def numericArgs(c: FunctionCall): Seq[Expression] = {
    if (!c.args.forall(a => NumericCoercion.isNumeric(a.dataType) || a.dataType == NullType))
      c.wrongArguments("numeric arguments")
    // Spark's decimal arithmetic takes any two decimals and derives the result type from
    // both; widening them first would change the result's scale (and its rounding).
    if (c.args.forall(_.dataType.isInstanceOf[DecimalType])) c.args else unifyOrFail(c, c.args)
  }
  private[functions] def numericArg(c: FunctionCall): Unit =
    if (!NumericCoercion.isNumeric(c.arg(0).dataType) && c.arg(0).dataType != NullType)
      c.wrongArguments("a numeric argument")

  private[functions] def booleanArgs(c: FunctionCall): Seq[Expression] = {
    if (!c.args.forall(a => a.dataType == BooleanType || a.dataType == NullType)) c.wrongArguments("boolean arguments")
    c.args.map(a => if (a.dataType == NullType) Cast(a, BooleanType) else a)
  }

  private def unifyOrFail(c: FunctionCall, args: Seq[Expression]): Seq[Expression] =
    NumericCoercion.unify(args).getOrElse(c.wrongArguments("arguments of one type"))
}
