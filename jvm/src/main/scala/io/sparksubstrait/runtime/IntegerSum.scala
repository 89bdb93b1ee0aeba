package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal, BigInteger, MathContext, RoundingMode}

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.DeclarativeAggregate
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.catalyst.trees.UnaryLike
import org.apache.spark.sql.types._

/**
 * The exact sum of integers in 128 bits (two longs: `hi`, and `lo` read as unsigned), so that
 * no intermediate sum overflows whatever the order of the rows: a sum of i64 values is
 * exact until its end, where the plan's overflow option meets only the final value; and the
 * mean of integers is the exact sum divided once. Generated code: each row is one add with a
 * carry, like Spark's own sum.
 *
 * `result`: "sum" (DECIMAL(38,0)), "truncated_mean" (DECIMAL(38,0): the mean truncated toward
 * zero, as the YAML's integral avg) or "mean" (the mean correctly rounded to a double, for a
 * plan declaring a floating-point average of integers). No rows, or only NULLs: NULL.
 */
final case class IntegerSum(child: Expression, result: String) extends DeclarativeAggregate with UnaryLike[Expression] {
  require(Set("sum", "truncated_mean", "mean")(result), result)

  override def dataType: DataType = if (result == "mean") DoubleType else IntegerSum.Wide
  override def nullable: Boolean = true
  override def prettyName: String = if (result == "sum") "exact_sum" else "exact_avg"

  private lazy val hi = AttributeReference("hi", LongType)() // NULL until a non-NULL row
  private lazy val lo = AttributeReference("lo", LongType)()
  private lazy val count = AttributeReference("count", LongType)()

  override lazy val aggBufferAttributes: Seq[AttributeReference] = Seq(hi, lo, count)
  override lazy val initialValues: Seq[Expression] = Int128Adds.initialValues
  override lazy val updateExpressions: Seq[Expression] = Int128Adds.update(hi, lo, count, child, Cast(child, LongType))
  override lazy val mergeExpressions: Seq[Expression] =
    Int128Adds.merge((hi.left, lo.left, count.left), (hi.right, lo.right, count.right))

  override lazy val evaluateExpression: Expression =
    If(IsNull(hi), Literal(null, dataType),
      StaticInvoke(classOf[Int128], dataType,
        result match {
          case "sum" => "total"
          case "truncated_mean" => "truncatedMean"
          case _ => "mean"
        }, Seq(hi, lo, count)))

  override protected def withNewChildInternal(newChild: Expression): IntegerSum = copy(child = newChild)
}

object IntegerSum {
  val Wide: DecimalType = DecimalType(38, 0)
}

/**
 * The update and merge of a 128-bit sum of longs held as `hi` (NULL until a non-NULL row) and
 * `lo` (read as unsigned), with a count of the values: one add with a carry per row.
 */
private[runtime] object Int128Adds {
  val initialValues: Seq[Expression] = Seq(Literal(null, LongType), Literal(0L), Literal(0L))

  private def plus(a: Expression, b: Expression): Expression = Add(a, b, EvalMode.LEGACY)

  /** 1 when the unsigned sum `total` of `base` and something wrapped around, else 0. */
  private def carry(total: Expression, base: Expression): Expression = {
    val flip = Literal(Long.MinValue)
    If(LessThan(BitwiseXor(total, flip), BitwiseXor(base, flip)), Literal(1L), Literal(0L))
  }

  /** Adds `x` (a long; skipped where `value` is NULL). */
  def update(hi: Expression, lo: Expression, count: Expression, value: Expression, x: Expression): Seq[Expression] = {
    val newLo = plus(lo, x)
    val signExtension = If(LessThan(x, Literal(0L)), Literal(-1L), Literal(0L))
    val newHi = plus(plus(Coalesce(Seq(hi, Literal(0L))), signExtension), carry(newLo, lo))
    Seq(If(IsNull(value), hi, newHi), If(IsNull(value), lo, newLo), If(IsNull(value), count, plus(count, Literal(1L))))
  }

  def merge(left: (Expression, Expression, Expression), right: (Expression, Expression, Expression))
    : Seq[Expression] = {
    val (hiL, loL, countL) = left
    val (hiR, loR, countR) = right
    val newLo = plus(loL, loR)
    val newHi = If(And(IsNull(hiL), IsNull(hiR)), Literal(null, LongType),
      plus(plus(Coalesce(Seq(hiL, Literal(0L))), Coalesce(Seq(hiR, Literal(0L)))), carry(newLo, loL)))
    Seq(newHi, newLo, plus(countL, countR))
  }
}

/** The 128-bit sums of [[IntegerSum]] at the end of a group (called from generated code). */
final class Int128 private ()

object Int128 {
  private val TwoTo64 = BigInteger.ONE.shiftLeft(64)

  private[runtime] def value(hi: Long, lo: Long): BigInteger = {
    val unsignedLo = if (lo >= 0) BigInteger.valueOf(lo) else BigInteger.valueOf(lo).add(TwoTo64)
    BigInteger.valueOf(hi).multiply(TwoTo64).add(unsignedLo)
  }

  private def decimal(v: BigInteger): Decimal = {
    // 10^38 needs more than 2^63 rows of i64 values: no group gets there.
    if (v.abs.compareTo(BigInteger.TEN.pow(38)) >= 0) throw new ArithmeticException("a sum of more than 38 digits")
    Decimal(new JBigDecimal(v), 38, 0)
  }

  def total(hi: Long, lo: Long, count: Long): Decimal =
    if (hi == (lo >> 63)) Decimal(lo, 38, 0) else decimal(value(hi, lo))

  def truncatedMean(hi: Long, lo: Long, count: Long): Decimal =
    if (hi == (lo >> 63) && lo != Long.MinValue) Decimal(lo / count, 38, 0)
    else decimal(value(hi, lo).divide(BigInteger.valueOf(count)))

  /** Below 2^53 a long and the count are doubles exactly, and IEEE division rounds their quotient once, to nearest even. */
  private val Exact = 1L << 53

  def mean(hi: Long, lo: Long, count: Long): Double =
    if (hi == (lo >> 63) && lo > -Exact && lo < Exact && count < Exact) lo.toDouble / count.toDouble
    else exactMean(hi, lo, count)

  /** The exact mean rounded once (any 128-bit sum; the oracle of the fast path in tests). */
  private[sparksubstrait] def exactMean(hi: Long, lo: Long, count: Long): Double = {
    val exact =
      new JBigDecimal(value(hi, lo)).divide(JBigDecimal.valueOf(count), new MathContext(60, RoundingMode.HALF_EVEN))
    CorrectlyRounded.round(exact, CorrectlyRounded.TieToEven, single = false)
  }
}
