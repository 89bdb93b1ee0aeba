package io.sparksubstrait.runtime

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, DataInputStream, DataOutputStream}
import java.math.{BigDecimal => JBigDecimal, BigInteger}

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.expressions.aggregate.{ImperativeAggregate, TypedImperativeAggregate}
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors

/**
 * The YAML's product aggregate ("Returns 1 for empty input"; NULLs skipped), exactly.
 *
 * Integers (the child an i64): the exact product, as DECIMAL(38,0), its magnitude capped at
 * 2^66 (beyond every i64 whatever comes next, until a zero): the mapping applies the overflow
 * option to it. Floating point (the child a double; `single`: the result binary32): IEEE 754's
 * special values (NaN, ±∞, ±0 with the sign of the product), else the exact product rounded
 * once in `mode`. The product of the significands is kept exactly while it has at most 512
 * bits, then as an interval 512 bits wide (one bound rounded down, one up, each step); the
 * interval decides the rounding unless the product lies within 2^-480 of a rounding boundary,
 * where an error is raised instead of a possibly wrong answer.
 */
final case class ExactProduct(
  child: Expression,
  floating: Boolean,
  mode: Int,
  single: Boolean,
  location: String,
  mutableAggBufferOffset: Int = 0,
  inputAggBufferOffset: Int = 0) extends TypedImperativeAggregate[ProductState] {
  require(child.dataType == (if (floating) DoubleType else LongType), child.dataType)

  override def children: Seq[Expression] = Seq(child)
  override def dataType: DataType = if (!floating) DecimalType(38, 0) else if (single) FloatType else DoubleType
  override def nullable: Boolean = false
  override def prettyName: String = "exact_product"

  override def createAggregationBuffer(): ProductState = new ProductState(floating)

  override def update(buffer: ProductState, input: InternalRow): ProductState = {
    val v = child.eval(input)
    if (v != null) {
      if (floating) buffer.multiply(v.asInstanceOf[Double]) else buffer.multiply(v.asInstanceOf[Long])
    }
    buffer
  }

  override def merge(buffer: ProductState, input: ProductState): ProductState = { buffer.merge(input); buffer }

  override def eval(buffer: ProductState): Any =
    if (!floating) Decimal(new JBigDecimal(buffer.integer), 38, 0)
    else {
      val d = buffer.floatingResult(mode, single).getOrElse(
        throw SubstraitErrors.functionError("SUBSTRAIT_ARITHMETIC_OVERFLOW",
          location, "product",
          "the exact product overflows the 512-bit working precision within 2^-480 of a rounding boundary"))
      if (single) d.toFloat else d
    }

  override def serialize(buffer: ProductState): Array[Byte] = {
    val bytes = new ByteArrayOutputStream()
    val out = new DataOutputStream(bytes)
    buffer.write(out)
    out.flush()
    bytes.toByteArray
  }

  override def deserialize(bytes: Array[Byte]): ProductState =
    ProductState.read(new DataInputStream(new ByteArrayInputStream(bytes)), floating)

  override def withNewMutableAggBufferOffset(offset: Int): ImperativeAggregate = copy(mutableAggBufferOffset = offset)
  override def withNewInputAggBufferOffset(offset: Int): ImperativeAggregate = copy(inputAggBufferOffset = offset)
  override protected def withNewChildrenInternal(newChildren: IndexedSeq[Expression]): ExactProduct =
    copy(child = newChildren.head)
}

/**
 * A product's state: its sign, whether a factor was zero (NaN, infinite), and its magnitude:
 * integers `small` (while below 2^62) or `low` (capped at 2^66); floating point
 * `low`·2^exponent (exact while `high` is null, else `low` ≤ the magnitude ≤ `high`·2^exponent).
 */
final class ProductState(floating: Boolean) extends Serializable {
  private var negative = false
  private var zero = false
  private var nan = false
  private var infinite = false
  private var small = 1L
  private var low: BigInteger = null
  private var high: BigInteger = null
  private var exponent = 0L

  import ProductState._

  def multiply(x: Long): Unit = {
    if (x == 0L) { zero = true; return }
    if (x < 0) negative = !negative
    if (low == null && x != Long.MinValue) {
      val a = math.abs(x)
      val product = small * a
      if (Math.multiplyHigh(small, a) == 0L && product >= 0L && product < (1L << 62)) { small = product; return }
      low = BigInteger.valueOf(small)
    }
    if (low == null) low = BigInteger.valueOf(small)
    if (low.bitLength <= 66) {
      low = low.multiply(BigInteger.valueOf(x).abs)
      if (low.bitLength > 66) low = IntegerCap
    }
  }

