package io.sparksubstrait.plan.readings

import io.sparksubstrait.proto.Plan

/**
 * Who wrote a plan, as `Plan.version` says: the producer's name (lower case; DuckDB writes
 * "DuckDB", DataFusion "datafusion", isthmus "isthmus") and the spec version it stamped.
 * Producers stamp no release of their own, but each release stamps the spec version it was
 * built with, so a range of stamps is a range of releases (the table in docs/producers.md,
 * measured by dev/producer-matrix).
 */
final case class ProducerStamp(producer: String, major: Int, minor: Int, patch: Int) {
  private def number: Long = major.toLong * 1000000L + minor * 1000L + patch

  /** Stamped by `name` with a spec version from `from` to `to` (inclusive, "0.51" or "0.63.1"). */
  def within(name: String, from: String, to: String): Boolean =
    producer == name && number >= ProducerStamp.parse(from) && number <= ProducerStamp.parse(to)

  override def toString: String = s"${if (producer.isEmpty) "(no producer)" else producer} (spec $major.$minor.$patch)"
}

object ProducerStamp {
  def of(plan: Plan): ProducerStamp = {
    val v = plan.getVersion
    ProducerStamp(v.getProducer.trim.toLowerCase, v.getMajorNumber, v.getMinorNumber, v.getPatchNumber)
  }

  /** The newest spec version a producer may stamp (an open upper end). */
  val Newest = "999.999.999"

  private def parse(version: String): Long = version.split('.').map(_.toLong).padTo(3, 0L) match {
    case Array(a, b, c) => a * 1000000L + b * 1000L + c
  }
}
