package io.sparksubstrait.runtime

import java.math.BigInteger

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.DeclarativeAggregate
import org.apache.spark.sql.catalyst.expressions.codegen.{CodegenContext, ExprCode}
import org.apache.spark.sql.catalyst.expressions.codegen.Block._
import org.apache.spark.sql.catalyst.trees.UnaryLike
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors

/**
 * variance and std_dev of i8, i16 or i32 values (the argument an integer, or a double cast from
 * one), exactly as [[ExactMoments]] gives them but in four longs that Spark's generated
 * aggregation code updates like its own sums: n, Σx, and Σx² split as Σhi·2^31 + Σlo, where
 * hi = x² >> 31 and lo = x² & (2^31 - 1) (x² ≤ 2^62 fits a long; hi ≤ 2^31, lo < 2^31).
 *
 * The bound: every |x| ≤ 2^31, so a group of n < 2^32 rows keeps |Σx|, Σhi and Σlo — and every
 * partial or merged sum, each over a part of the group — at most n·2^31 < 2^63: no sum
 * overflows. A group of 2^32 or more rows (whose sums may have wrapped) is an error at its end
 * ([[IntegerMomentsResult]]), never a wrong value.
 *
 * Rows with a NULL argument are skipped; no rows: NULL; a sample of one value: NULL.
 * `statistic`: "var_samp", "var_pop", "stddev_samp" or "stddev_pop"; `mode` the IEEE rounding
 * mode of the one rounding to binary64; `location` the plan path of the error.
 */
final case class IntegerMoments(child: Expression, statistic: String, mode: Int, location: String)
    extends DeclarativeAggregate with UnaryLike[Expression] {
  require(IntegerMoments.Statistics(statistic), statistic)
  require(IntegerMoments.Integers(child.dataType), "an i8, i16 or i32 argument")

  override def dataType: DataType = DoubleType
  override def nullable: Boolean = true
  override def prettyName: String = s"exact_$statistic"

  private lazy val n = AttributeReference("n", LongType, nullable = false)()
  private lazy val sx = AttributeReference("sx", LongType, nullable = false)()
  private lazy val hi = AttributeReference("sxx_hi", LongType, nullable = false)()
  private lazy val lo = AttributeReference("sxx_lo", LongType, nullable = false)()

  override lazy val aggBufferAttributes: Seq[AttributeReference] = Seq(n, sx, hi, lo)
  override lazy val initialValues: Seq[Expression] = Seq.fill(4)(Literal(0L))

  // Wrapping adds (no ANSI error of Spark's): below 2^32 rows none wraps; beyond, the result is our error.
  private def plus(a: Expression, b: Expression): Expression = Add(a, b, EvalMode.LEGACY)

  override lazy val updateExpressions: Seq[Expression] = {
    val x = Cast(child, LongType)
    val square = Multiply(x, x, EvalMode.LEGACY)
    val added = Seq(plus(n, Literal(1L)), plus(sx, x), plus(hi, ShiftRight(square, Literal(31))),
      plus(lo, BitwiseAnd(square, Literal(IntegerMoments.LowMask))))
    aggBufferAttributes.zip(added).map { case (buffer, next) => If(IsNull(child), buffer, next) }
  }

  override lazy val mergeExpressions: Seq[Expression] = aggBufferAttributes.map(a => plus(a.left, a.right))

  override lazy val evaluateExpression: Expression = IntegerMomentsResult(n, sx, hi, lo, statistic, mode, location)

  override protected def withNewChildInternal(newChild: Expression): IntegerMoments = copy(child = newChild)
}

object IntegerMoments {
  val Statistics: Set[String] = Set("var_samp", "var_pop", "stddev_samp", "stddev_pop")
  val Integers: Set[DataType] = Set(ByteType, ShortType, IntegerType)
  private[runtime] val LowMask: Long = (1L << 31) - 1

  /** The largest group whose long sums are exact: 2^32 - 1 rows. */
  val MaxRows: Long = (1L << 32) - 1