  def multiply(x: Double): Unit = {
    if (x.isNaN) { nan = true; return }
    if (java.lang.Double.doubleToRawLongBits(x) < 0) negative = !negative
    if (x.isInfinite) { infinite = true; return }
    if (x == 0.0) { zero = true; return }
    val bits = java.lang.Double.doubleToRawLongBits(x)
    val m = ExactAccumulator.significand(bits)
    val shift = java.lang.Long.numberOfTrailingZeros(m)
    exponent += ExactAccumulator.exponent(bits) + shift
    scale(BigInteger.valueOf(m >>> shift), BigInteger.valueOf(m >>> shift))
  }

  /** Multiplies the magnitude by factors (low bound, high bound), then keeps it within 512 bits. */
  private def scale(byLow: BigInteger, byHigh: BigInteger): Unit = {
    val base = if (low == null) BigInteger.ONE else low
    val baseHigh = if (high == null) base else high
    val exact = high == null && byHigh.equals(byLow)
    low = base.multiply(byLow)
    high = if (exact) null else baseHigh.multiply(byHigh)
    val excess = low.bitLength - Bits
    if (excess > 0) {
      // Rounded down and up: the exact magnitude stays within [low, high]·2^exponent.
      high = (if (high == null) low else high).shiftRight(excess).add(BigInteger.ONE)
      low = low.shiftRight(excess)
      exponent += excess
    }
  }

  def merge(other: ProductState): Unit = {
    negative ^= other.negative
    zero ||= other.zero
    nan ||= other.nan
    infinite ||= other.infinite
    if (floating) {
      exponent += other.exponent
      if (other.low != null) scale(other.low, if (other.high == null) other.low else other.high)
    } else {
      val mine = if (low == null) BigInteger.valueOf(small) else low
      val theirs = if (other.low == null) BigInteger.valueOf(other.small) else other.low
      low = mine.multiply(theirs)
      if (low.bitLength > 66) low = IntegerCap // beyond every i64 (the cap times anything non-zero stays beyond)
    }
  }

  /** The integer product (its magnitude capped at 2^66). */
  def integer: BigInteger = {
    if (zero) return BigInteger.ZERO
    val m = if (low == null) BigInteger.valueOf(small) else low
    if (negative) m.negate() else m
  }

  /** The floating-point product rounded in `mode`; None when the interval straddles a rounding boundary. */
  def floatingResult(mode: Int, single: Boolean): Option[Double] = {
    val sign = if (negative) -1.0 else 1.0
    if (nan || (infinite && zero)) return Some(Double.NaN)
    if (infinite) return Some(sign * Double.PositiveInfinity)
    if (zero) return Some(sign * 0.0)
    if (low == null) return Some(sign)
    val lo = rounded(low, mode, single)
    if (high == null) return Some(lo)
    val hi = rounded(high, mode, single)
    if (lo == hi) Some(lo) else None
  }

  /** ±m·2^exponent rounded; exponents far outside the formats' range clamped (they round alike). */
  private def rounded(m: BigInteger, mode: Int, single: Boolean): Double = {
    val top = exponent + m.bitLength
    val (mm, e) =
      if (top > 1200) (BigInteger.ONE, 1200L)
      else if (top < -1200) (BigInteger.ONE, -1200L)
      else (m, exponent)
    val magnitude =
      if (e >= 0) new JBigDecimal(mm.shiftLeft(e.toInt))
      else new JBigDecimal(mm.multiply(BigInteger.valueOf(5).pow((-e).toInt)), (-e).toInt)
    CorrectlyRounded.round(if (negative) magnitude.negate() else magnitude, mode, single)
  }

  def write(out: DataOutputStream): Unit = {
    out.writeBoolean(negative); out.writeBoolean(zero); out.writeBoolean(nan); out.writeBoolean(infinite)
    out.writeLong(small); out.writeLong(exponent)
    for (b <- Seq(low, high)) {
      if (b == null) out.writeInt(-1) else { val bytes = b.toByteArray; out.writeInt(bytes.length); out.write(bytes) }
    }
  }
}

object ProductState {
  private val Bits = 512
  private val IntegerCap = BigInteger.ONE.shiftLeft(66)

  def read(in: DataInputStream, floating: Boolean): ProductState = {
    val s = new ProductState(floating)
    s.negative = in.readBoolean(); s.zero = in.readBoolean(); s.nan = in.readBoolean(); s.infinite = in.readBoolean()
    s.small = in.readLong(); s.exponent = in.readLong()
    def big(): BigInteger = {
      val n = in.readInt()
      if (n < 0) null else { val bytes = new Array[Byte](n); in.readFully(bytes); new BigInteger(bytes) }
    }
    s.low = big()
    s.high = big()
    s
  }
}
