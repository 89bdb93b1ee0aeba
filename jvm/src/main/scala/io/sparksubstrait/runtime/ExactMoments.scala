package io.sparksubstrait.runtime

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, DataInputStream, DataOutputStream}
import java.math.BigInteger

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.expressions.aggregate.{ImperativeAggregate, TypedImperativeAggregate}
import org.apache.spark.sql.types._

import io.sparksubstrait.runtime.ExactAccumulator.{exponent, significand}

/**
 * variance, std_dev and corr exactly: n and the sums Σx, Σx² (and Σy, Σy², Σxy for corr)
 * kept without rounding ([[ExactAccumulator]]: a double, its square and a product of two are
 * binary fractions), merged exactly, and one rounding at the end in the plan's IEEE mode, to
 * binary64 or (`single`) straight to binary32:
 *   variance = (nΣx² - (Σx)²) / (n(n-1)) (sample) or / n² (population), std_dev its root,
 *   corr = (nΣxy - ΣxΣy) / sqrt((nΣx² - (Σx)²)(nΣy² - (Σy)²)).
 * Spark's own stddev/variance/corr round every update (and square in double, which overflows
 * for values beyond 1e154): not correctly rounded, and nearest-even only.
 *
 * Rows with a NULL argument are skipped; no rows: NULL; a sample of one value: NULL (the
 * YAML's cases); a NaN or infinite value: NaN (IEEE 754's arithmetic on it); corr of a constant
 * column (0/0): NaN. `statistic`: "var_samp", "var_pop", "stddev_samp", "stddev_pop" or "corr".
 */
final case class ExactMoments(
  children: Seq[Expression],
  statistic: String,
  mode: Int,
  single: Boolean,
  mutableAggBufferOffset: Int = 0,
  inputAggBufferOffset: Int = 0) extends TypedImperativeAggregate[Moments] {
  require(ExactMoments.Statistics(statistic), statistic)
  require(children.forall(_.dataType == DoubleType), "the arguments are doubles")
  private val pairs = statistic == "corr"

  override def dataType: DataType = if (single) FloatType else DoubleType
  override def nullable: Boolean = true
  override def prettyName: String = s"exact_$statistic"

  override def createAggregationBuffer(): Moments = new Moments(pairs)

  override def update(buffer: Moments, input: InternalRow): Moments = {
    val x = children.head.eval(input)
    if (x == null) return buffer
    if (pairs) {
      val y = children(1).eval(input)
      if (y != null) buffer.add(x.asInstanceOf[Double], y.asInstanceOf[Double])
    } else buffer.add(x.asInstanceOf[Double])
    buffer
  }

  override def merge(buffer: Moments, input: Moments): Moments = { buffer.merge(input); buffer }

  override def eval(buffer: Moments): Any = {
    val v = buffer.result(statistic, mode, single)
    if (v == null) null else if (single) v.doubleValue.toFloat else v
  }

  override def serialize(buffer: Moments): Array[Byte] = {
    val bytes = new ByteArrayOutputStream()
    val out = new DataOutputStream(bytes)
    buffer.write(out)
    out.flush()
    bytes.toByteArray
  }

  override def deserialize(bytes: Array[Byte]): Moments =
    Moments.read(new DataInputStream(new ByteArrayInputStream(bytes)), pairs)

  override def withNewMutableAggBufferOffset(offset: Int): ImperativeAggregate = copy(mutableAggBufferOffset = offset)
  override def withNewInputAggBufferOffset(offset: Int): ImperativeAggregate = copy(inputAggBufferOffset = offset)
  override protected def withNewChildrenInternal(newChildren: IndexedSeq[Expression]): ExactMoments =
    copy(children = newChildren)
}

object ExactMoments {
  val Statistics: Set[String] = Set("var_samp", "var_pop", "stddev_samp", "stddev_pop", "corr")
}

/** The exact sums of one group (of x, or of (x, y) pairs). */
final class Moments(pairs: Boolean) extends Serializable {
  private[runtime] var n = 0L
  private[runtime] var nonFinite = false
  private[runtime] val sx = new ExactAccumulator
  private[runtime] val sxx = new ExactAccumulator
  private[runtime] val sy: ExactAccumulator = if (pairs) new ExactAccumulator else null
  private[runtime] val syy: ExactAccumulator = if (pairs) new ExactAccumulator else null
  private[runtime] val sxy: ExactAccumulator = if (pairs) new ExactAccumulator else null

