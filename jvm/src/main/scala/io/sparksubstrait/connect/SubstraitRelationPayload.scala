package io.sparksubstrait.connect

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.google.protobuf.{Any => ProtoAny, Descriptors, InvalidProtocolBufferException, UnknownFieldSet}

import io.sparksubstrait.connect.proto.{SubstraitRelation, SubstraitWrite}
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * The messages a Spark Connect client wraps in `Relation.extension` (a `google.protobuf.Any`):
 * `SubstraitRelation` runs a plan, `SubstraitWrite` writes the client's DataFrame as one. Both
 * are defined in proto/spark_substrait/connect/substrait_relation.proto, from which the build
 * generates their classes (and the descriptor the Python client loads). This file has no Spark
 * Connect imports: the plugin is in the spark-4 source folder.
 */
private[sparksubstrait] object SubstraitRelationPayload {
  val FullName: String = SubstraitRelation.getDescriptor.getFullName
  val TypeUrl = s"type.googleapis.com/$FullName"

  /** A decoded payload: the plan (bytes or JSON), the chosen root, parameter values by anchor. */
  final case class Payload(plan: Either[Array[Byte], String], root: Option[Int], parameters: Map[Int, Any])

  private val expected = s"a serialized $FullName message (docs/connect.md)"

  /** The descriptor of the message, for tests and clients written on the JVM. */
  def descriptor: Descriptors.Descriptor = SubstraitRelation.getDescriptor

  /**
   * The payload of `any` (a serialized `google.protobuf.Any`), or None when it is not our
   * message: Spark asks every registered plugin, and the others' messages are not our errors.
   * A payload of our type that cannot be used is the project's error.
   */
  def unpack(any: Array[Byte]): Option[Payload] = {
    val parsed = try Some(ProtoAny.parseFrom(any))
    catch { case _: InvalidProtocolBufferException => None }
    parsed.filter(a => typeName(a.getTypeUrl) == FullName).map(a => decode(a.getValue.toByteArray))
  }

  val WriteFullName: String = SubstraitWrite.getDescriptor.getFullName

  /**
   * A request to write a Connect client's DataFrame as a Substrait plan: its relation (a
   * serialized `spark.connect.Relation`), the analyzed plan rather than the optimized one, the
   * target encoding (null: the pinned spec), JSON rather than binary.
   */
  final case class WriteRequest(relation: Array[Byte], analyzed: Boolean, target: String, json: Boolean)

  /** The write request in `any`, or None when it holds another message. */
  def unpackWrite(any: Array[Byte]): Option[WriteRequest] = {
    val parsed = try Some(ProtoAny.parseFrom(any))
    catch { case _: InvalidProtocolBufferException => None }
    parsed.filter(a => typeName(a.getTypeUrl) == WriteFullName).map { a =>
      val message = try SubstraitWrite.parseFrom(a.getValue)
      catch {
        case NonFatal(e) => throw SubstraitErrors.invalidPlan(PlanPath.root,
            s"a $WriteFullName payload that cannot be decoded (${e.getMessage})",
            s"a serialized $WriteFullName message (docs/connect.md)")
      }
      rejectUnknown(message.getUnknownFields, WriteFullName)
      if (!message.hasRelation) {
        throw SubstraitErrors.invalidPlan(PlanPath.root, s"a $WriteFullName without a relation",
          "the DataFrame's relation to write")
      }
      WriteRequest(message.getRelation.toByteArray, message.getAnalyzed,
        if (message.hasTarget) message.getTarget else null, message.getJson)
    }
  }

  /** Everything after the last '/' of a type URL names the message (protobuf's Any contract). */
  private def typeName(url: String): String = url.substring(url.lastIndexOf('/') + 1)

  /** The payload's bytes (the Any's value) as a [[Payload]]. */
  def decode(bytes: Array[Byte]): Payload = {
    val message = try SubstraitRelation.parseFrom(bytes)
    catch {
      case NonFatal(e) => throw SubstraitErrors.invalidPlan(PlanPath.root,
          s"a $FullName payload that cannot be decoded (${e.getMessage})", expected)
    }
    rejectUnknown(message.getUnknownFields, FullName)
    val plan = message.getPlanCase match {
      case SubstraitRelation.PlanCase.PLAN_BINARY => Left(message.getPlanBinary.toByteArray)
      case SubstraitRelation.PlanCase.PLAN_JSON => Right(message.getPlanJson)
      case _ => throw SubstraitErrors.invalidPlan(PlanPath.root, s"a $FullName with neither plan_binary nor plan_json",
          expected)
    }
    val root = if (message.hasRoot) Some(message.getRoot) else None
    val parameters = message.getParametersList.asScala.toSeq.zipWithIndex.map { case (p, i) => parameter(p, i) }
    parameters.groupBy(_._1).collectFirst {
      case (anchor, vs) if vs.size > 1 =>
        throw SubstraitErrors.invalidPlan(PlanPath.root, s"$FullName.parameters with anchor $anchor ${vs.size} times",
          "each dynamic parameter anchor at most once")
    }
    Payload(plan, root, parameters.toMap)
  }

  private def parameter(p: SubstraitRelation.Parameter, i: Int): (Int, Any) = {
    import SubstraitRelation.Parameter.ValueCase
    val where = s"$FullName.parameters[$i]"
    rejectUnknown(p.getUnknownFields, where)
    if (!p.hasAnchor) {
      throw SubstraitErrors.invalidPlan(PlanPath.root, s"$where without an anchor", "the anchor of a dynamic parameter")
    }
    val anchor = p.getAnchor
    // Boxed as the plan's parameter binding expects: java.lang.Boolean, Long, Double or String.
    val value: Any = p.getValueCase match {
      case ValueCase.IS_NULL =>
        if (p.getIsNull) null
        else throw SubstraitErrors.invalidPlan(PlanPath.root, s"$where (anchor $anchor) with is_null = false",
          "is_null = true or another value field")
      case ValueCase.BOOL_VALUE => java.lang.Boolean.valueOf(p.getBoolValue)
      case ValueCase.INT_VALUE => java.lang.Long.valueOf(p.getIntValue)
      case ValueCase.DOUBLE_VALUE => java.lang.Double.valueOf(p.getDoubleValue)
      case ValueCase.STRING_VALUE => p.getStringValue
      case _ => throw SubstraitErrors.invalidPlan(PlanPath.root, s"$where (anchor $anchor) without a value",
          "one of is_null, bool_value, int_value, double_value, string_value")
    }
    anchor -> value
  }

  /** A field we do not know (from a newer client?) may change the meaning: refuse, never drop it. */
  private def rejectUnknown(unknownFields: UnknownFieldSet, where: String): Unit = {
    val unknown = unknownFields.asMap.keySet.asScala
    if (unknown.nonEmpty) {
      throw SubstraitErrors.unsupported(PlanPath.root,
        s"$where with unknown field number(s) ${unknown.toSeq.sorted.mkString(", ")}",
        s"only the fields of $FullName in docs/connect.md")
    }
  }
}