  /**
   * v = p/q (0 < p, q < 2^63), or its square root (`root`), rounded to binary64 in `mode`: the
   * double estimate (within a few units in the last place: v and its root are normal doubles)
   * moved to the right neighbour by exact comparisons of g(a)·q with p, g the identity or the
   * square, for a candidate a or the midpoint of two neighbours (each a·2^e with an integer a).
   * Per group far cheaper than [[ExactRatio]]'s general path (which the tests check it against).
   */
  def rounded(p: Long, q: Long, root: Boolean, mode: Int): Double = {
    val (bigP, bigQ) = (BigInteger.valueOf(p), BigInteger.valueOf(q))
    // The sign of g(m·2^e) - p/q.
    def compare(m: Long, e: Int): Int = {
      val a = BigInteger.valueOf(m)
      val (g, e2) = if (root) (a.multiply(a), 2 * e) else (a, e)
      val left = g.multiply(bigQ)
      if (e2 >= 0) left.shiftLeft(e2).compareTo(bigP) else left.compareTo(bigP.shiftLeft(-e2))
    }
    def at(a: Double): Int = {
      val bits = java.lang.Double.doubleToRawLongBits(a)
      compare(ExactAccumulator.significand(bits), ExactAccumulator.exponent(bits))
    }
    // Against the midpoint of a and the next double up: (2m + 1)·2^(e-1).
    def above(a: Double): Int = {
      val bits = java.lang.Double.doubleToRawLongBits(a)
      compare(2 * ExactAccumulator.significand(bits) + 1, ExactAccumulator.exponent(bits) - 1)
    }
    val estimate = p.toDouble / q.toDouble
    var a = if (root) Math.sqrt(estimate) else estimate
    mode match {
      case CorrectlyRounded.Truncate | CorrectlyRounded.Floor =>
        while (at(a) > 0) a = Math.nextDown(a)
        while (at(Math.nextUp(a)) <= 0) a = Math.nextUp(a)
        a
      case CorrectlyRounded.Ceiling =>
        while (at(a) < 0) a = Math.nextUp(a)
        while (at(Math.nextDown(a)) >= 0) a = Math.nextDown(a)
        a
      case _ =>
        // The double whose midpoints with its neighbours enclose the value.
        while (above(a) < 0) a = Math.nextUp(a)
        while (above(Math.nextDown(a)) > 0) a = Math.nextDown(a)
        val (low, high) =
          if (above(a) == 0) (a, Math.nextUp(a))
          else if (above(Math.nextDown(a)) == 0) (Math.nextDown(a), a)
          else return a
        // A tie: the even one, or away from zero (up: the value is positive).
        if (mode == CorrectlyRounded.TieAwayFromZero) high
        else if ((java.lang.Double.doubleToRawLongBits(low) & 1) == 0) low
        else high
    }
  }
}

/**
 * The statistic of [[IntegerMoments]]'s sums (n, Σx, Σhi, Σlo; a NULL sum is zero): Σx² =
 * Σhi·2^31 + Σlo, then variance = (nΣx² - (Σx)²) / (n(n-1)) (sample) or / n² (population),
 * std_dev its root, rounded once to binary64 in `mode` ([[ExactRatio]], as [[ExactMoments]]).
 * NULL for n = 0 or a sample of one; n ≥ 2^32: SUBSTRAIT_ARITHMETIC_OVERFLOW (the sums may
 * have wrapped). Evaluated once per group.
 */
final case class IntegerMomentsResult(n: Expression, sx: Expression, hi: Expression, lo: Expression,
  statistic: String, mode: Int, location: String) extends Expression {
  require(IntegerMoments.Statistics(statistic), statistic)

  override def children: Seq[Expression] = Seq(n, sx, hi, lo)
  override def dataType: DataType = DoubleType
  override def nullable: Boolean = true
  override def prettyName: String = s"exact_$statistic"

  override def eval(input: InternalRow): Any = {
    def long(e: Expression): Long = e.eval(input) match {
      case null => 0L
      case v => v.asInstanceOf[Long]
    }
    result(long(n), long(sx), long(hi), long(lo))
  }

  // Generated code calls `result` (an aggregation without grouping keys has no input row for a
  // CodegenFallback: its buffer is in local variables).
  override protected def doGenCode(ctx: CodegenContext, ev: ExprCode): ExprCode = {
    val values = children.map(_.genCode(ctx))
    val self = ctx.addReferenceObj("moments", this)
    val boxed = ctx.freshName("boxed")
    val args = values.map(v => s"${v.isNull} ? 0L : ${v.value}").mkString(", ")
    ev.copy(code = code"""
      ${values.map(_.code).reduce(_ + _)}
      java.lang.Double $boxed = $self.result($args);
      boolean ${ev.isNull} = $boxed == null;
      double ${ev.value} = ${ev.isNull} ? 0.0 : $boxed.doubleValue();
    """)
  }

  /** The statistic of the sums, or null. */
  def result(count: Long, sum: Long, hiSum: Long, loSum: Long): java.lang.Double = {
    val sample = statistic.endsWith("samp")
    if (count > IntegerMoments.MaxRows) {
      throw SubstraitErrors.functionError("SUBSTRAIT_ARITHMETIC_OVERFLOW", location,
        if (statistic.startsWith("var")) "variance" else "std_dev",
        s"a group of $count rows: the exact sums of i32 values hold at most 2^32 - 1 rows")
    }
    if (count == 0 || (sample && count == 1)) return null
    val big = BigInteger.valueOf(count)
    val sumSquares = BigInteger.valueOf(hiSum).shiftLeft(31).add(BigInteger.valueOf(loSum))
    val total = BigInteger.valueOf(sum)
    val spread = sumSquares.multiply(big).subtract(total.multiply(total))
    val den = if (sample) big.multiply(BigInteger.valueOf(count - 1)) else big.multiply(big)
    val root = statistic.startsWith("stddev")
    if (spread.signum == 0) 0.0
    else if (spread.bitLength < 63 && den.bitLength < 63) IntegerMoments.rounded(spread.longValue, den.longValue, root,
      mode)
    else if (root) ExactRatio.sqrtRatio(spread, 0, den, negative = false, mode, single = false)
    else ExactRatio.ratio(spread, 0, den, mode, single = false)
  }

  override protected def withNewChildrenInternal(newChildren: IndexedSeq[Expression]): IntegerMomentsResult = {
    val IndexedSeq(a, b, c, d) = newChildren
    copy(n = a, sx = b, hi = c, lo = d)
  }
}
