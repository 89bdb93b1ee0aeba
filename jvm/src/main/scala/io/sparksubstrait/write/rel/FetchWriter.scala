package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.plans.logical.{GlobalLimit, LocalLimit, Offset}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{Expression => SExpression, FetchRel, Rel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.LiteralWriter

/**
 * LIMIT and OFFSET as FetchRel. Spark's LIMIT is a GlobalLimit over LocalLimits the
 * optimizer pushes down (LimitPushDown, through unions, projections and outer joins). A
 * LocalLimit under a GlobalLimit is written as a fetch of its count: Spark's answer must not
 * depend on the partitioning, and with one partition a local limit is that fetch. A LocalLimit
 * alone (a per-partition limit) has no Substrait meaning.
 */
private[sparksubstrait] object FetchWriter {
  def globalLimit(l: GlobalLimit, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    fetch(ctx.withGlobalLimit(true)(RelWriter.write(l.child, at)), None, Some(count(l.limitExpr, at)), at)

  def localLimit(l: LocalLimit, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    if (!ctx.underGlobalLimit) {
      throw SubstraitErrors.unwritable(at.toString, "a LocalLimit without a GlobalLimit above it",
        "a per-partition limit returns a number of rows that depends on the partitioning", "LIMIT (a GlobalLimit)")
    }
    fetch(RelWriter.write(l.child, at), None, Some(count(l.limitExpr, at)), at)
  }

  def offset(o: Offset, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    fetch(RelWriter.write(o.child, at), Some(count(o.offsetExpr, at)), None, at)

  private def count(e: Expression, at: CatalystPath): Long =
    if (e.foldable) e.eval() match {
      case n: java.lang.Number => n.longValue
      case other =>
        throw SubstraitErrors.unwritable(at.toString, s"the limit ${e.sql}", s"it evaluates to $other", "an integer")
    }
    else
      throw SubstraitErrors.unwritable(at.toString, s"the limit ${e.sql}", "it is not a constant", "a constant limit")

  private def fetch(input: Rel, offset: Option[Long], count: Option[Long], at: CatalystPath)(
    implicit ctx: WriteContext): Rel = {
    val b = FetchRel.newBuilder().setInput(input)
    def literal(n: Long): SExpression = LiteralWriter.write(org.apache.spark.sql.catalyst.expressions.Literal(n), at)
    if (ctx.target.legacyFetch) {
      offset.foreach(b.setOffset)
      b.setCount(count.getOrElse(-1L))
    } else {
      offset.foreach(o => b.setOffsetExpr(literal(o)))
      count.foreach(c => b.setCountExpr(literal(c)))
    }
    Rel.newBuilder().setFetch(b).build()
  }
}
