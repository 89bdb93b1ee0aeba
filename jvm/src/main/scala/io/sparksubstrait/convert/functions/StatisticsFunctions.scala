package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{
  AggregateExpression, ApproximatePercentile, CollectList, First, Max, Mode
}
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.FunctionCatalog.AggregateEntry
import io.sparksubstrait.runtime.{CorrectlyRounded, ExactMedian}

/**
 * any_value (functions_aggregate_generic), mode and median (functions_arithmetic): statistics
 * Spark has as aggregates. Each ignores NULLs and gives NULL for a group without values.
 */
private[functions] object StatisticsFunctions {
  private val Generic = Set("functions_aggregate_generic")
  private val Arithmetic = Set("functions_arithmetic")

  val entries: Seq[AggregateEntry] = Seq(
    // Any value is right; First is Spark's any_value. ignore_nulls FALSE (the default) may return NULL.
    AggregateEntry("any_value", Generic,
      c => {
        c.expectArity(1)
        First(c.arg(0), c.option("ignore_nulls", Map("TRUE" -> true, "FALSE" -> false)).getOrElse(false))
      }),
    AggregateEntry("mode", Arithmetic, c => { c.expectArity(1); numeric(c); Mode(c.arg(0)) }, finish = signedZeroMode),
    // EXACT: every value collected, the middle one(s) found and their mean rounded once in the
    // plan's mode (ExactMedian). APPROXIMATE: Spark's approximate percentile, which answers with
    // one of the values (no rounding); except of i64, which it computes in double (rounding
    // values beyond 2^53): those take the exact path, a valid approximation.
    AggregateEntry("median", Arithmetic,
      c => {
        c.expectArity(1)
        val exact = c.enumArg(0, "precision", Map("EXACT" -> true, "APPROXIMATE" -> false))
        numeric(c)
        val t = c.arg(0).dataType
        t match {
          // A decimal's median (the YAML has none) is the mean of the middle values brought back to
          // the argument's type, exact at every precision, where the plan names how a half unit
          // rounds (DuckDB's and DataFusion's readings: TRUNCATE, as their engines do); no YAML
          // names a default.
          case _: DecimalType =>
            if (c.rounding.isEmpty) {
              throw SubstraitErrors.unsupported(c.at, s"median of ${t.simpleString} without a rounding option",
                "median of i8, i16, i32, i64, fp32 or fp64 (the YAML's types), or of a decimal with its rounding option")
            }
          case _ =>
        }
        c.rounding // read: the approximate median is one of the values, which no mode changes
        if (t.isInstanceOf[DecimalType] && t.asInstanceOf[DecimalType].precision > 18) CollectList(c.arg(0))
        else if (t.isInstanceOf[DecimalType]) CollectList(UnscaledValue(c.arg(0)))
        else if (exact || t == LongType)
          CollectList(if (isFloating(t)) Cast(c.arg(0), DoubleType) else Cast(c.arg(0), LongType))
        else new ApproximatePercentile(c.arg(0), Literal(0.5))
      },
      finish = (c, median) =>
        median.dataType match {
          case ArrayType(DoubleType, _) =>
            val single = c.arg(0).dataType == FloatType
            val value = StaticInvoke(classOf[ExactMedian], DoubleType, "ofDoubles",
              Seq(median, Literal(mode(c)), Literal(single)))
            if (single) Cast(value, FloatType) else value
          // Beyond 18 digits the values themselves (no unscaled i64 holds them).
          case ArrayType(d: DecimalType, _) =>
            StaticInvoke(classOf[ExactMedian], d, "ofDecimals",
              Seq(median, Literal(mode(c)), Literal(d.precision), Literal(d.scale)))
          case ArrayType(_, _) if c.arg(0).dataType.isInstanceOf[DecimalType] =>
            val d = c.arg(0).dataType.asInstanceOf[DecimalType]
            // The mean of two values of DECIMAL(p, s) is within DECIMAL(p, s): never NULL on overflow.
            MakeDecimal(StaticInvoke(classOf[ExactMedian], LongType, "ofLongs", Seq(median, Literal(mode(c)))),
              d.precision, d.scale, true)
          case ArrayType(_, _) =>
            val value = StaticInvoke(classOf[ExactMedian], LongType, "ofLongs", Seq(median, Literal(mode(c))))
            Cast(value, c.arg(0).dataType match { case NullType => LongType; case t => t })
          case _ => median
        })
  )

  private def isFloating(t: DataType): Boolean = t == FloatType || t == DoubleType

  /** The plan's rounding mode (its first choice, read in the builder), nearest-even when it names none. */
  private def mode(c: FunctionCall): Int = c.rounding.getOrElse(CorrectlyRounded.TieToEven)

  /**
   * Spark's Mode counts -0.0 and 0.0 as one value (they are equal) but answers 0.0 for both. A
   * zero mode is -0.0 when the group holds no +0.0 (a value of the group, as a mode must be):
   * a second aggregate over the same rows tells, +0.0 being the zero whose reciprocal is +inf.
   */
  private def signedZeroMode(c: FunctionCall, mode: Expression): Expression = (c.arg(0).dataType, mode) match {
    case (t @ (FloatType | DoubleType), ae: AggregateExpression) =>
      val x = Cast(c.arg(0), DoubleType)
      val positiveZero = ae.copy(aggregateFunction = Max(And(EqualTo(x, Literal(0.0)),
            GreaterThan(Pow(x, Literal(-1.0)), Literal(0.0)))),
        resultId = NamedExpression.newExprId)
      // Signs by arithmetic on the mode, not two zero literals: Spark's Literal equality has 0.0 == -0.0,
      // and the optimizer would fold If(p, 0.0, -0.0) into 0.0.
      val zero = Abs(mode)
      If(EqualTo(mode, Cast(Literal(0.0), t)), If(positiveZero, zero, UnaryMinus(zero)), mode)
    case _ => mode
  }

  private def numeric(c: FunctionCall): Unit =
    if (!c.arg(0).dataType.isInstanceOf[NumericType] && c.arg(0).dataType != NullType)
      c.wrongArguments("a numeric argument")
}
