package io.sparksubstrait.plan

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.ObjectNode
import com.google.protobuf.{CodedInputStream, InvalidProtocolBufferException, Message, UnknownFieldSet}
import com.google.protobuf.Descriptors.FieldDescriptor
import com.google.protobuf.util.JsonFormat
import io.substrait.proto.{Plan, SimpleExtensionDeclaration, SimpleExtensionURN}

import io.sparksubstrait.errors.SubstraitErrors

/**
 * Turns plan bytes or plan JSON into a [[DecodedPlan]].
 *
 * Plans written against older spec versions carry fields the current proto removed. The
 * ones with a meaning we can honour (extension URIs) are lifted into [[LegacyExtensions]];
 * any other field the current proto does not know is an error naming where it was found,
 * never silently dropped.
 */
object PlanDecoder {
  /** Protobuf's default is 100; real plans (deep expression trees) nest deeper. */
  private val MaxProtoRecursion = 10000
  private val json = new ObjectMapper()

  def fromBytes(bytes: Array[Byte]): DecodedPlan = {
    if (bytes == null) throw SubstraitErrors.malformedPlan("binary", "the plan is null", null)
    val plan = try {
      val in = CodedInputStream.newInstance(bytes)
      in.setRecursionLimit(MaxProtoRecursion)
      val p = Plan.parseFrom(in)
      in.checkLastTagWas(0)
      p
    } catch {
      case e: InvalidProtocolBufferException =>
        throw SubstraitErrors.malformedPlan("binary", e.getMessage, e)
    }
    val (withoutLegacy, legacy) = liftBinaryLegacy(plan)
    rejectUnknownFields(withoutLegacy, PlanPath.root)
    DecodedPlan(withoutLegacy, legacy)
  }

  def fromJson(text: String): DecodedPlan = {
    if (text == null) throw SubstraitErrors.malformedPlan("JSON", "the plan is null", null)
    val tree = try json.readTree(text) catch {
      case NonFatal(e) => throw SubstraitErrors.malformedPlan("JSON", e.getMessage, e)
    }
    if (tree == null || !tree.isObject) {
      throw SubstraitErrors.malformedPlan("JSON", "the text is not a JSON object", null)
    }
    val legacy = liftJsonLegacy(tree.asInstanceOf[ObjectNode])
    val builder = Plan.newBuilder()
    try JsonFormat.parser().merge(json.writeValueAsString(tree), builder) catch {
      // JsonFormat also throws unchecked exceptions for some malformed values.
      case NonFatal(e) => throw SubstraitErrors.malformedPlan("JSON", e.getMessage, e)
    }
    DecodedPlan(builder.build(), legacy)
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

  /**
   * Any field left unknown after lifting the legacy ones comes from a spec version whose
   * meaning we cannot know: refuse it, naming where it was.
   */
  private def rejectUnknownFields(message: Message, at: PlanPath): Unit = {
    val unknowns = message.getUnknownFields
    if (unknowns.asMap().size() > 0) {
      val number = unknowns.asMap().keySet().iterator().next()
      throw SubstraitErrors.unknownField(at,
        s"number $number of ${message.getDescriptorForType.getFullName}")
    }
    message.getAllFields.asScala.foreach { case (field, value) =>
      if (field.getJavaType == FieldDescriptor.JavaType.MESSAGE) {
        if (field.isRepeated) {
          value.asInstanceOf[java.util.List[_]].asScala.zipWithIndex.foreach {
            case (m: Message, i) => rejectUnknownFields(m, at.at(field.getName, i))
            case _ =>
          }
        } else {
          rejectUnknownFields(value.asInstanceOf[Message], at / field.getName)
        }
      }
    }
  }
}
