package io.sparksubstrait.runtime

import java.math.{BigDecimal => JBigDecimal, BigInteger, RoundingMode}

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.DeclarativeAggregate
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.catalyst.trees.UnaryLike
import org.apache.spark.sql.types._

/**
 * The exact sum of decimals of any precision, and their mean rounded once. Up to precision 18
 * the unscaled values are longs, summed in 128 bits ([[Int128Adds]]: two long adds per row,
 * as fast as Spark's own sum of longs, where a decimal sum allocates); up to precision 28
 * the values are summed as Spark's Average sums them, in DECIMAL(P+10,S) (exact below 10^10
 * rows); beyond it each value's unscaled integer u (|u| < 10^38) is split as h·10^19 + l
 * (|h|, |l| < 10^19) and the h and the l are summed apart, each sum in DECIMAL(38,0) (exact
 * below 10^19 rows), the total h·10^19 + l formed once, at the end of the group.
 *
 * `result`: "saturated_sum" (the sum, beyond DECIMAL(38,S) the largest value of its sign;
 * always split) or "mean" (the sum divided by the count, rounded once to `outScale`, half away
 * from zero: Spark's Average rounds to S+4 first, and a mean such as 0.49995 then becomes 1 at
 * scale 0). No values: NULL.
 */
final case class DecimalSum(child: Expression, result: String, outScale: Int) extends DeclarativeAggregate
    with UnaryLike[Expression] {
  require(Set("saturated_sum", "mean")(result), result)

  private def input: DecimalType = child.dataType.asInstanceOf[DecimalType]
  private def longs: Boolean = input.precision <= 18
  private def split: Boolean = !longs && (result == "saturated_sum" || input.precision > 28)
  override def dataType: DataType = DecimalType(38, outScale)
  override def nullable: Boolean = true
  override def prettyName: String = if (result == "mean") "exact_avg" else "saturated_sum"

  private lazy val sumType = DecimalType(math.min(38, input.precision + 10), input.scale)
  private lazy val high = AttributeReference("high", DecimalSum.Part)() // split: the sum of the h; else the sum
  private lazy val low = AttributeReference("low", DecimalSum.Part)()
  private lazy val sum = AttributeReference("sum", sumType)()
  private lazy val count = AttributeReference("count", LongType)()
  private lazy val hi = AttributeReference("hi", LongType)() // longs: the 128-bit sum of the unscaled values
  private lazy val lo = AttributeReference("lo", LongType)()

  override lazy val aggBufferAttributes: Seq[AttributeReference] =
    if (longs) Seq(hi, lo, count) else if (split) Seq(high, low, count) else Seq(sum, count)
  private val Zero = Literal(Decimal(0), DecimalSum.Part)
  override lazy val initialValues: Seq[Expression] =
    if (longs) Int128Adds.initialValues
    else if (split) Seq(Zero, Zero, Literal(0L))
    else Seq(Literal(Decimal(0), sumType), Literal(0L))

  private def part(name: String): Expression =
    StaticInvoke(classOf[DecimalParts], DecimalSum.Part, name, Seq(child, Literal(input.scale)))
  private def plus(a: Expression, b: Expression): Expression = Add(a, b, EvalMode.LEGACY)
  private def plusSum(a: Expression, b: Expression): Expression = DecimalAddNoOverflowCheck(a, b, sumType)

  override lazy val updateExpressions: Seq[Expression] = if (longs) {
    Int128Adds.update(hi, lo, count, child, UnscaledValue(child))
  } else {
    val counted = If(IsNull(child), count, plus(count, Literal(1L)))
    if (split)
      Seq(If(IsNull(child), high, plus(high, part("high"))), If(IsNull(child), low, plus(low, part("low"))), counted)
    else Seq(If(IsNull(child), sum, plusSum(sum, Cast(child, sumType))), counted)
  }

  override lazy val mergeExpressions: Seq[Expression] =
    if (longs) Int128Adds.merge((hi.left, lo.left, count.left), (hi.right, lo.right, count.right))
    else if (split) Seq(plus(high.left, high.right), plus(low.left, low.right), plus(count.left, count.right))
    else Seq(plusSum(sum.left, sum.right), plus(count.left, count.right))

  override lazy val evaluateExpression: Expression = {
    val scales = Seq(Literal(input.scale), Literal(outScale))
    If(EqualTo(count, Literal(0L)), Literal(null, dataType),
      if (longs) StaticInvoke(classOf[DecimalParts], dataType, if (result == "mean") "unscaledMean" else "unscaledSum",
        Seq(hi, lo, count) ++ scales)
      else if (split) StaticInvoke(classOf[DecimalParts], dataType, if (result == "mean") "mean" else "saturatedSum",
        Seq(high, low, count) ++ scales)
      else StaticInvoke(classOf[DecimalParts], dataType, "meanOf", Seq(sum, count, Literal(outScale))))
  }

  override protected def withNewChildInternal(newChild: Expression): DecimalSum = copy(child = newChild)
}

