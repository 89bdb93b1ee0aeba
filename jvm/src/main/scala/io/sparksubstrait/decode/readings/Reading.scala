package io.sparksubstrait.decode.readings

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Expression, Plan}

/**
 * One producer reading: a shape a real producer release writes that the spec does not say
 * (or says otherwise), and how it is lifted into the spec's own shape before conversion, so
 * that converters see one shape. Kinds:
 *  - Honoured: the meaning is unambiguous for that producer and release; lifted.
 *  - KnownBug: the plan asks another question than the query it came from; run as written,
 *    with a warning naming the bug and the releases that have it.
 */
private[sparksubstrait] trait Reading {

  /** A stable name: explain output, the DataFrame's plan string and docs/producers.md use it. */
  def name: String

  /** The releases that write it, as users name them (documentation). */
  def releases: String

  /** What the producer writes and how it is read (one sentence, for explain and the docs). */
  def meaning: String
  def kind: Reading.Kind = Reading.Honoured

  /** Whether plans of this stamp are read this way. */
  def appliesTo(stamp: ProducerStamp): Boolean

  /**
   * Message types of which a plan must hold one for this reading to change it; the decoder skips
   * the walk of a plan holding none (empty: every plan is walked). Only types that neither the
   * legacy lift nor any reading creates where the plan had none (casts), so that the decoder's one
   * census of the checked plan answers for every reading.
   */
  def needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set.empty

  /** The plan lifted into the spec's shape; `found` hears of each place, described. */
  def lift(plan: Plan, found: String => Unit): Plan
}

private[sparksubstrait] object Reading {
  sealed trait Kind
  case object Honoured extends Kind
  case object KnownBug extends Kind
}

/** A reading that applied to a plan, and the places it changed, for explain and the plan string. */
private[sparksubstrait] final case class AppliedReading(name: String, releases: String, meaning: String,
  kind: Reading.Kind,
  where: Seq[String]) {
  def isWarning: Boolean = kind == Reading.KnownBug
  def summary: String = s"$name (${releases})"
}

/** A range of releases several readings are keyed on: how the docs name it and the stamps that identify it. */
private[sparksubstrait] final case class Releases(describe: String, applies: ProducerStamp => Boolean)

private[sparksubstrait] object Releases {
  val DuckDb: Releases = Releases("DuckDB 1.0 to 1.1.3 with duckdb-extension-substrait (spec 0.48 to 0.53)",
    _.within("duckdb", "0.0", ProducerStamp.Newest))
  // 2.20 and 2.24 stamp no producer: nothing identifies their plans (docs/producers.md).
  val Ibis: Releases = Releases("ibis-substrait 2.29.1 to 4.0.1 (the releases that stamp producer \"ibis-substrait\")",
    _.within("ibis-substrait", "0.0", ProducerStamp.Newest))
  // Every isthmus stamp: its readings find a shape no correct plan has, so an earlier release without the bug is never warned.
  val Isthmus: Releases = Releases("isthmus (substrait-java; measured on 0.89.1, Calcite 1.41)",
    _.within("isthmus", "0.0", ProducerStamp.Newest))
}

/** A reading keyed on one shared range of releases. */
private[sparksubstrait] abstract class ReadingOf(range: Releases) extends Reading {
  val releases: String = range.describe
  def appliesTo(stamp: ProducerStamp): Boolean = range.applies(stamp)
}

/**
 * A reading that lifts one message at a time (never a leaf), seeing it after its children were
 * lifted by itself and by the other such readings: readings of this kind that follow one another
 * in ProducerReadings.all share one walk, each applied to a message in that order (DuckDB's
 * project and predicate readings were two walks, a sixth of decoding its plans). What its
 * rewrite reads of the plan beyond the message (the extension declarations) no such reading changes.
 */
private[sparksubstrait] trait LiftsOneAtATime extends Reading {

  /** The rewrite of `plan`'s messages, each place told to `found`; None when the plan cannot hold one. */
  def rewrite(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Message]]
  final def lift(plan: Plan, found: String => Unit): Plan = MessageRewrite.liftAll(plan, rewrite(plan, found).toSeq)
}

/**
 * A known bug found one message at a time (never a leaf, MessageRewrite.isLeaf), the plan run
 * as written. Every such reading that applies to a plan looks at it in one walk shared with the
 * others, after the readings that lift it (ProducerReadings.atDecode): a walk is a pass over the
 * whole plan, and ibis' five of them were a fifth of decoding its plans.
 */
private[sparksubstrait] abstract class FoundBug(range: Releases) extends ReadingOf(range) {
  final override def kind: Reading.Kind = Reading.KnownBug

  /** What to look for in `plan`, each place told to `found`; None when the plan cannot hold one (no declaration). */
  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]]
  final def lift(plan: Plan, found: String => Unit): Plan = {
    MessageRewrite.findAll(plan, finder(plan, found).toSeq); plan
  }

  /** A finder of the calls of the functions `plan` declares under `names`: None when it declares none (no call to find). */
  protected def callsOf(plan: Plan, names: Set[String])(look: (Expression.ScalarFunction, PlanPath) => Unit)
    : Option[PartialFunction[(Message, PlanPath), Unit]] = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, names)
    if (anchors.isEmpty) None
    else Some { case (f: Expression.ScalarFunction, at) if anchors(f.getFunctionReference) => look(f, at) }
  }
}
