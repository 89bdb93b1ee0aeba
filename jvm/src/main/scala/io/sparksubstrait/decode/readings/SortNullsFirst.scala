package io.sparksubstrait.decode.readings

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Plan, SortField}

/**
 * A known ibis-substrait bug: every sort key is written NULLS FIRST, ascending or
 * descending (`order_by(desc(x))`, a SQL `ORDER BY x DESC` read by ibis), where ibis' DuckDB
 * engine puts NULLs last. The plan states its NULL order explicitly, so it asks another
 * question than its expression whenever a key holds NULLs: it runs as written, with a
 * warning at each such key.
 */
private[sparksubstrait] object SortNullsFirst extends FoundBug(Releases.Ibis) {
  val name = "ibis-sort-nulls-first"
  val meaning = "every sort key written NULLS FIRST where ibis' engine puts NULLs last; run as written"

  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] = Some {
    case (s: SortField, at)
        if s.getDirection == SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST ||
          s.getDirection == SortField.SortDirection.SORT_DIRECTION_DESC_NULLS_FIRST =>
      found(s"$at: ${s.getDirection.name.stripPrefix("SORT_DIRECTION_")}")
  }
}
