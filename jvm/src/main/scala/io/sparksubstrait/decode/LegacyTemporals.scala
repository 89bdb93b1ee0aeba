package io.sparksubstrait.decode

import io.sparksubstrait.proto.Type
import io.sparksubstrait.proto.Expression.Literal

/**
 * The microsecond `timestamp`, `timestamp_tz` and `time` of older spec releases are the
 * precision forms at precision 6 (microseconds): the same values, the current encoding.
 * A `user_defined_type_reference` is a user-defined type with no parameters.
 */
private[decode] object LegacyTemporals {
  private val Micros = 6

  def literal(l: Literal): Literal = l.getLiteralTypeCase match {
    case Literal.LiteralTypeCase.TIMESTAMP =>
      l.toBuilder.clearTimestamp().setPrecisionTimestamp(timestamp(l.getTimestamp)).build()
    case Literal.LiteralTypeCase.TIMESTAMP_TZ =>
      l.toBuilder.clearTimestampTz().setPrecisionTimestampTz(timestamp(l.getTimestampTz)).build()
    case Literal.LiteralTypeCase.TIME =>
      l.toBuilder.clearTime().setPrecisionTime(
        Literal.PrecisionTime.newBuilder().setPrecision(Micros).setValue(l.getTime)).build()
    case _ => l
  }

  private def timestamp(micros: Long) = Literal.PrecisionTimestamp.newBuilder().setPrecision(Micros).setValue(micros)

  def tpe(t: Type): Type = t.getKindCase match {
    case Type.KindCase.TIMESTAMP =>
      val old = t.getTimestamp
      t.toBuilder.clearTimestamp().setPrecisionTimestamp(Type.PrecisionTimestamp.newBuilder().setPrecision(Micros)
          .setNullability(old.getNullability).setTypeVariationReference(old.getTypeVariationReference)).build()
    case Type.KindCase.TIMESTAMP_TZ =>
      val old = t.getTimestampTz
      t.toBuilder.clearTimestampTz().setPrecisionTimestampTz(Type.PrecisionTimestampTZ.newBuilder().setPrecision(Micros)
          .setNullability(old.getNullability).setTypeVariationReference(old.getTypeVariationReference)).build()
    case Type.KindCase.TIME =>
      val old = t.getTime
      t.toBuilder.clearTime().setPrecisionTime(Type.PrecisionTime.newBuilder().setPrecision(Micros)
          .setNullability(old.getNullability).setTypeVariationReference(old.getTypeVariationReference)).build()
    case Type.KindCase.USER_DEFINED_TYPE_REFERENCE =>
      t.toBuilder.clearUserDefinedTypeReference()
        .setUserDefined(Type.UserDefined.newBuilder().setTypeReference(t.getUserDefinedTypeReference)).build()
    case _ => t
  }
}
