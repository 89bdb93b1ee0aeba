package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{Cast, EvalMode, Literal}
import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.proto.Expression.Cast.FailureBehavior
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.types.TypeWriter

/**
 * Casts, with the failure behaviour that gives Spark's values: an ANSI cast throws, a TRY
 * cast returns NULL. A legacy (non-ANSI) cast is written only where its failures are NULLs
 * (from strings, to decimals) or where it cannot fail (widening casts, casts to strings);
 * elsewhere it wraps or truncates (300 to TINYINT is 44), which no Substrait cast does.
 */
private[sparksubstrait] object CastWriter {
  def write(c: Cast, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    // Analyzed plans type SQL's bare NULL (void, which Substrait has no type for) by a cast:
    // NULL of the target type, the cast's only value. (Only of the literal: raise_error() is void too.)
    if (c.child == Literal(null, NullType)) return LiteralWriter.write(Literal(null, c.dataType), at)
    val from = c.child.dataType
    val behavior = c.evalMode match {
      case EvalMode.ANSI => FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION
      case EvalMode.TRY => FailureBehavior.FAILURE_BEHAVIOR_RETURN_NULL
      case _ if cannotFail(from, c.dataType) => FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION
      case _
          if from.isInstanceOf[StringType] ||
            (c.dataType.isInstanceOf[DecimalType] && from.isInstanceOf[NumericType]) =>
        FailureBehavior.FAILURE_BEHAVIOR_RETURN_NULL
      case _ => throw SubstraitErrors.unwritable(at.toString, s"the legacy cast ${c.sql}",
          s"a non-ANSI cast from ${from.simpleString} to ${c.dataType.simpleString} wraps or truncates values that do not fit, " +
            "which no Substrait failure behaviour does", "spark.sql.ansi.enabled=true, try_cast, or a widening cast")
    }
    SExpression.newBuilder().setCast(SExpression.Cast.newBuilder()
        .setInput(ExpressionWriter.write(c.child, input, at / "child"))
        .setType(TypeWriter.write(c.dataType, c.nullable, at))
        .setFailureBehavior(behavior)).build()
  }

  /** Casts whose every input has a value of the target type (the throwing behaviour never fires). */
  private def cannotFail(from: DataType, to: DataType): Boolean = (from, to) match {
    case (f, t) if f == t => true
    case (_: NumericType | BooleanType | DateType | TimestampType | TimestampNTZType | _: StringType, _: StringType) =>
      true
    case (f, t) => Cast.canUpCast(f, t)
  }
}
