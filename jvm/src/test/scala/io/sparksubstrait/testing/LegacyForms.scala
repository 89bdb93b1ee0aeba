package io.sparksubstrait.testing

import scala.jdk.CollectionConverters._

import com.google.protobuf.{Descriptors, Message}

import io.sparksubstrait.proto._
import io.sparksubstrait.proto.Expression.{Literal, ScalarFunction, WindowFunction}

/**
 * Plans rewritten into the encodings older spec releases wrote (the fields the pinned spec
 * removed), so that a test can check that the decoder's lifting gives the same rows as the
 * current form. Each rewrite is the inverse of one lift of io.sparksubstrait.decode.LegacyLifts.
 */
object LegacyForms {

  /** Every function's arguments as the pre-0.2x `args` list, enum arguments as `Expression.enum`. */
  def args(plan: Plan): Plan = rewrite(plan) {
    case f: ScalarFunction => f.toBuilder.clearArguments().addAllArgs(asArgs(f.getArgumentsList).asJava).build()
    case f: AggregateFunction => f.toBuilder.clearArguments().addAllArgs(asArgs(f.getArgumentsList).asJava).build()
    case f: WindowFunction => f.toBuilder.clearArguments().addAllArgs(asArgs(f.getArgumentsList).asJava).build()
  }

  /** Precision-6 timestamps and times (types and literals) as the microsecond `timestamp`, `timestamp_tz`, `time`. */
  def microsecondTemporals(plan: Plan): Plan = rewrite(plan) {
    case t: Type if t.hasPrecisionTimestamp && t.getPrecisionTimestamp.getPrecision == 6 =>
      val p = t.getPrecisionTimestamp
      Type.newBuilder().setTimestamp(Type.Timestamp.newBuilder().setNullability(p.getNullability)
          .setTypeVariationReference(p.getTypeVariationReference)).build()
    case t: Type if t.hasPrecisionTimestampTz && t.getPrecisionTimestampTz.getPrecision == 6 =>
      val p = t.getPrecisionTimestampTz
      Type.newBuilder().setTimestampTz(Type.TimestampTZ.newBuilder().setNullability(p.getNullability)
          .setTypeVariationReference(p.getTypeVariationReference)).build()
    case l: Literal if l.hasPrecisionTimestamp && l.getPrecisionTimestamp.getPrecision == 6 =>
      l.toBuilder.clearPrecisionTimestamp().setTimestamp(l.getPrecisionTimestamp.getValue).build()
    case l: Literal if l.hasPrecisionTimestampTz && l.getPrecisionTimestampTz.getPrecision == 6 =>
      l.toBuilder.clearPrecisionTimestampTz().setTimestampTz(l.getPrecisionTimestampTz.getValue).build()
    case i: Literal.IntervalDayToSecond if i.getPrecision == 6 =>
      i.toBuilder.clearPrecision().clearSubseconds().setMicroseconds(i.getSubseconds.toInt).build()
  }

  /** User-defined types without parameters as `user_defined_type_reference`. */
  def typeReferences(plan: Plan): Plan = rewrite(plan) {
    case t: Type if t.hasUserDefined && t.getUserDefined.getTypeParametersCount == 0 =>
      Type.newBuilder().setUserDefinedTypeReference(t.getUserDefined.getTypeReference).build()
  }

  private def asArgs(arguments: java.util.List[FunctionArgument]): Seq[Expression] = arguments.asScala.toSeq.map { a =>
    if (a.hasEnum) Expression.newBuilder().setEnum(Expression.Enum.newBuilder().setSpecified(a.getEnum)).build()
    else a.getValue
  }

  /** Children first, then `f` where it applies. */
  private def rewrite(plan: Plan)(f: PartialFunction[Message, Message]): Plan = {
    def walk(m: Message): Message = {
      val b = m.toBuilder
      m.getAllFields.asScala.foreach { case (fd, v) =>
        if (fd.getJavaType == Descriptors.FieldDescriptor.JavaType.MESSAGE) {
          if (fd.isRepeated) v.asInstanceOf[java.util.List[Message]].asScala.zipWithIndex.foreach { case (c, i) =>
            b.setRepeatedField(fd, i, walk(c))
          }
          else b.setField(fd, walk(v.asInstanceOf[Message]))
        }
      }
      val done = b.build()
      f.applyOrElse(done, identity[Message])
    }
    walk(plan).asInstanceOf[Plan]
  }
}
