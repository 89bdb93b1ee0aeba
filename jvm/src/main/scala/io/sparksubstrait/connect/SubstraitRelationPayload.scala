package io.sparksubstrait.connect

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.google.protobuf.{Any => ProtoAny, DescriptorProtos, Descriptors, DynamicMessage, InvalidProtocolBufferException}
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.{Label, Type}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.decode.PlanPath

/**
 * The message a Spark Connect client wraps in `Relation.extension` (a `google.protobuf.Any`)
 * to run a Substrait plan; docs/connect.md shows it as a .proto file:
 *
 * {{{
 * syntax = "proto2";
 * package spark_substrait.connect;
 * // type URL: type.googleapis.com/spark_substrait.connect.SubstraitRelation
 * message SubstraitRelation {
 *   oneof plan { bytes plan_binary = 1; string plan_json = 2; }
 *   optional int32 root = 3;              // 0-based among the plan's roots; unset: its one root
 *   repeated Parameter parameters = 4;    // dynamic parameter values, override the plan's bindings
 *   message Parameter {
 *     optional int32 anchor = 1;
 *     oneof value { bool is_null = 2; bool bool_value = 3; int64 int_value = 4;
 *                   double double_value = 5; string string_value = 6; }
 *   }
 * }
 * }}}
 *
 * proto2, because `root` needs presence and proto3's `optional` would need synthetic oneofs.
 * The descriptor is built here rather than generated: the build has no protoc, and the
 * Python client builds the same one (spark_substrait/_connect_proto.py); the Connect tests
 * prove they agree. This file has no Spark Connect imports: the plugin is in the spark-4
 * source folder.
 */
object SubstraitRelationPayload {
  val FullName = "spark_substrait.connect.SubstraitRelation"
  val TypeUrl = s"type.googleapis.com/$FullName"

  /** A decoded payload: the plan (bytes or JSON), the chosen root, parameter values by anchor. */
  final case class Payload(plan: Either[Array[Byte], String], root: Option[Int], parameters: Map[Int, Any])

  private val expected = s"a serialized $FullName message (docs/connect.md)"

  private val file: Descriptors.FileDescriptor = {
    import DescriptorProtos.{DescriptorProto, FieldDescriptorProto, FileDescriptorProto, OneofDescriptorProto}
    def field(name: String, number: Int, t: Type, oneof: Option[Int] = None,
        label: Label = Label.LABEL_OPTIONAL, typeName: String = null): FieldDescriptorProto = {
      val f = FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(t).setLabel(label)
      oneof.foreach(f.setOneofIndex)
      Option(typeName).foreach(f.setTypeName)
      f.build()
    }
    val parameter = DescriptorProto.newBuilder().setName("Parameter")
      .addField(field("anchor", 1, Type.TYPE_INT32))
      .addOneofDecl(OneofDescriptorProto.newBuilder().setName("value"))
      .addField(field("is_null", 2, Type.TYPE_BOOL, Some(0)))
      .addField(field("bool_value", 3, Type.TYPE_BOOL, Some(0)))
      .addField(field("int_value", 4, Type.TYPE_INT64, Some(0)))
      .addField(field("double_value", 5, Type.TYPE_DOUBLE, Some(0)))
      .addField(field("string_value", 6, Type.TYPE_STRING, Some(0)))
    val message = DescriptorProto.newBuilder().setName("SubstraitRelation")
      .addOneofDecl(OneofDescriptorProto.newBuilder().setName("plan"))
      .addField(field("plan_binary", 1, Type.TYPE_BYTES, Some(0)))
      .addField(field("plan_json", 2, Type.TYPE_STRING, Some(0)))
      .addField(field("root", 3, Type.TYPE_INT32))
      .addField(field("parameters", 4, Type.TYPE_MESSAGE, label = Label.LABEL_REPEATED,
        typeName = s".$FullName.Parameter"))
      .addNestedType(parameter)
    val write = DescriptorProto.newBuilder().setName("SubstraitWrite")
      .addField(field("relation", 1, Type.TYPE_BYTES))
      .addField(field("analyzed", 2, Type.TYPE_BOOL))
      .addField(field("target", 3, Type.TYPE_STRING))
      .addField(field("json", 4, Type.TYPE_BOOL))
    val file = FileDescriptorProto.newBuilder().setName("spark_substrait/connect/substrait_relation.proto")
      .setPackage("spark_substrait.connect").setSyntax("proto2").addMessageType(message).addMessageType(write).build()
    Descriptors.FileDescriptor.buildFrom(file, Array.empty)
  }
  private val relation: Descriptors.Descriptor = file.findMessageTypeByName("SubstraitRelation")
  private val write: Descriptors.Descriptor = file.findMessageTypeByName("SubstraitWrite")

  /** The descriptor of the message, for tests and clients written on the JVM. */
  def descriptor: Descriptors.Descriptor = relation

  /**
   * The payload of `any` (a serialized `google.protobuf.Any`), or None when it is not our
   * message: Spark asks every registered plugin, and the others' messages are not our errors.
   * A payload of our type that cannot be used is the project's error.
   */
  def unpack(any: Array[Byte]): Option[Payload] = {
    val parsed = try Some(ProtoAny.parseFrom(any)) catch { case _: InvalidProtocolBufferException => None }
    parsed.filter(a => typeName(a.getTypeUrl) == FullName).map(a => decode(a.getValue.toByteArray))
  }

