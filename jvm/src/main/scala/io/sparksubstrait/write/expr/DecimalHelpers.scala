package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{Cast, EvalMode, Literal, MakeDecimal, UnscaledValue}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.{Decimal, DecimalType, LongType}

import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * The optimizer's decimal helpers (DecimalAggregates sums and averages small decimals as
 * their unscaled longs): written as the exact arithmetic they stand for. Both multiply by a
 * power of ten, which is exact in decimal arithmetic; the casts lose nothing but overflow
 * the way MakeDecimal does (NULL when it is asked to, else an error).
 */
private[sparksubstrait] object DecimalHelpers {

  /** x * 10^s as a long: x's unscaled value. */
  def unscaledValue(u: UnscaledValue, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val d = u.child.dataType.asInstanceOf[DecimalType]
    val scaleUp = Literal(Decimal(BigDecimal(10).pow(d.scale)), DecimalType(d.scale + 1, 0))
    ExpressionWriter.write(Cast(SparkShim.multiply(u.child, scaleUp, EvalMode.ANSI, SparkShim.sqlConf(ctx.session)),
        LongType, None, EvalMode.ANSI), input, at)
  }

  /** An unscaled long as DECIMAL(p, s): n * 10^-s, cast to the type. */
  def makeDecimal(m: MakeDecimal, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val scaleDown = Literal(Decimal(BigDecimal(1, m.scale)), DecimalType(math.max(m.scale, 1), m.scale))
    val exact =
      SparkShim.multiply(Cast(m.child, DecimalType(20, 0)), scaleDown, EvalMode.ANSI, SparkShim.sqlConf(ctx.session))
    ExpressionWriter.write(Cast(exact, DecimalType(m.precision, m.scale), None,
        if (m.nullOnOverflow) EvalMode.TRY else EvalMode.ANSI),
      input, at)
  }
}
