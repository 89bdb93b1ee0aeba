package io.sparksubstrait.decode.readings

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Expression, Plan, Type}

/**
 * A known ibis-substrait bug: an arithmetic or comparison of a decimal with a float has its
 * float operand cast to the decimal's type (ibis-substrait's "upcast" of binary operations),
 * where ibis' engine computes in floating point. For a literal whose digits the decimal's
 * scale cannot hold the value changes: TPC-H Q11's `total * 0.0001`, total DECIMAL(38,2), is
 * written `total * CAST(0.0001 AS DECIMAL(38,2))`, that is `total * 0.00`, so every group
 * passes the threshold. A cast's meaning is the spec's, so it runs as written, with a
 * warning at each such literal (a float column cast so cannot be told from one the user
 * asked for: no warning).
 */
private[sparksubstrait] object FloatLiteralDecimalCast extends FoundBug(Releases.Ibis) {
  val name = "ibis-float-literal-decimal-cast"
  val meaning =
    "a float literal beside a decimal cast to the decimal's type, whose scale drops its digits; run as written"

  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] = Some {
    case (c: Expression.Cast, at)
        if c.getType.getKindCase == Type.KindCase.DECIMAL && c.getInput.hasLiteral &&
          dropsDigits(c.getInput.getLiteral, c.getType.getDecimal.getScale) =>
      val d = c.getType.getDecimal
      found(s"$at: ${literalText(c.getInput.getLiteral)} cast to DECIMAL(${d.getPrecision},${d.getScale})")
  }

  private def literalText(l: Expression.Literal): String =
    if (l.getLiteralTypeCase == Expression.Literal.LiteralTypeCase.FP64) java.lang.Double.toString(l.getFp64)
    else java.lang.Float.toString(l.getFp32)

  /** The literal's shortest decimal spelling has more fractional digits than `scale` (NaN and infinities are the cast's own error). */
  private def dropsDigits(l: Expression.Literal, scale: Int): Boolean = {
    val v: Option[Double] = l.getLiteralTypeCase match {
      case Expression.Literal.LiteralTypeCase.FP64 => Some(l.getFp64)
      case Expression.Literal.LiteralTypeCase.FP32 => Some(l.getFp32.toDouble)
      case _ => None
    }
    v.exists { x =>
      !x.isNaN && !x.isInfinite && new java.math.BigDecimal(literalText(l)).stripTrailingZeros.scale > scale
    }
  }
}
