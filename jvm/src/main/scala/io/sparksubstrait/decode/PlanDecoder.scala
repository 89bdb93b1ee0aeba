package io.sparksubstrait.decode

import scala.util.control.NonFatal

import com.google.protobuf.{CodedInputStream, InvalidProtocolBufferException}
import com.google.protobuf.util.JsonParsers

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.decode.readings.ProducerReadings
import io.sparksubstrait.proto.Plan
import io.sparksubstrait.util.Options
import io.sparksubstrait.foundation.SpecRelease

/**
 * Turns plan bytes or plan JSON into a [[DecodedPlan]] of the pinned spec's messages.
 *
 * Our message classes also know the fields older spec releases wrote and the pinned one
 * removed; [[LegacyLifting]] lifts them into their current form, so converters see one shape.
 * Any other field the classes do not know comes from a newer spec, or is garbage: an error
 * naming where it was found ([[PlanTreeCheck]]), never silently dropped.
 * Then real producers' departures from the spec are lifted into its shape by the readings
 * that apply to the plan's producer and release ([[ProducerReadings]]).
 */
private[sparksubstrait] object PlanDecoder {
  def fromBytes(bytes: Array[Byte], limits: PlanLimits): DecodedPlan = {
    if (bytes == null) throw SubstraitErrors.malformedPlan("binary", "the plan is null", null)
    checkSize(bytes.length.toLong, "bytes", limits)
    val plan = try {
      val in = CodedInputStream.newInstance(bytes)
      // Protobuf parses nested messages recursively: one level past the limit is enough
      // for PlanTreeCheck to report the exact depth; anything deeper stops here.
      in.setRecursionLimit(limits.maxDepth + 1)
      val p = Plan.parseFrom(in)
      in.checkLastTagWas(0)
      p
    } catch {
      case e: InvalidProtocolBufferException if isRecursionLimit(e) => throw tooDeep(limits, e)
      case e: InvalidProtocolBufferException =>
        throw SubstraitErrors.malformedPlan("binary", e.getMessage, e)
      case e: StackOverflowError => throw stackExhausted(limits, e)
    }
    checked(plan, limits)
  }

  def fromJson(text: String, limits: PlanLimits): DecodedPlan = {
    if (text == null) throw SubstraitErrors.malformedPlan("JSON", "the plan is null", null)
    checkSize(text.length.toLong, "characters", limits)
    // JsonFormat reads through Gson, which stops at 255 nested JSON levels whatever the
    // setting, and recurses per level: so bound it first.
    val depth = JsonDepth(text)
    if (depth > JsonNestingLimit) {
      throw SubstraitErrors.planTooLarge(s"JSON nested $depth levels deep", s"$JsonNestingLimit levels for JSON plans",
        s"send deeper plans in the binary encoding, which allows ${PlanLimits.MaxDepthKey} message levels")
    }
    val builder = Plan.newBuilder()
    try JsonParsers.withRecursionLimit(limits.maxDepth + 1).merge(text, builder)
    catch {
      case e: InvalidProtocolBufferException if isRecursionLimit(e) => throw tooDeep(limits, e)
      case e: StackOverflowError => throw stackExhausted(limits, e)
      // JsonFormat also throws unchecked exceptions for some malformed values.
      case NonFatal(e) => throw SubstraitErrors.malformedPlan("JSON", e.getMessage, e)
    }
    JsonNegativeZeros.restore(text, builder)
    checked(builder.build(), limits)
  }

  /**
   * The tree check, then the legacy fields lifted when the check met any, shared
   * definitions inlined when the plan has any (the unfolded tree is checked again), and
   * the producer's readings (decode/readings) lifted into the spec's meaning.
   */
  private def checked(plan: Plan, limits: PlanLimits): DecodedPlan = {
    val facts = PlanTreeCheck(plan, limits)
    val lifted =
      if (!facts.hasLegacyFields) plan
      else if (facts.legacyBelowDeclarations) LegacyLifting(plan, enterLeaves = facts.legacyInLeaves)
      else LegacyLifting.declarations(plan)
    val (plain, plainFacts) =
      if (!facts.usesSharedDefinitions && !SharedDefinitions.defines(lifted)) (lifted, facts)
      else {
        val unfolded = SharedDefinitions(lifted, limits)
        (unfolded, PlanTreeCheck(unfolded, limits))
      }
    val sharesSubtrees = plainFacts.holds(io.sparksubstrait.proto.ReferenceRel.getDescriptor)
    if (sharesSubtrees) ReferencedSubtrees.check(plain, limits)
    // The legacy lift creates no message type a reading keys on (Reading.needs): the facts still hold.
    val (read, applied) = ProducerReadings.atDecode(plain, plainFacts.holds)
    DecodedPlan(read, namedTables = plainFacts.namedTables, readings = applied, sharesSubtrees = sharesSubtrees)
  }

  /** Gson's JsonReader default (JsonFormat gives no way to change it). */
  private val JsonNestingLimit = 255

  private def checkSize(size: Long, unit: String, limits: PlanLimits): Unit =
    if (size > limits.maxBytes) {
      throw SubstraitErrors.planTooLarge(s"a plan of $size $unit", s"${limits.maxBytes} $unit",
        PlanLimits.raise(PlanLimits.MaxBytesKey, "heap"))
    }

  private[decode] def tooDeep(limits: PlanLimits, cause: Throwable) =
    SubstraitErrors.planTooLarge(s"messages nested more than ${limits.maxDepth} levels deep",
      s"${limits.maxDepth} levels", PlanLimits.raise(PlanLimits.MaxDepthKey, "thread stack"), cause)

  /** A backstop for a depth limit raised beyond what the thread's stack holds: the parse unwinds cleanly. */
  private def stackExhausted(limits: PlanLimits, e: StackOverflowError) =
    SubstraitErrors.planTooLarge("a plan nested too deeply for the decoding thread's stack",
      s"${limits.maxDepth} levels",
      s"lower ${PlanLimits.MaxDepthKey} or give the driver thread a larger stack", e)

  /** Protobuf's (binary and JSON) own depth guard; its message is all that tells it apart. */
  private def isRecursionLimit(e: InvalidProtocolBufferException): Boolean =
    Option(e.getMessage).exists(m => m.contains("too many levels of nesting") || m.contains("recursion limit"))

  /** The spec version of the protos this consumer is built with. */
  val SupportedVersion: String = SpecRelease.Pinned.toString

  /** The plan's spec version when it is newer than [[SupportedVersion]]. */
  private[decode] def newerVersion(plan: Plan): Option[String] = {
    val theirs = SpecRelease.of(plan.getVersion)
    Options.when(theirs > SpecRelease.Pinned)(theirs.toString)
  }
}
