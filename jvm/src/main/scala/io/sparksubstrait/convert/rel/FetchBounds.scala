package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.Expression
import org.apache.spark.sql.catalyst.expressions.Literal
import org.apache.spark.sql.catalyst.plans.logical.{Limit, LogicalPlan, Offset}
import org.apache.spark.sql.types.{ByteType, IntegerType, LongType, ShortType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * The offset and count that FetchRel and TopNRel share: constant integer expressions; an
 * absent or NULL offset skips nothing, an absent or NULL count returns every record, and a
 * negative one is the plan's error (the spec's rules).
 */
private[sparksubstrait] object FetchBounds {

  /** @param count None: every record */
  final case class Bounds(offset: Long, count: Option[Long], offsetAt: PlanPath, countAt: PlanPath) {

    /** `child` without its first `offset` records, then at most `count` of them. */
    def applyTo(child: LogicalPlan): LogicalPlan = {
      val withOffset = if (offset > 0) Offset(Literal(toInt(offset, offsetAt)), child) else child
      count.fold(withOffset)(c => Limit(Literal(toInt(c, countAt)), withOffset))
    }
  }

  def read(offset: Option[Expression], offsetAt: PlanPath, count: Option[Expression], countAt: PlanPath)(
    implicit ctx: ConversionContext): Bounds = {
    val skip = offset.flatMap(constant(_, offsetAt)).getOrElse(0L)
    val take = count.flatMap(constant(_, countAt))
    if (skip < 0) throw SubstraitErrors.invalidPlan(offsetAt, s"offset $skip", "an offset of 0 or more")
    take.filter(_ < 0).foreach(c =>
      throw SubstraitErrors.invalidPlan(countAt, s"count $c", "a count of 0 or more, or NULL for all"))
    Bounds(skip, take, offsetAt, countAt)
  }

  /** Spark takes LIMIT and OFFSET as INT. */
  def toInt(v: Long, at: PlanPath): Int = {
    if (v > Int.MaxValue)
      throw SubstraitErrors.unsupported(at, s"the value $v", s"a value up to ${Int.MaxValue} (Spark's limit)")
    v.toInt
  }

  /** A constant integer expression's value; None for NULL. */
  private def constant(e: Expression, at: PlanPath)(implicit ctx: ConversionContext): Option[Long] = {
    val c = ExpressionConverter.convert(e, Nil, at)
    if (!c.foldable || !Seq(ByteType, ShortType, IntegerType, LongType).contains(c.dataType)) {
      throw SubstraitErrors.invalidPlan(at, s"an expression of type ${c.dataType.simpleString}",
        "a constant integer expression")
    }
    Option(c.eval()).map(_.asInstanceOf[Number].longValue())
  }
}
