package io.sparksubstrait.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, AggregateFunction, ApproximatePercentile, First, Max, Mode, Percentile}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.functions.FunctionCatalog.AggregateEntry

/**
 * any_value (functions_aggregate_generic), mode and median (functions_arithmetic): statistics
 * Spark has as aggregates. Each ignores NULLs and gives NULL for a group without values.
 */
private[functions] object StatisticsFunctions {
  private val Generic = Set("functions_aggregate_generic")
  private val Arithmetic = Set("functions_arithmetic")

  val entries: Seq[AggregateEntry] = Seq(
    // Any value is right; First is Spark's any_value. ignore_nulls FALSE (the default) may return NULL.
    AggregateEntry("any_value", Generic, c => {
      c.expectArity(1)
      First(c.arg(0), c.option("ignore_nulls", Map("TRUE" -> true, "FALSE" -> false)).getOrElse(false))
    }),
    AggregateEntry("mode", Arithmetic, c => { c.expectArity(1); numeric(c); Mode(c.arg(0)) }, finish = signedZeroMode),
    AggregateEntry("median", Arithmetic, c => {
      c.expectArity(1)
      val exact = c.enumArg(0, "precision", Map("EXACT" -> true, "APPROXIMATE" -> false))
      numeric(c)
      if (c.arg(0).dataType == LongType || c.arg(0).dataType.isInstanceOf[DecimalType]) {
        throw SubstraitErrors.unsupported(c.at, s"median of ${c.arg(0).dataType.simpleString}",
          "median of i8, i16, i32, fp32 or fp64: Spark computes the median in double, which would round larger values")
      }
      rounding(c)
      // The approximate median is one of the values, so it needs no rounding.
      if (exact) new Percentile(c.arg(0), Literal(0.5)) else new ApproximatePercentile(c.arg(0), Literal(0.5))
    }, finish = (c, median) => {
      val t = c.arg(0).dataType
      if (median.dataType == t) median
      else if (t == FloatType || t == DoubleType) Cast(median, t)
      // An integer median ends in .5 at most: the rounding option decides.
      else Cast(rounding(c)(median), t)
    })
  )

  /**
   * Spark's Mode counts -0.0 and 0.0 as one value (they are equal) but answers 0.0 for both. A
   * zero mode is -0.0 when the group holds no +0.0 (a value of the group, as a mode must be):
   * a second aggregate over the same rows tells, +0.0 being the zero whose reciprocal is +inf.
   */
  private def signedZeroMode(c: FunctionCall, mode: Expression): Expression = (c.arg(0).dataType, mode) match {
    case (t @ (FloatType | DoubleType), ae: AggregateExpression) =>
      val x = Cast(c.arg(0), DoubleType)
      val positiveZero = ae.copy(aggregateFunction = Max(And(EqualTo(x, Literal(0.0)), GreaterThan(Pow(x, Literal(-1.0)), Literal(0.0)))),
        resultId = NamedExpression.newExprId)
      // Signs by arithmetic on the mode, not two zero literals: Spark's Literal equality has 0.0 == -0.0,
      // and the optimizer would fold If(p, 0.0, -0.0) into 0.0.
      val zero = Abs(mode)
      If(EqualTo(mode, Cast(Literal(0.0), t)), If(positiveZero, zero, UnaryMinus(zero)), mode)
    case _ => mode
  }

  private def numeric(c: FunctionCall): Unit =
    if (!c.arg(0).dataType.isInstanceOf[NumericType] && c.arg(0).dataType != NullType) c.wrongArguments("a numeric argument")

  /** How an integer median midway between two values rounds (TIE_TO_EVEN when the plan leaves it open). */
  private def rounding(c: FunctionCall): Expression => Expression = {
    if (c.arg(0).dataType == FloatType || c.arg(0).dataType == DoubleType) {
      c.acceptIeeeRounding()
      identity
    } else {
      c.option("rounding", Map[String, Expression => Expression](
        "TIE_TO_EVEN" -> (BRound(_, Literal(0))),
        "TIE_AWAY_FROM_ZERO" -> (Round(_, Literal(0))),
        "TRUNCATE" -> (e => e),
        "CEILING" -> SparkShim.ceil,
        "FLOOR" -> SparkShim.floor
      )).getOrElse((e: Expression) => BRound(e, Literal(0)))
    }
  }
}
