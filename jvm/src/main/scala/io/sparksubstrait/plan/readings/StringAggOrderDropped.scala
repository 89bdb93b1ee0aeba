package io.sparksubstrait.plan.readings

import io.sparksubstrait.proto.{AggregateFunction, Plan}

/**
 * A known DuckDB bug: duckdb-extension-substrait writes `string_agg(x, sep ORDER BY y)` as
 * `string_agg(x)`, without its ORDER BY (and without its separator, which
 * FunctionSpellings reads as DuckDB's default ','). The plan asks for the values in any
 * order: it runs as written, with a warning at each such call.
 */
object StringAggOrderDropped extends ReadingOf(Releases.DuckDb) {
  val name = "duckdb-string-agg-order-dropped"
  val meaning = "string_agg's ORDER BY is not written (the values come in any order); run as written"
  override def kind: Reading.Kind = Reading.KnownBug

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Set("string_agg"))
    // No declaration, no call: the walk is skipped.
    if (anchors.isEmpty) plan
    else MessageRewrite.skippingLeaves(plan) {
      case f: AggregateFunction if anchors(f.getFunctionReference) && f.getSortsCount == 0 =>
        found("string_agg without sort fields")
        f
    }
  }
}
