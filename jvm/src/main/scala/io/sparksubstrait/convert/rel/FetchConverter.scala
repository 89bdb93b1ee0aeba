package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.{Expression, FetchRel}
import org.apache.spark.sql.catalyst.expressions.Literal
import org.apache.spark.sql.catalyst.plans.logical.{Limit, LogicalPlan, Offset}
import org.apache.spark.sql.types.{ByteType, IntegerType, LongType, ShortType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/**
 * FetchRel: skip `offset_expr` rows (absent or NULL: none), then return at most `count_expr`
 * (absent or NULL: all). The decoder lifted older plans' int64 `offset` / `count` into them.
 */
object FetchConverter {
  def convert(rel: FetchRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val offset = if (rel.hasOffsetExpr) constant(rel.getOffsetExpr, at / "offset_expr").getOrElse(0L) else 0L
    val count = if (rel.hasCountExpr) constant(rel.getCountExpr, at / "count_expr") else None
    if (offset < 0) throw SubstraitErrors.invalidPlan(at / "offset_expr", s"offset $offset", "an offset of 0 or more")
    count.filter(_ < 0).foreach(c => throw SubstraitErrors.invalidPlan(at / "count_expr", s"count $c", "a count of 0 or more, or NULL for all"))
    val withOffset = if (offset > 0) Offset(Literal(toInt(offset, at / "offset_expr")), child) else child
    count.fold(withOffset)(c => Limit(Literal(toInt(c, at / "count_expr")), withOffset))
  }

  /** Spark takes LIMIT and OFFSET as INT. */
  private def toInt(v: Long, at: PlanPath): Int = {
    if (v > Int.MaxValue) throw SubstraitErrors.unsupported(at, s"the value $v", s"a value up to ${Int.MaxValue} (Spark's limit)")
    v.toInt
  }

  /** A constant integer expression's value; None for NULL. */
  private def constant(e: Expression, at: PlanPath)(implicit ctx: ConversionContext): Option[Long] = {
    val c = ExpressionConverter.convert(e, Nil, at)
    if (!c.foldable || !Seq(ByteType, ShortType, IntegerType, LongType).contains(c.dataType)) {
      throw SubstraitErrors.invalidPlan(at, s"an expression of type ${c.dataType.simpleString}", "a constant integer expression")
    }
    Option(c.eval()).map(_.asInstanceOf[Number].longValue())
  }
}
