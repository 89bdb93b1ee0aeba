package io.sparksubstrait.convert.rel

import io.substrait.proto.{Expression, FetchRel}
import org.apache.spark.sql.catalyst.expressions.Literal
import org.apache.spark.sql.catalyst.plans.logical.{Limit, LogicalPlan, Offset}
import org.apache.spark.sql.types.{ByteType, IntegerType, LongType, ShortType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/**
 * FetchRel: skip `offset` rows, then return at most `count` (-1 or absent: all). Both the
 * older int64 fields and the newer expression fields are read.
 */
object FetchConverter {
  def convert(rel: FetchRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val offset = rel.getOffsetModeCase match {
      case FetchRel.OffsetModeCase.OFFSET => rel.getOffset
      case FetchRel.OffsetModeCase.OFFSET_EXPR => constant(rel.getOffsetExpr, at / "offset_expr")
      case _ => 0L
    }
    val count = rel.getCountModeCase match {
      case FetchRel.CountModeCase.COUNT => rel.getCount
      case FetchRel.CountModeCase.COUNT_EXPR => constant(rel.getCountExpr, at / "count_expr")
      case _ => -1L
    }
    if (offset < 0) throw SubstraitErrors.invalidPlan(at / "offset", s"offset $offset", "an offset of 0 or more")
    if (count < -1) throw SubstraitErrors.invalidPlan(at / "count", s"count $count", "a count of 0 or more, or -1 for all")
    val withOffset = if (offset > 0) Offset(Literal(toInt(offset, at / "offset")), child) else child
    if (count == -1) withOffset else Limit(Literal(toInt(count, at / "count")), withOffset)
  }

  /** Spark takes LIMIT and OFFSET as INT. */
  private def toInt(v: Long, at: PlanPath): Int = {
    if (v > Int.MaxValue) throw SubstraitErrors.unsupported(at, s"the value $v", s"a value up to ${Int.MaxValue} (Spark's limit)")
    v.toInt
  }

  private def constant(e: Expression, at: PlanPath)(implicit ctx: ConversionContext): Long = {
    val c = ExpressionConverter.convert(e, Nil, at)
    if (!c.foldable || !Seq(ByteType, ShortType, IntegerType, LongType).contains(c.dataType)) {
      throw SubstraitErrors.invalidPlan(at, s"an expression of type ${c.dataType.simpleString}", "a constant integer expression")
    }
    Option(c.eval()).map(_.asInstanceOf[Number].longValue())
      .getOrElse(throw SubstraitErrors.invalidPlan(at, "NULL", "a constant integer"))
  }
}
