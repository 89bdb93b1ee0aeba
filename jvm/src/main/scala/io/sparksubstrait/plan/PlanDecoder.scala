package io.sparksubstrait.plan

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.fasterxml.jackson.core.{JsonFactory, StreamReadConstraints}
import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.ObjectNode
import com.google.protobuf.{CodedInputStream, InvalidProtocolBufferException, UnknownFieldSet}
import com.google.protobuf.util.JsonParsers
import io.substrait.proto.{Plan, SimpleExtensionDeclaration, SimpleExtensionURN}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.readings.ProducerReadings
import io.sparksubstrait.util.Options

/**
 * Turns plan bytes or plan JSON into a [[DecodedPlan]].
 *
 * Plans written against older spec versions carry fields the current proto removed. The
 * ones with a meaning we can honour (extension URIs) are lifted into [[LegacyExtensions]];
 * any other field the current proto does not know is an error naming where it was found,
 * never silently dropped. Then real producers' departures from the spec are lifted into its
 * shape by the readings that apply to the plan's producer and release ([[ProducerReadings]]).
 */
object PlanDecoder {
  private val json = {
    // Jackson reads any depth without recursing; PlanLimits bounds it right after.
    val factory = new JsonFactory()
    factory.setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(Int.MaxValue).build())
    new ObjectMapper(factory)
  }

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
    val tables = PlanTreeCheck(plan, limits)
    val (withoutLegacy, legacy) = liftBinaryLegacy(plan)
    val (lifted, applied) = ProducerReadings.atDecode(withoutLegacy)
    DecodedPlan(lifted, legacy, namedTables = tables, readings = applied)
  }

  def fromJson(text: String, limits: PlanLimits): DecodedPlan = {
    if (text == null) throw SubstraitErrors.malformedPlan("JSON", "the plan is null", null)
    checkSize(text.length.toLong, "characters", limits)
    val tree = try json.readTree(text) catch {
      case NonFatal(e) => throw SubstraitErrors.malformedPlan("JSON", e.getMessage, e)
    }
    if (tree == null || !tree.isObject) {
      throw SubstraitErrors.malformedPlan("JSON", "the text is not a JSON object", null)
    }
    // JsonFormat reads through Gson, which stops at 255 nested JSON levels whatever the
    // setting; writing the tree back out below also recurses per level. So bound it first.
    val depth = jsonDepth(tree)
    if (depth > JsonNestingLimit) {
      throw SubstraitErrors.planTooLarge(s"JSON nested $depth levels deep", s"$JsonNestingLimit levels for JSON plans",
        s"send deeper plans in the binary encoding, which allows ${PlanLimits.MaxDepthKey} message levels")
    }
    val legacy = liftJsonLegacy(tree.asInstanceOf[ObjectNode])
    val builder = Plan.newBuilder()
    try JsonParsers.withRecursionLimit(limits.maxDepth + 1).merge(json.writeValueAsString(tree), builder) catch {
      case e: InvalidProtocolBufferException if isRecursionLimit(e) => throw tooDeep(limits, e)
      case e: StackOverflowError => throw stackExhausted(limits, e)
      // JsonFormat also throws unchecked exceptions for some malformed values.
      case NonFatal(e) => throw SubstraitErrors.malformedPlan("JSON", e.getMessage, e)
    }
    val plan = builder.build()
    val tables = PlanTreeCheck(plan, limits)
    val (lifted, applied) = ProducerReadings.atDecode(plan)
    DecodedPlan(lifted, legacy, namedTables = tables, readings = applied)
  }

  /** Gson's JsonReader default (JsonFormat gives no way to change it). */
  private val JsonNestingLimit = 255

  private def checkSize(size: Long, unit: String, limits: PlanLimits): Unit =
    if (size > limits.maxBytes) {
      throw SubstraitErrors.planTooLarge(s"a plan of $size $unit", s"${limits.maxBytes} $unit",
        PlanLimits.raise(PlanLimits.MaxBytesKey, "heap"))
    }

  private[plan] def tooDeep(limits: PlanLimits, cause: Throwable) =
    SubstraitErrors.planTooLarge(s"messages nested more than ${limits.maxDepth} levels deep",
      s"${limits.maxDepth} levels", PlanLimits.raise(PlanLimits.MaxDepthKey, "thread stack"), cause)

  /** A backstop for a depth limit raised beyond what the thread's stack holds: the parse unwinds cleanly. */
  private def stackExhausted(limits: PlanLimits, e: StackOverflowError) =
    SubstraitErrors.planTooLarge("a plan nested too deeply for the decoding thread's stack", s"${limits.maxDepth} levels",
      s"lower ${PlanLimits.MaxDepthKey} or give the driver thread a larger stack", e)

  /** Protobuf's (binary and JSON) own depth guard; its message is all that tells it apart. */
  private def isRecursionLimit(e: InvalidProtocolBufferException): Boolean =
    Option(e.getMessage).exists(m => m.contains("too many levels of nesting") || m.contains("recursion limit"))

  /** The deepest nesting of JSON objects and arrays, walked without recursion. */
  private def jsonDepth(root: JsonNode): Int = {
    val stack = new java.util.ArrayDeque[(JsonNode, Int)]()
    stack.push(root -> 1)
    var max = 0
    while (!stack.isEmpty) {
      val (node, depth) = stack.pop()
      max = math.max(max, depth)
      if (node.isContainerNode) node.elements().asScala.foreach(child => stack.push(child -> (depth + 1)))
    }
    max
  }

  /** Reads `Plan.extension_uris` and `extension_uri_reference` from unknown fields. */
  private def liftBinaryLegacy(plan: Plan): (Plan, LegacyExtensions) = {
    val uriField = Option(plan.getUnknownFields.getField(LegacyFieldNumbers.PlanExtensionUris))
      .filter(_ => plan.getUnknownFields.hasField(LegacyFieldNumbers.PlanExtensionUris))
    val declarationsWithRef = plan.getExtensionsList.asScala.exists(d => declarationUnknowns(d)
      .hasField(LegacyFieldNumbers.DeclarationUriReference))
    if (uriField.isEmpty && !declarationsWithRef) return (plan, LegacyExtensions())

    val uris = uriField.toSeq.flatMap(_.getLengthDelimitedList.asScala).zipWithIndex.map {
      case (bytes, i) =>
        // SimpleExtensionURI had the same wire shape as SimpleExtensionURN.
        val decl = try SimpleExtensionURN.parseFrom(bytes) catch {
          case e: InvalidProtocolBufferException =>
            throw SubstraitErrors.malformedPlan("binary", s"extension_uris[$i]: ${e.getMessage}", e)
        }
        decl.getExtensionUrnAnchor -> decl.getUrn
    }.toMap

    var functionRefs = Map.empty[Int, Int]
    var typeRefs = Map.empty[Int, Int]
    val builder = plan.toBuilder
    builder.setUnknownFields(without(plan.getUnknownFields, LegacyFieldNumbers.PlanExtensionUris))
    plan.getExtensionsList.asScala.zipWithIndex.foreach { case (decl, i) =>
      val unknowns = declarationUnknowns(decl)
      if (unknowns.hasField(LegacyFieldNumbers.DeclarationUriReference)) {
        val ref = unknowns.getField(LegacyFieldNumbers.DeclarationUriReference).getVarintList
          .asScala.lastOption.map(_.toInt).getOrElse(0)
        val cleaned = without(unknowns, LegacyFieldNumbers.DeclarationUriReference)
        val declBuilder = decl.toBuilder
        decl.getMappingTypeCase match {
          case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_FUNCTION =>
            functionRefs += decl.getExtensionFunction.getFunctionAnchor -> ref
            declBuilder.setExtensionFunction(decl.getExtensionFunction.toBuilder.setUnknownFields(cleaned))
          case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_TYPE =>
            typeRefs += decl.getExtensionType.getTypeAnchor -> ref
            declBuilder.setExtensionType(decl.getExtensionType.toBuilder.setUnknownFields(cleaned))
          case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_TYPE_VARIATION =>
            typeRefs += decl.getExtensionTypeVariation.getTypeVariationAnchor -> ref
            declBuilder.setExtensionTypeVariation(
              decl.getExtensionTypeVariation.toBuilder.setUnknownFields(cleaned))
          case _ =>
        }
        builder.setExtensions(i, declBuilder)
      }
    }
    (builder.build(), LegacyExtensions(uris, functionRefs, typeRefs))
  }

  private def declarationUnknowns(d: SimpleExtensionDeclaration): UnknownFieldSet =
    d.getMappingTypeCase match {
      case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_FUNCTION => d.getExtensionFunction.getUnknownFields
      case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_TYPE => d.getExtensionType.getUnknownFields
      case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_TYPE_VARIATION => d.getExtensionTypeVariation.getUnknownFields
      case _ => UnknownFieldSet.getDefaultInstance
    }

  private def without(set: UnknownFieldSet, number: Int): UnknownFieldSet =
    UnknownFieldSet.newBuilder(set).clearField(number).build()

  /** Removes the legacy URI fields from the JSON tree, remembering what they said. */
  private def liftJsonLegacy(root: ObjectNode): LegacyExtensions = {
    def take(obj: ObjectNode, names: Seq[String]): Option[JsonNode] =
      names.iterator.map(n => Option(obj.remove(n))).collectFirst { case Some(v) => v }
    def intOf(node: JsonNode, names: Seq[String]): Int =
      names.iterator.map(node.get).find(_ != null).map(_.asInt()).getOrElse(0)

    val uris = take(root, LegacyFieldNumbers.PlanExtensionUrisJson).toSeq
      .flatMap(_.elements().asScala).map { u =>
        val uri = Option(u.get("uri")).map(_.asText()).getOrElse("")
        intOf(u, LegacyFieldNumbers.UriAnchorJson) -> uri
      }.toMap
    var functionRefs = Map.empty[Int, Int]
    var typeRefs = Map.empty[Int, Int]
    Option(root.get("extensions")).toSeq.flatMap(_.elements().asScala).foreach { decl =>
      def lift(kinds: Seq[String], anchors: Seq[String])(record: (Int, Int) => Unit): Unit =
        kinds.iterator.map(decl.get).find(n => n != null && n.isObject).foreach { body =>
          take(body.asInstanceOf[ObjectNode], LegacyFieldNumbers.UriReferenceJson)
            .foreach(ref => record(intOf(body, anchors), ref.asInt()))
        }
      lift(Seq("extensionFunction", "extension_function"), Seq("functionAnchor", "function_anchor"))(
        (a, r) => functionRefs += a -> r)
      lift(Seq("extensionType", "extension_type"), Seq("typeAnchor", "type_anchor"))(
        (a, r) => typeRefs += a -> r)
      lift(Seq("extensionTypeVariation", "extension_type_variation"),
        Seq("typeVariationAnchor", "type_variation_anchor"))((a, r) => typeRefs += a -> r)
    }
    LegacyExtensions(uris, functionRefs, typeRefs)
  }

  /** The spec version of the protos this consumer is built with. */
  val SupportedVersion: String = io.substrait.SubstraitVersion.VERSION

  /** The plan's spec version when it is newer than [[SupportedVersion]]. */
  private[plan] def newerVersion(plan: Plan): Option[String] = {
    val v = plan.getVersion
    val mine = SupportedVersion.split('.').map(_.toInt)
    val theirs = Array(v.getMajorNumber, v.getMinorNumber, v.getPatchNumber)
    val cmp = theirs.zip(mine).map { case (a, b) => Integer.compare(a, b) }.find(_ != 0).getOrElse(0)
    Options.when(cmp > 0)(theirs.mkString("."))
  }
}
