package io.sparksubstrait.plan

import java.util.concurrent.ConcurrentHashMap

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message
import com.google.protobuf.Descriptors.{Descriptor, EnumValueDescriptor, FieldDescriptor, OneofDescriptor}
import io.sparksubstrait.proto.{Expression, Plan, ReadRel, Rel}

import io.sparksubstrait.errors.SubstraitErrors

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
private[plan] object PlanTreeCheck {
  /**
   * What the walk found: the names of every NamedTable in the order met, whether a legacy
   * field is set, and whether a shared definition is used ([[SharedDefinitions]]).
   */
  final case class Facts(namedTables: Seq[Seq[String]], hasLegacyFields: Boolean, usesSharedDefinitions: Boolean,
      legacyBelowDeclarations: Boolean)

  def apply(plan: Plan, limits: PlanLimits): Facts = {
    val tables = Seq.newBuilder[Seq[String]]
    var legacy = false
    // A legacy field outside the plan message and its extension declarations (older
    // producers' extension URIs are most of them): only then does the lift walk the relations.
    var legacyBelow = false
    var shared = false
    val newer = PlanDecoder.newerVersion(plan)
    val stack = new java.util.ArrayDeque[Frame]()
    stack.push(Frame(plan, PlanPath.root, 0))
    val present = new java.util.ArrayList[FieldDescriptor]()
    while (!stack.isEmpty) {
      val Frame(message, at, depth) = stack.pop()
      if (depth > limits.maxDepth) throw PlanDecoder.tooDeep(limits, null)
      rejectUnknownFields(message, at, newer)
      message match {
        case t: ReadRel.NamedTable => tables += t.getNamesList.asScala.toList
        case r: Rel if r.getRelTypeCase == Rel.RelTypeCase.DETACHED_REL_ORDINAL => shared = true
        case e: Expression if e.getRexTypeCase == Expression.RexTypeCase.DETACHED_EXPRESSION_ORDINAL ||
          e.getRexTypeCase == Expression.RexTypeCase.NAMED_LAMBDA_REFERENCE => shared = true
        case i: Expression.LambdaInvocation if i.hasNamedLambda => shared = true
        case _ =>
      }
      val shape = shapeOf(message.getDescriptorForType)
      if (!legacyBelow && shape.legacy.nonEmpty && shape.legacy.exists(f => isSet(message, f))) {
        legacy = true
        legacyBelow = !shape.declarations
      }
      shape.refused.foreach { case (f, why) => if (isSet(message, f)) throw refusedField(message, f, why, at) }
      present.clear()
      shape.plain.foreach(f => if (isSet(message, f)) present.add(f))
      shape.oneofs.foreach { o =>
        val f = message.getOneofFieldDescriptor(o)
        if (f != null && shape.walked(f)) present.add(f)
      }
      if (shape.oneofs.nonEmpty) present.sort((a, b) => Integer.compare(a.getIndex, b.getIndex))
      // Children pushed last-first, so they are visited in field order.
      var i = present.size - 1
      while (i >= 0) {
        val f = present.get(i)
        if (f.getJavaType == FieldDescriptor.JavaType.ENUM) rejectUnknownEnumValues(message, f, at, newer)
        else if (f.isRepeated) {
          var k = message.getRepeatedFieldCount(f) - 1
          while (k >= 0) {
            stack.push(Frame(message.getRepeatedField(f, k).asInstanceOf[Message], at.at(f.getName, k), depth + 1))
            k -= 1
          }
        } else stack.push(Frame(message.getField(f).asInstanceOf[Message], at / f.getName, depth + 1))
        i -= 1
      }
    }
    Facts(tables.result(), legacy, shared, legacyBelow)
  }

  private def isSet(message: Message, f: FieldDescriptor): Boolean =
    if (f.isRepeated) message.getRepeatedFieldCount(f) > 0 else message.hasField(f)

  private final case class Frame(message: Message, at: PlanPath, depth: Int)

  /**
   * A message type's message- and enum-typed fields: those outside a oneof, and the oneofs
   * holding any (the set field is then looked up once).
   */
  private final case class Shape(plain: Array[FieldDescriptor], oneofs: Array[OneofDescriptor], walked: Set[FieldDescriptor],
      legacy: Array[FieldDescriptor], refused: Array[(FieldDescriptor, String)], declarations: Boolean)

  private val shapes = new ConcurrentHashMap[Descriptor, Shape]()

  private def shapeOf(d: Descriptor): Shape = shapes.computeIfAbsent(d, { d =>
    val walked = d.getFields.asScala.filter(f =>
      f.getJavaType == FieldDescriptor.JavaType.MESSAGE || f.getJavaType == FieldDescriptor.JavaType.ENUM).toSet
    // A proto3 `optional` is a oneof of one (synthetic): it is a plain field here.
    Shape(d.getFields.asScala.filter(f => walked(f) && f.getRealContainingOneof == null).toArray,
      d.getRealOneofs.asScala.filter(_.getFields.asScala.exists(walked)).toArray, walked,
      d.getFields.asScala.filter(LegacyLifting.fields).toArray, SpecCoverage.refused(d).toArray,
      d == Plan.getDescriptor || d.getFullName.startsWith("substrait.extensions.SimpleExtension"))
  })

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
  private def rejectUnknownEnumValues(message: Message, field: FieldDescriptor, at: PlanPath, newer: Option[String]): Unit = {
    def check(v: Any, where: => PlanPath): Unit = v match {
      case e: EnumValueDescriptor if field.getEnumType.findValueByNumber(e.getNumber) == null =>
        throw unknown(where, s"value ${e.getNumber} of enum ${field.getEnumType.getFullName}", newer)
      case _ =>
    }
    if (field.isRepeated) (0 until message.getRepeatedFieldCount(field)).foreach(i => check(message.getRepeatedField(field, i), at.at(field.getName, i)))
    else check(message.getField(field), at / field.getName)
  }
}
