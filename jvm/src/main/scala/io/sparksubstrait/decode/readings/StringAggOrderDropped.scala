package io.sparksubstrait.decode.readings

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{AggregateFunction, Plan}

/**
 * A known DuckDB bug: duckdb-extension-substrait writes `string_agg(x, sep ORDER BY y)` as
 * `string_agg(x)`, without its ORDER BY (and without its separator, which
 * FunctionSpellings reads as DuckDB's default ','). The plan asks for the values in any
 * order: it runs as written, with a warning at each such call.
 */
private[sparksubstrait] object StringAggOrderDropped extends FoundBug(Releases.DuckDb) {
  val name = "duckdb-string-agg-order-dropped"
  val meaning = "string_agg's ORDER BY is not written (the values come in any order); run as written"

  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Set("string_agg"))
    // No declaration, no call: nothing to look for.
    if (anchors.isEmpty) None
    else Some {
      case (f: AggregateFunction, _) if anchors(f.getFunctionReference) && f.getSortsCount == 0 =>
        found("string_agg without sort fields")
    }
  }
}
