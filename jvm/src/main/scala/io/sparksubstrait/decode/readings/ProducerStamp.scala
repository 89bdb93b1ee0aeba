package io.sparksubstrait.decode.readings

import io.sparksubstrait.foundation.SpecRelease
import io.sparksubstrait.proto.Plan

/**
 * Who wrote a plan, as `Plan.version` says: the producer's name (lower case; DuckDB writes
 * "DuckDB", DataFusion "datafusion", isthmus "isthmus") and the spec version it stamped.
 * Producers stamp no release of their own, but each release stamps the spec version it was
 * built with, so a range of stamps is a range of releases (the table in docs/producers.md,
 * measured by dev/producer-matrix).
 */
private[sparksubstrait] final case class ProducerStamp(producer: String, release: SpecRelease) {

  /** Stamped by `name` with a spec version from `from` to `to` (inclusive, "0.51" or "0.63.1"). */
  def within(name: String, from: String, to: String): Boolean =
    producer == name && release >= SpecRelease.parse(from) && release <= SpecRelease.parse(to)

  /**
   * Whether the producer writes its optimizer's output (DuckDB, DataFusion) rather than the
   * query as written: its join and conjunct orders are choices made for its engine, which the
   * plan shapes (shape/PlanShapes) may remake for Spark's.
   */
  def writesOptimizedPlans: Boolean = producer == "duckdb" || producer == "datafusion"

  override def toString: String = s"${if (producer.isEmpty) "(no producer)" else producer} (spec $release)"
}

private[sparksubstrait] object ProducerStamp {
  def of(plan: Plan): ProducerStamp =
    ProducerStamp(plan.getVersion.getProducer.trim.toLowerCase, SpecRelease.of(plan.getVersion))

  /** The newest spec version a producer may stamp (an open upper end). */
  val Newest: String = SpecRelease.Newest.toString
}
