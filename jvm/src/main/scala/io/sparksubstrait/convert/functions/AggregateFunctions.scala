package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateFunction, Count, HyperLogLogPlusPlus, Max, Min}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

import io.sparksubstrait.runtime.{
  CorrectlyRounded, DecimalSum, ExactMoments, ExactProduct, FloatSum, IntegerMoments, IntegerSum
}
import io.sparksubstrait.convert.functions.FunctionCatalog.{
  AggregateEntry, asDouble, booleanArgs, numericArg, numericArgs
}

/** The aggregate functions of the arithmetic, generic, approximate and boolean YAMLs (part of the catalog's table). */
private[functions] object AggregateFunctions {
  // Each entry claims exactly the extensions whose YAML defines the function.
  private val Arithmetic = Set("functions_arithmetic", "functions_arithmetic_decimal")
  private val FloatingArithmetic = Set("functions_arithmetic")
  private val MinMax = Arithmetic + "functions_datetime"
  private val Generic = Set("functions_aggregate_generic")
  private val BooleanAggregates = Set("functions_boolean")
  private val Approximate = Set("functions_aggregate_approx")

  /** count and approx_count_distinct again, with a DECIMAL(38, 0) result. */
  private val DecimalOutput = Set("functions_aggregate_decimal_output")

  val entries: Seq[AggregateEntry] = Seq(
    AggregateEntry("sum", Arithmetic, sum, finish = sumFinish, ignoresOrder = OrderInsensitive.OfExactNumbers),
    AggregateEntry("avg", Arithmetic,
      c => {
        c.expectArity(1)
        numericArg(c)
        c.arg(0).dataType match {
          // The mean of integers, exact: the 128-bit sum divided once. It always fits the
          // argument's type, so every overflow choice gives it.
          case t if Integral(t) =>
            integerOverflow(c)
            c.declaredType match {
              case Some(DoubleType | FloatType) => IntegerSum(c.arg(0), "mean")
              case _ => IntegerSum(c.arg(0), "truncated_mean")
            }
          case d: DecimalType =>
            // The mean of DECIMAL(P,S) values always fits DECIMAL(38,S): every overflow choice gives it.
            val mode = if (c.saturates) c.ctx.defaultEvalMode else c.overflowMode
            c.declaredType match {
              // A plan declaring a floating-point mean (DuckDB's avg of decimals) means the mean
              // computed in floating point, not a decimal mean rounded and then converted.
              case Some(DoubleType | FloatType) => SparkShim.average(Cast(c.arg(0), DoubleType), mode)
              // The mean rounded once, at the scale of the plan's type (the YAML's DECIMAL(38,S)):
              // Spark's Average rounds to S+4 before, and its DECIMAL(P+10,S) sum can overflow
              // beyond P = 28 where the mean does not (DecimalSum sums those exactly).
              case Some(declared: DecimalType) => DecimalSum(c.arg(0), "mean", declared.scale)
              // No declared type: Spark's mean, rounded once at its own scale S+4.
              case _ => SparkShim.average(c.arg(0), mode)
            }
          case _ =>
            floatOverflow(c) match {
              // Where an fp64 partial sum overflows, the mean still fits: ERROR and SATURATE get it.
              case "ERROR" | "SATURATE" => FloatSum(c.arg(0), Literal(null, DoubleType), "mean", "IEEE")
              case _ =>
                val arg = c.declaredType match {
                  case Some(t @ (DoubleType | FloatType)) if c.arg(0).dataType != t => Cast(c.arg(0), DoubleType)
                  case _ => c.arg(0)
                }
                SparkShim.average(arg, c.ctx.defaultEvalMode)
            }
        }
      },
      finish = (c, mean) =>
        c.arg(0).dataType match {
          // The YAML's integral avg "truncates partial values" and keeps the argument's type.
          case t if Integral(t) && mean.dataType == IntegerSum.Wide => Cast(mean, t)
          // The mean of fp32 values is fp32 in the YAML (Spark's is double), unless the plan declares another type.
          case FloatType if c.declaredType.forall(_ == FloatType) => Cast(mean, FloatType)
          case _ => mean
        },
      ignoresOrder = OrderInsensitive.OfExactNumbers),
    AggregateEntry("min", MinMax, c => { c.expectArity(1); Min(c.arg(0)) }, ignoresOrder = OrderInsensitive.Always),
    AggregateEntry("max", MinMax, c => { c.expectArity(1); Max(c.arg(0)) }, ignoresOrder = OrderInsensitive.Always),
    // sum0: the sum, or zero of the sum's type when there is nothing to add.
    AggregateEntry("sum0", Arithmetic, sum,
      finish = (c, total) => {
        val value = sumFinish(c, total)
        Coalesce(Seq(value, Cast(Literal(0), value.dataType)))
      },
      ignoresOrder = OrderInsensitive.OfExactNumbers),
    AggregateEntry("count", Generic, count, ignoresOrder = OrderInsensitive.Always),
    AggregateEntry("count", DecimalOutput, count, finish = (_, n) => Cast(n, DecimalType(38, 0)),
      ignoresOrder = OrderInsensitive.Always),
    // false < true: the minimum is AND over the non-NULL values, the maximum OR.
    AggregateEntry("bool_and", BooleanAggregates, c => { c.expectArity(1); Min(booleanArgs(c).head) },
      ignoresOrder = OrderInsensitive.Always),
    AggregateEntry("bool_or", BooleanAggregates, c => { c.expectArity(1); Max(booleanArgs(c).head) },
      ignoresOrder = OrderInsensitive.Always),
    AggregateEntry("variance", FloatingArithmetic, c => statistic(c)("var_samp", "var_pop")),
    AggregateEntry("std_dev", FloatingArithmetic, c => statistic(c)("stddev_samp", "stddev_pop")),
    // Exact in every rounding mode (ExactMoments): Spark's Corr rounds every update, and its
    // squares overflow beyond 1e154.
    AggregateEntry("corr", FloatingArithmetic,
      c => {
        c.expectArity(2)
        val Seq(x, y) = numericArgs(c)
        ExactMoments(Seq(asDouble(x), asDouble(y)), "corr", roundingMode(c), single = x.dataType == FloatType)
      }),
    AggregateEntry("product", FloatingArithmetic, product, finish = productFinish),
    AggregateEntry("approx_count_distinct", Approximate, approxCountDistinct, ignoresOrder = OrderInsensitive.Always),
    AggregateEntry("approx_count_distinct", DecimalOutput, approxCountDistinct,
      finish = (_, n) => Cast(n, DecimalType(38, 0)), ignoresOrder = OrderInsensitive.Always)
  )

  private val Integral: Set[DataType] = Set(ByteType, ShortType, IntegerType, LongType)

  /** ERROR, SILENT or SATURATE: what an integer sum does beyond i64 (the session's choice when open). */
  private def integerOverflow(c: FunctionCall): String =
    if (c.saturates) "SATURATE"
    else c.option("overflow", Map("ERROR" -> "ERROR", "SILENT" -> "SILENT"))
      .getOrElse(if (c.ctx.defaultEvalMode == EvalMode.ANSI) "ERROR" else "SILENT")

  /**
   * sum (and sum0): an i64 sum, or any saturating one, is exact in 128 bits until its end
   * ([[IntegerSum]]: no intermediate sum overflows, whatever the row order); narrower
   * integers sum exactly in Spark's long (below 2^32 rows per group); the others are Spark's.
   */
  private def sum(c: FunctionCall): AggregateFunction = {
    c.expectArity(1)
    numericArg(c)
    c.arg(0).dataType match {
      case t if Integral(t) =>
        val overflow = integerOverflow(c)
        if (t == LongType || overflow == "SATURATE") IntegerSum(c.arg(0), "sum")
        else SparkShim.sum(c.arg(0), if (overflow == "ERROR") EvalMode.ANSI else EvalMode.LEGACY, c.ctx.conf)
      // SATURATE, and SILENT (any value where the sum overflows): the exact sum, clamped. Spark's
      // legacy sum is NULL as soon as a partial sum leaves DECIMAL(38,S), even where the sum does not.
      case d: DecimalType
          if c.saturates || c.option("overflow", Map("ERROR" -> false, "SILENT" -> true)).contains(true) =>
        DecimalSum(c.arg(0), "saturated_sum", d.scale)
      case _: DecimalType => SparkShim.sum(c.arg(0), c.overflowMode, c.ctx.conf)
      case _ => floatOverflow(c) match {
          case "ERROR" =>
            FloatSum(c.arg(0), FunctionErrors.overflow(c, "the sum exceeds fp64", DoubleType), "sum", "ERROR")
          case "SATURATE" => FloatSum(c.arg(0), Literal(null, DoubleType), "sum", "SATURATE")
          case _ => SparkShim.sum(c.arg(0), c.ctx.defaultEvalMode, c.ctx.conf)
        }
    }
  }

  /**
   * The overflow option of a floating-point sum or mean: ERROR and SATURATE concern a sum of
   * finite values beyond fp64 ([[FloatSum]]); SILENT, or none, is IEEE 754's infinity, Spark's sum.
   */
  private def floatOverflow(c: FunctionCall): String =
    if (c.saturates) "SATURATE" else c.option("overflow", Map("ERROR" -> "ERROR", "SILENT" -> "IEEE")).getOrElse("IEEE")

  /** The exact 128-bit sum brought into i64 as the overflow option says. */
  private def sumFinish(c: FunctionCall, total: Expression): Expression = total match {
    case _ if total.dataType != IntegerSum.Wide || !Integral(c.arg(0).dataType) => total
    case _ => integerOverflow(c) match {
        case "SATURATE" => Saturation.saturated(LongType, total)
        case "SILENT" => Cast(total, LongType, None, EvalMode.LEGACY)
        case _ =>
          val (min, max) =
            (Literal(Decimal(Long.MinValue), IntegerSum.Wide), Literal(Decimal(Long.MaxValue), IntegerSum.Wide))
          If(Or(LessThan(total, min), GreaterThan(total, max)),
            FunctionErrors.overflow(c, "the sum exceeds i64", LongType),
            Cast(total, LongType))
      }
  }

  /**
   * product (1 for no values): exact ([[ExactProduct]]). Integers multiply into a DECIMAL(38,0)
   * whose magnitude is capped beyond every i64, then meet the overflow option; floating-point
   * values are rounded once, in the plan's rounding mode (Spark's product rounds every step).
   */
  private def product(c: FunctionCall): AggregateFunction = {
    c.expectArity(1)
    numericArg(c)
    c.arg(0).dataType match {
      case t if Integral(t) =>
        integerOverflow(c)
        ExactProduct(Cast(c.arg(0), LongType), floating = false, CorrectlyRounded.TieToEven, single = false,
          c.at.toString)
      case t @ (FloatType | DoubleType) =>
        ExactProduct(asDouble(c.arg(0)), floating = true, roundingMode(c), single = t == FloatType, c.at.toString)
      case _ => c.wrongArguments("an i8, i16, i32, i64, fp32 or fp64 argument")
    }
  }

  /** The exact integer product brought into the argument's type as the overflow option says. */
  private def productFinish(c: FunctionCall, total: Expression): Expression = c.arg(0).dataType match {
    case t if Integral(t) =>
      integerOverflow(c) match {
        case "SATURATE" => Saturation.saturated(t, total)
        case "SILENT" => Cast(total, t, None, EvalMode.LEGACY)
        case _ =>
          val (min, max) = Saturation.range(t)
          val bound = (v: Long) => Literal(Decimal(v), total.dataType)
          If(Or(LessThan(total, bound(min)), GreaterThan(total, bound(max))),
            FunctionErrors.overflow(c, s"the product exceeds ${t.simpleString}", t), Cast(total, t))
      }
    case _ => total
  }

  /**
   * count() with no argument is COUNT(*). A count is a long, which no number of rows can
   * overflow: every overflow choice gives the same count.
   */
  private def count(c: FunctionCall): AggregateFunction = {
    c.option("overflow", Map("ERROR" -> (), "SILENT" -> (), "SATURATE" -> ()))
    if (c.args.isEmpty) Count(Literal(1)) else { c.expectArity(1); Count(c.args) }
  }

  /** HyperLogLog++ with Spark's default relative error (5%); small inputs count exactly. */
  private def approxCountDistinct(c: FunctionCall): AggregateFunction = {
    c.expectArity(1); HyperLogLogPlusPlus(c.arg(0))
  }

  /** The IEEE rounding mode of a floating-point statistic (nearest-even when the plan names none). */
  private def roundingMode(c: FunctionCall): Int = c.rounding.getOrElse(CorrectlyRounded.TieToEven)

  /**
   * variance / std_dev: the distribution (SAMPLE, the default, or POPULATION) as an
   * option, or as the enum argument some plans put first. Exact, rounded once in the plan's
   * rounding mode ([[ExactMoments]]); of fp32 values, the fp32 result the YAML declares.
   * Of i8, i16 or i32 values, or doubles cast from them (TPC-DS's stddev_samp of an INT column
   * cast to DOUBLE), the same exact value from four long sums that Spark's generated aggregation
   * code keeps ([[IntegerMoments]]; a group of 2^32 rows or more is an error).
   */
  private def statistic(c: FunctionCall)(sample: String, population: String): AggregateFunction = {
    val choices = Map("SAMPLE" -> true, "POPULATION" -> false)
    val fromEnum = if (c.enumCount > 0) Some(c.enumArg(0, "distribution", choices)) else None
    val isSample = fromEnum.orElse(c.option("distribution", choices)).getOrElse(true)
    val mode = roundingMode(c)
    c.expectArity(1)
    numericArg(c)
    val name = if (isSample) sample else population
    asDouble(c.arg(0)) match {
      // A cast of an integer of at most 32 bits to double is exact and never fails.
      case Cast(integer, DoubleType, _, _) if IntegerMoments.Integers(integer.dataType) =>
        IntegerMoments(integer, name, mode, c.at.toString)
      case x => ExactMoments(Seq(x), name, mode, single = c.arg(0).dataType == FloatType)
    }
  }
}
