package io.sparksubstrait.decode

import java.util.concurrent.ConcurrentHashMap

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message
import com.google.protobuf.Descriptors.{Descriptor, FieldDescriptor}
import io.sparksubstrait.proto.{Expression, NamedStruct, Plan, ReadRel, Rel, Type}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * One walk over a decoded plan's whole message tree, with an explicit stack (never the
 * thread's): refuses nesting deeper than the limit, and any field or enum value our message
 * classes do not know, which comes from a spec version whose meaning we cannot know. Errors
 * name the first offending place in field order. It also notes whether any legacy field
 * (one the pinned spec removed) is set, for [[LegacyLifting]].
 *
 * A plan stamped with a newer spec version than [[PlanDecoder.SupportedVersion]] is read
 * when all of it is understood (newer versions mostly add); the first thing that is not is
 * refused with both versions named.
 *
 * The walk also notes the names of the tables the plan reads, so that conversion can look
 * them all up at once.
 *
 * Every read pays for this walk, so it visits only what can hold a message or an enum:
 * per message type the fields of those kinds are listed once, and a oneof (most of a plan:
 * relation, expression, literal and type kinds) costs one lookup of its set field.
 */
private[decode] object PlanTreeCheck {

  /**
   * What the walk found: the names of every NamedTable in the order met, whether a legacy
   * field is set, and whether a shared definition is used ([[SharedDefinitions]]).
   */
  final case class Facts(namedTables: Seq[Seq[String]], hasLegacyFields: Boolean, usesSharedDefinitions: Boolean,
    legacyBelowDeclarations: Boolean, messageTypes: java.util.Set[Descriptor], legacyInLeaves: Boolean) {

    /** Whether the plan holds a message of this type (the producer readings skip plans holding none of theirs). */
    def holds(d: Descriptor): Boolean = messageTypes.contains(d)
  }

  def apply(plan: Plan, limits: PlanLimits): Facts = {
    val tables = Seq.newBuilder[Seq[String]]
    var legacy = false
    // A legacy field outside the plan message and its extension declarations (older
    // producers' extension URIs are most of them): only then does the lift walk the relations.
    var legacyBelow = false
    // A legacy field in a type, literal, schema or reference path (MessageRewrite.isLeaf): only then
    // does the lift enter those, a third or more of a plan's messages.
    var legacyInLeaves = false
    var shared = false
    val newer = PlanDecoder.newerVersion(plan)
    val stack = new java.util.ArrayDeque[Frame]()
    stack.push(Frame(plan, PlanPath.root, 0))
    val present = new java.util.ArrayList[MessageFields.Field]()
    val types = new java.util.HashSet[Descriptor]()
    while (!stack.isEmpty) {
      val Frame(message, at, depth) = stack.pop()
      if (depth > limits.maxDepth) throw PlanDecoder.tooDeep(limits, null)
      rejectUnknownFields(message, at, newer)
      message match {
        case t: ReadRel.NamedTable => tables += t.getNamesList.asScala.toList
        case r: Rel if r.getRelTypeCase == Rel.RelTypeCase.DETACHED_REL_ORDINAL => shared = true
        case e: Expression
            if e.getRexTypeCase == Expression.RexTypeCase.DETACHED_EXPRESSION_ORDINAL ||
              e.getRexTypeCase == Expression.RexTypeCase.NAMED_LAMBDA_REFERENCE => shared = true
        case i: Expression.LambdaInvocation if i.hasNamedLambda => shared = true
        case _ =>
      }
      val shape = shapeOf(message)
      types.add(message.getDescriptorForType)
      if (shape.legacy.nonEmpty && !(legacyBelow && legacyInLeaves) && shape.legacy.exists(_.isSet(message))) {
        legacy = true
        if (!shape.declarations) legacyBelow = true
        if (shape.inLeaf) legacyInLeaves = true
      }
      shape.refused.foreach { case (f, why) =>
        if (f.isSet(message)) throw refusedField(message, f.descriptor, why, at)
      }
      present.clear()
      shape.plain.foreach(f => if (f.isSet(message)) present.add(f))
      shape.oneofs.foreach { o =>
        val f = o.set(message)
        if (f != null && shape.walked(f.descriptor)) present.add(f)
      }
      if (shape.oneofs.nonEmpty) present.sort((a, b) => Integer.compare(a.descriptor.getIndex, b.descriptor.getIndex))
      // Children pushed last-first, so they are visited in field order.
      var i = present.size - 1
      while (i >= 0) {
        val f = present.get(i)
        val fd = f.descriptor
        if (fd.getJavaType == FieldDescriptor.JavaType.ENUM) rejectUnknownEnumValues(message, f, at, newer)
        else if (fd.isRepeated) {
          var k = f.size(message) - 1
          while (k >= 0) {
            stack.push(Frame(f.element(message, k), at.at(fd.getName, k), depth + 1))
            k -= 1
          }
        } else stack.push(Frame(f.message(message), at / fd.getName, depth + 1))
        i -= 1
      }
    }
    Facts(tables.result(), legacy, shared, legacyBelow, types, legacyInLeaves)
  }

  private final case class Frame(message: Message, at: PlanPath, depth: Int)

  /**
   * A message type's message- and enum-typed fields: those outside a oneof, and the oneofs
   * holding any (the set field is then looked up once); read through [[MessageFields]]'
   * accessors (protobuf's reflection was a third of decoding).
   */
  private final case class Shape(plain: Array[MessageFields.Field], oneofs: Array[MessageFields.Oneof],
    walked: Set[FieldDescriptor],
    legacy: Array[MessageFields.Field], refused: Array[(MessageFields.Field, String)], declarations: Boolean,
    inLeaf: Boolean)

  private val shapes = new ConcurrentHashMap[Descriptor, Shape]()

  private def shapeOf(message: Message): Shape = shapes.computeIfAbsent(message.getDescriptorForType,
    { d =>
      def access(f: FieldDescriptor) = MessageFields.field(f, message.getClass)
      val walked = d.getFields.asScala.filter(f =>
        f.getJavaType == FieldDescriptor.JavaType.MESSAGE || f.getJavaType == FieldDescriptor.JavaType.ENUM).toSet
      // A proto3 `optional` is a oneof of one (synthetic): it is a plain field here.
      Shape(
        d.getFields.asScala.filter(f => walked(f) && f.getRealContainingOneof == null).map(access).toArray,
        d.getRealOneofs.asScala.filter(_.getFields.asScala.exists(walked)).map(MessageFields.oneof(_,
            message.getClass)).toArray, walked,
        d.getFields.asScala.filter(LegacyLifting.fields).map(access).toArray,
        SpecCoverage.refused(d).map { case (f, why) => (access(f), why) }.toArray,
        d == Plan.getDescriptor || d.getFullName.startsWith("substrait.extensions.SimpleExtension"),
        LeafFamilies.exists(f => d.getFullName == f || d.getFullName.startsWith(f + ".")))
    })

  /** The message types MessageRewrite.isLeaf stops at; every message inside one is of one of them or nested in one. */
  private val LeafFamilies = Seq(Type.getDescriptor, Expression.Literal.getDescriptor, NamedStruct.getDescriptor,
    Expression.ReferenceSegment.getDescriptor).map(_.getFullName)

  /** A field [[SpecCoverage]] refuses, set: named where it is. */
  private def refusedField(message: Message, f: FieldDescriptor, why: String, at: PlanPath) =
    SubstraitErrors.unsupported(at / f.getName, s"${f.getName} of ${message.getDescriptorForType.getFullName}",
      s"a plan without it ($why)")

  private def unknown(at: PlanPath, what: String, newer: Option[String]) = newer match {
    case Some(version) => SubstraitErrors.unsupportedVersion(at, what, version, PlanDecoder.SupportedVersion)
    case None => SubstraitErrors.unknownField(at, what)
  }

  private def rejectUnknownFields(message: Message, at: PlanPath, newer: Option[String]): Unit = {
    val unknowns = message.getUnknownFields.asMap()
    if (!unknowns.isEmpty) {
      val number = unknowns.keySet().iterator().next()
      throw unknown(at, s"field number $number of ${message.getDescriptorForType.getFullName}", newer)
    }
  }

  /** Open (proto3) enums keep numbers the proto does not define; converters never see them. */
  private def rejectUnknownEnumValues(message: Message, field: MessageFields.Field, at: PlanPath, newer: Option[String])
    : Unit = {
    val enumType = field.descriptor.getEnumType
    def check(number: Int, where: => PlanPath): Unit =
      if (enumType.findValueByNumber(number) == null)
        throw unknown(where, s"value $number of enum ${enumType.getFullName}", newer)
    val name = field.descriptor.getName
    if (field.descriptor.isRepeated)
      (0 until field.size(message)).foreach(i => check(field.enumNumberAt(message, i), at.at(name, i)))
    else check(field.enumNumber(message), at / name)
  }
}
