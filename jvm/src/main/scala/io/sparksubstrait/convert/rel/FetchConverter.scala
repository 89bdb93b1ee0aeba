package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.FetchRel
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * FetchRel: skip `offset_expr` records, then return at most `count_expr` ([[FetchBounds]]).
 * The decoder lifted older plans' int64 `offset` / `count` into them.
 */
private[sparksubstrait] object FetchConverter {
  def convert(rel: FetchRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    FetchBounds.read(Options.when(rel.hasOffsetExpr)(rel.getOffsetExpr), at / "offset_expr",
      Options.when(rel.hasCountExpr)(rel.getCountExpr), at / "count_expr").applyTo(child)
  }
}
