package io.sparksubstrait.convert.expr

import io.sparksubstrait.proto.Expression
import io.sparksubstrait.proto.Expression.WindowFunction.{Bound, BoundsType}
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, Cast, CurrentRow, Expression => CExpression, FrameType, Literal, RangeFrame, RowFrame, SortOrder,
  SpecifiedWindowFrame, UnaryMinus, UnboundedFollowing, UnboundedPreceding, WindowFrame
}
import org.apache.spark.sql.types.{
  ByteType, DateType, DayTimeIntervalType, IntegerType, LongType, NumericType, ShortType, TimestampNTZType,
  TimestampType, YearMonthIntervalType
}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * A window function's frame: lower defaults to the partition's start, upper to its end (the
 * spec's defaults, not SQL's). Offsets (`offset_expr`; the decoder lifted older plans' int64
 * `offset` into it) count rows (ROWS, and older plans without a bounds type) or are a distance
 * in the single order key's values (RANGE): numbers for numeric keys, intervals for dates and
 * timestamps. Spark evaluates a frame once, so an offset must be a constant; zero is the
 * current row, NULL and negative offsets are invalid (the spec's rules).
 */
private[sparksubstrait] object WindowBounds {
  def frame(boundsType: BoundsType, lower: Option[Bound], upper: Option[Bound], order: Seq[SortOrder],
    input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): WindowFrame = {
    val frameType: FrameType = boundsType match {
      case BoundsType.BOUNDS_TYPE_RANGE => RangeFrame
      // Before bounds types existed, offsets counted records.
      case _ => RowFrame
    }
    def bound(b: Option[Bound], isLower: Boolean, bAt: PlanPath): CExpression = b.map { bound =>
      bound.getKindCase match {
        case Bound.KindCase.UNBOUNDED | Bound.KindCase.KIND_NOT_SET =>
          if (isLower) UnboundedPreceding else UnboundedFollowing
        case Bound.KindCase.CURRENT_ROW => CurrentRow
        case Bound.KindCase.PRECEDING =>
          val p = bound.getPreceding
          offset(p.hasOffsetExpr, p.getOffsetExpr, preceding = true, frameType, order, input, bAt / "preceding")
        case Bound.KindCase.FOLLOWING =>
          val f = bound.getFollowing
          offset(f.hasOffsetExpr, f.getOffsetExpr, preceding = false, frameType, order, input, bAt / "following")
      }
    }.getOrElse(if (isLower) UnboundedPreceding else UnboundedFollowing)
    SpecifiedWindowFrame(frameType, bound(lower, isLower = true, at / "lower_bound"),
      bound(upper, isLower = false, at / "upper_bound"))
  }

  private def offset(has: Boolean, e: => Expression, preceding: Boolean, frameType: FrameType, order: Seq[SortOrder],
    input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    if (!has) throw SubstraitErrors.missingField(at, "offset_expr", "the bound's distance from the current row")
    val eAt = at / "offset_expr"
    val converted = ExpressionConverter.convert(e, input, eAt)
    if (!converted.foldable) {
      throw SubstraitErrors.unsupported(eAt, "an offset that varies by row",
        "a constant offset (Spark evaluates a window frame once)")
    }
    val value = Literal.create(converted.eval(), converted.dataType)
    if (value.value == null) throw SubstraitErrors.invalidPlan(eAt, "a NULL offset", "a non-negative offset")
    if (isNegative(value)) throw SubstraitErrors.invalidPlan(eAt, s"the offset ${value.sql}", "a non-negative offset")
    if (isZero(value)) return CurrentRow
    frameType match {
      case RowFrame => value.dataType match {
          case ByteType | ShortType | IntegerType | LongType =>
            val n = value.value.asInstanceOf[Number].longValue()
            if (n > Int.MaxValue) throw SubstraitErrors.unsupported(eAt, s"offset $n",
              s"an offset up to ${Int.MaxValue} rows (Spark's limit)")
            Literal(if (preceding) -n.toInt else n.toInt)
          case other => throw SubstraitErrors.typeMismatch(eAt, s"a ROWS offset of type ${other.simpleString}",
              "an integer number of rows (i64)")
        }
      case _ => order match {
          case Seq(key) => rangeOffset(value, preceding, key, eAt)
          case keys => throw SubstraitErrors.invalidPlan(at, s"a RANGE offset with ${keys.size} sort fields",
              "exactly one sort field")
        }
    }
  }

  /** A RANGE distance in the order key's terms: a number of a numeric key's type, an interval for a date or timestamp. */
  private def rangeOffset(value: Literal, preceding: Boolean, key: SortOrder, at: PlanPath): CExpression = {
    val signed: CExpression = if (preceding) UnaryMinus(value) else value
    (key.dataType, value.dataType) match {
      case (k: NumericType, _: NumericType) => Literal.create(Cast(signed, k).eval(), k)
      // Spark ranges over dates by whole days (an integer), over timestamps by intervals.
      case (DateType, _: DayTimeIntervalType) =>
        val micros = signed.eval().asInstanceOf[Long]
        if (micros % MicrosPerDay != 0) {
          throw SubstraitErrors.unsupported(at, s"a RANGE offset of ${value.sql} over a date key",
            "a whole number of days")
        }
        Literal((micros / MicrosPerDay).toInt)
      case (TimestampType | TimestampNTZType, _: DayTimeIntervalType | _: YearMonthIntervalType) =>
        Literal.create(signed.eval(), value.dataType)
      case (DateType, ByteType | ShortType | IntegerType | LongType) =>
        Literal.create(Cast(signed, IntegerType).eval(), IntegerType)
      case (k, v) => throw SubstraitErrors.unsupported(at,
          s"a RANGE offset of type ${v.simpleString} over an order key of type ${k.simpleString}",
          "a numeric offset over a numeric key, a day interval or a whole number over a date key, an interval over a timestamp key")
    }
  }

  private val MicrosPerDay = 86400L * 1000000L

  private def isNegative(v: Literal): Boolean = v.dataType match {
    case _: NumericType | _: DayTimeIntervalType | _: YearMonthIntervalType =>
      v.value match {
        case n: java.lang.Number => n.doubleValue() < 0
        case d: org.apache.spark.sql.types.Decimal => d.toBigDecimal < 0
        case _ => false
      }
    case _ => false
  }

  private def isZero(v: Literal): Boolean = v.value match {
    case n: java.lang.Number => n.doubleValue() == 0
    case d: org.apache.spark.sql.types.Decimal => d.toBigDecimal == 0
    case _ => false
  }
}