  def add(x: Double): Unit = {
    n += 1
    if (java.lang.Double.isNaN(x) || java.lang.Double.isInfinite(x)) nonFinite = true
    else if (!nonFinite && x != 0.0) {
      val bits = java.lang.Double.doubleToRawLongBits(x)
      val m = significand(bits)
      val e = exponent(bits)
      sx.add(bits < 0, m, e)
      sxx.addProduct(false, m, m, 2 * e)
    }
  }

  def add(x: Double, y: Double): Unit = {
    add(x)
    if (java.lang.Double.isNaN(y) || java.lang.Double.isInfinite(y)) nonFinite = true
    else if (!nonFinite && y != 0.0) {
      val bits = java.lang.Double.doubleToRawLongBits(y)
      val m = significand(bits)
      val e = exponent(bits)
      sy.add(bits < 0, m, e)
      syy.addProduct(false, m, m, 2 * e)
      if (x != 0.0) {
        val xBits = java.lang.Double.doubleToRawLongBits(x)
        sxy.addProduct((bits < 0) != (xBits < 0), significand(xBits), m, exponent(xBits) + e)
      }
    }
  }

  def merge(other: Moments): Unit = {
    n += other.n
    nonFinite ||= other.nonFinite
    sx.merge(other.sx); sxx.merge(other.sxx)
    if (sy != null) { sy.merge(other.sy); syy.merge(other.syy); sxy.merge(other.sxy) }
  }

  /** The statistic rounded in `mode` (a boxed double), or null. */
  def result(statistic: String, mode: Int, single: Boolean): java.lang.Double = {
    val sample = statistic.endsWith("samp")
    if (n == 0 || (sample && n == 1)) return null
    if (nonFinite) return Double.NaN
    val count = BigInteger.valueOf(n)
    statistic match {
      case "corr" =>
        val (cxy, exy) = spread(sx, sy, sxy)
        val (cxx, exx) = spread(sx, sx, sxx)
        val (cyy, eyy) = spread(sy, sy, syy)
        if (cxx.signum == 0 || cyy.signum == 0) Double.NaN
        // r = sign(cxy)·sqrt(cxy² / (cxx·cyy)), each c a multiple of a power of two.
        else
          ExactRatio.sqrtRatio(cxy.multiply(cxy), 2 * exy - exx - eyy, cxx.multiply(cyy), cxy.signum < 0, mode, single)
      case _ =>
        val (c, e) = spread(sx, sx, sxx)
        val den = if (sample) count.multiply(BigInteger.valueOf(n - 1)) else count.multiply(count)
        if (statistic.startsWith("var")) ExactRatio.ratio(c, e, den, mode, single)
        else ExactRatio.sqrtRatio(c, e, den, negative = false, mode, single)
    }
  }

  /** n·Σab - Σa·Σb exactly, as c·2^e: (c, e). */
  private def spread(a: ExactAccumulator, b: ExactAccumulator, ab: ExactAccumulator): (BigInteger, Int) = {
    val (ma, ea) = a.value
    val (mb, eb) = b.value
    val (mab, eab) = ab.value
    val first = mab.multiply(BigInteger.valueOf(n))
    val second = ma.multiply(mb)
    val e = math.min(eab, ea + eb)
    (first.shiftLeft(eab - e).subtract(second.shiftLeft(ea + eb - e)), e)
  }

  def write(out: DataOutputStream): Unit = {
    out.writeLong(n)
    out.writeBoolean(nonFinite)
    (if (sy != null) Seq(sx, sxx, sy, syy, sxy) else Seq(sx, sxx)).foreach(_.write(out))
  }
}

object Moments {
  def read(in: DataInputStream, pairs: Boolean): Moments = {
    val m = new Moments(pairs)
    m.n = in.readLong()
    m.nonFinite = in.readBoolean()
    val accumulators = if (pairs) Seq(m.sx, m.sxx, m.sy, m.syy, m.sxy) else Seq(m.sx, m.sxx)
    accumulators.foreach(a => a.merge(ExactAccumulator.read(in)))
    m
  }
}
