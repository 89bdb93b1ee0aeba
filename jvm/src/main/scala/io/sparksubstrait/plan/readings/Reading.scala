package io.sparksubstrait.plan.readings

import io.sparksubstrait.proto.Plan

/**
 * One producer reading: a shape a real producer release writes that the spec does not say
 * (or says otherwise), and how it is lifted into the spec's own shape before conversion, so
 * that converters see one shape. Kinds:
 *  - Honoured: the meaning is unambiguous for that producer and release; lifted.
 *  - KnownBug: the plan asks another question than the query it came from; run as written,
 *    with a warning naming the bug and the releases that have it.
 */
trait Reading {
  /** A stable name: explain output, the DataFrame's plan string and docs/producers.md use it. */
  def name: String
  /** The releases that write it, as users name them (documentation). */
  def releases: String
  /** What the producer writes and how it is read (one sentence, for explain and the docs). */
  def meaning: String
  def kind: Reading.Kind = Reading.Honoured
  /** Whether plans of this stamp are read this way. */
  def appliesTo(stamp: ProducerStamp): Boolean
  /** The plan lifted into the spec's shape; `found` hears of each place, described. */
  def lift(plan: Plan, found: String => Unit): Plan
}

object Reading {
  sealed trait Kind
  case object Honoured extends Kind
  case object KnownBug extends Kind
}

/** A reading that applied to a plan, and the places it changed, for explain and the plan string. */
final case class AppliedReading(name: String, releases: String, meaning: String, kind: Reading.Kind, where: Seq[String]) {
  def isWarning: Boolean = kind == Reading.KnownBug
  def summary: String = s"$name (${releases})"
}