  val WriteFullName = "spark_substrait.connect.SubstraitWrite"

  /**
   * A request to write a Connect client's DataFrame as a Substrait plan: its relation (a
   * serialized `spark.connect.Relation`), the analyzed plan rather than the optimized one, the
   * target encoding (null: the pinned spec), JSON rather than binary.
   */
  final case class WriteRequest(relation: Array[Byte], analyzed: Boolean, target: String, json: Boolean)

  /** The write request in `any`, or None when it holds another message. */
  def unpackWrite(any: Array[Byte]): Option[WriteRequest] = {
    val parsed = try Some(ProtoAny.parseFrom(any)) catch { case _: InvalidProtocolBufferException => None }
    parsed.filter(a => typeName(a.getTypeUrl) == WriteFullName).map { a =>
      val message = try DynamicMessage.parseFrom(write, a.getValue) catch {
        case NonFatal(e) => throw SubstraitErrors.invalidPlan(PlanPath.root,
          s"a $WriteFullName payload that cannot be decoded (${e.getMessage})", s"a serialized $WriteFullName message (docs/connect.md)")
      }
      rejectUnknown(message, WriteFullName)
      def get(name: String) = write.findFieldByName(name)
      def has(name: String) = message.hasField(get(name))
      if (!has("relation")) {
        throw SubstraitErrors.invalidPlan(PlanPath.root, s"a $WriteFullName without a relation", "the DataFrame's relation to write")
      }
      WriteRequest(
        message.getField(get("relation")).asInstanceOf[com.google.protobuf.ByteString].toByteArray,
        has("analyzed") && message.getField(get("analyzed")) == java.lang.Boolean.TRUE,
        if (has("target")) message.getField(get("target")).asInstanceOf[String] else null,
        has("json") && message.getField(get("json")) == java.lang.Boolean.TRUE)
    }
  }

  /** Everything after the last '/' of a type URL names the message (protobuf's Any contract). */
  private def typeName(url: String): String = url.substring(url.lastIndexOf('/') + 1)

  /** The payload's bytes (the Any's value) as a [[Payload]]. */
  def decode(bytes: Array[Byte]): Payload = {
    val message = try DynamicMessage.parseFrom(relation, bytes) catch {
      case NonFatal(e) => throw SubstraitErrors.invalidPlan(PlanPath.root,
        s"a $FullName payload that cannot be decoded (${e.getMessage})", expected)
    }
    rejectUnknown(message, FullName)
    def get(name: String) = relation.findFieldByName(name)
    val plan =
      if (message.hasField(get("plan_binary"))) Left(message.getField(get("plan_binary")).asInstanceOf[com.google.protobuf.ByteString].toByteArray)
      else if (message.hasField(get("plan_json"))) Right(message.getField(get("plan_json")).asInstanceOf[String])
      else throw SubstraitErrors.invalidPlan(PlanPath.root, s"a $FullName with neither plan_binary nor plan_json", expected)
    val root = if (message.hasField(get("root"))) Some(message.getField(get("root")).asInstanceOf[Integer].intValue) else None
    val parameters = message.getField(get("parameters")).asInstanceOf[java.util.List[_]].asScala.toSeq
      .zipWithIndex.map { case (p, i) => parameter(p.asInstanceOf[DynamicMessage], i) }
    parameters.groupBy(_._1).collectFirst { case (anchor, vs) if vs.size > 1 =>
      throw SubstraitErrors.invalidPlan(PlanPath.root, s"$FullName.parameters with anchor $anchor ${vs.size} times",
        "each dynamic parameter anchor at most once")
    }
    Payload(plan, root, parameters.toMap)
  }

  private def parameter(p: DynamicMessage, i: Int): (Int, Any) = {
    val where = s"$FullName.parameters[$i]"
    rejectUnknown(p, where)
    val d = p.getDescriptorForType
    if (!p.hasField(d.findFieldByName("anchor"))) {
      throw SubstraitErrors.invalidPlan(PlanPath.root, s"$where without an anchor", "the anchor of a dynamic parameter")
    }
    val anchor = p.getField(d.findFieldByName("anchor")).asInstanceOf[Integer].intValue
    val value = Option(p.getOneofFieldDescriptor(d.getOneofs.get(0))) match {
      case None => throw SubstraitErrors.invalidPlan(PlanPath.root, s"$where (anchor $anchor) without a value",
        "one of is_null, bool_value, int_value, double_value, string_value")
      case Some(f) if f.getName == "is_null" =>
        if (p.getField(f) == java.lang.Boolean.TRUE) null
        else throw SubstraitErrors.invalidPlan(PlanPath.root, s"$where (anchor $anchor) with is_null = false", "is_null = true or another value field")
      case Some(f) => p.getField(f)  // java.lang.Boolean, Long, Double or String
    }
    anchor -> value
  }

  /** A field we do not know (from a newer client?) may change the meaning: refuse, never drop it. */
  private def rejectUnknown(m: DynamicMessage, where: String): Unit = {
    val unknown = m.getUnknownFields.asMap.keySet.asScala
    if (unknown.nonEmpty) {
      throw SubstraitErrors.unsupported(PlanPath.root, s"$where with unknown field number(s) ${unknown.toSeq.sorted.mkString(", ")}",
        s"only the fields of $FullName in docs/connect.md")
    }
  }
}
