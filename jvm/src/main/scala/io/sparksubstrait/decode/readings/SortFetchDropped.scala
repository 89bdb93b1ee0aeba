package io.sparksubstrait.decode.readings

import io.sparksubstrait.proto.{Plan, Rel}

/**
 * A known DataFusion bug: its optimizer merges `ORDER BY … LIMIT n` into one Sort with a
 * fetch, and these releases write that Sort as a SortRel without the fetch, so the plan
 * asks for every row where the query asked for n. Nothing in the plan tells the two apart:
 * it runs as written, with a warning at each SortRel not under a FetchRel.
 */
private[sparksubstrait] object SortFetchDropped extends Reading {
  val name = "datafusion-sort-fetch-dropped"
  val releases = "DataFusion 42 and 43 (spec 0.55 to 0.58)"
  val meaning = "a LIMIT merged into a sort is not written (the plan returns every row); run as written"
  override def kind: Reading.Kind = Reading.KnownBug

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("datafusion", "0.55", "0.58")

  def lift(plan: Plan, found: String => Unit): Plan = {
    // Sorts directly under a FetchRel kept their limit; the others may have lost one.
    var underFetch = Set.empty[Rel]
    MessageRewrite(plan) {
      case rel: Rel if rel.hasFetch && rel.getFetch.getInput.hasSort => underFetch += rel.getFetch.getInput; rel
    }
    MessageRewrite(plan) {
      case rel: Rel if rel.hasSort && !underFetch.contains(rel) =>
        found(s"SortRel of ${rel.getSort.getSortsCount} keys without a FetchRel above it")
        rel
    }
  }
}