object DecimalSum {
  val Part: DecimalType = DecimalType(38, 0)
}

/** The parts of [[DecimalSum]] and its results (called from generated code). */
final class DecimalParts private ()

object DecimalParts {
  private val Base = BigInteger.TEN.pow(19)
  private val Limit = BigInteger.TEN.pow(38)

  private def unscaled(x: Decimal, scale: Int): BigInteger = x.toJavaBigDecimal.setScale(scale).unscaledValue

  def high(x: Decimal, scale: Int): Decimal = Decimal(new JBigDecimal(unscaled(x, scale).divide(Base)), 38, 0)
  def low(x: Decimal, scale: Int): Decimal = Decimal(new JBigDecimal(unscaled(x, scale).remainder(Base)), 38, 0)

  private def total(high: Decimal, low: Decimal): BigInteger =
    high.toJavaBigDecimal.toBigIntegerExact.multiply(Base).add(low.toJavaBigDecimal.toBigIntegerExact)

  def saturatedSum(high: Decimal, low: Decimal, count: Long, scale: Int, outScale: Int): Decimal =
    saturated(total(high, low), scale, outScale)

  private def saturated(t: BigInteger, scale: Int, outScale: Int): Decimal = {
    val inRange =
      if (t.abs.compareTo(Limit) < 0) t else Limit.subtract(BigInteger.ONE).multiply(BigInteger.valueOf(t.signum))
    Decimal(new JBigDecimal(inRange, scale).setScale(outScale), 38, outScale)
  }

  def mean(high: Decimal, low: Decimal, count: Long, scale: Int, outScale: Int): Decimal =
    Decimal(new JBigDecimal(total(high, low), scale).divide(JBigDecimal.valueOf(count), outScale, RoundingMode.HALF_UP),
      38, outScale)

  /** The 128-bit sum of unscaled longs (hi, lo) at `scale`: saturated, or its mean rounded half up. */
  def unscaledSum(hi: Long, lo: Long, count: Long, scale: Int, outScale: Int): Decimal =
    saturated(Int128.value(hi, lo), scale, outScale)

  def unscaledMean(hi: Long, lo: Long, count: Long, scale: Int, outScale: Int): Decimal = {
    val exact =
      if (hi == (lo >> 63)) JBigDecimal.valueOf(lo, scale) else new JBigDecimal(Int128.value(hi, lo), scale)
    Decimal(exact.divide(JBigDecimal.valueOf(count), outScale, RoundingMode.HALF_UP), 38, outScale)
  }

  def meanOf(sum: Decimal, count: Long, outScale: Int): Decimal =
    Decimal(sum.toJavaBigDecimal.divide(JBigDecimal.valueOf(count), outScale, RoundingMode.HALF_UP), 38, outScale)
}
