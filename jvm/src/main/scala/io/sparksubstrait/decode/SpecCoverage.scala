package io.sparksubstrait.decode

import scala.jdk.CollectionConverters._

import com.google.protobuf.Descriptors.{Descriptor, FieldDescriptor}

import io.sparksubstrait.proto.Plan

/**
 * What this consumer does with every field of every message a plan can hold: the fields are
 * read by a converter, lifted from an older form or inlined at decode time, advisory (the
 * spec lets a consumer ignore them: they change no rows), or refused. A refused field that
 * is set is the plan's SUBSTRAIT_UNSUPPORTED_FEATURE, raised by [[PlanTreeCheck]] at decode
 * time, so no field is ever dropped unseen.
 *
 * The table is [[SpecCoverageTable]]; SpecCoverageSuite walks the pinned spec's descriptors
 * and fails on any field the table does not class, and docs/supported.md lists the
 * advisory and refused fields from it.
 */
private[sparksubstrait] object SpecCoverage {
  sealed trait Use { def label: String }
  case object Read extends Use { val label = "read" }
  case object Lifted extends Use { val label = "lifted into its current form at decode time" }
  case object Inlined extends Use { val label = "inlined at decode time" }
  final case class Advisory(why: String) extends Use { def label = s"advisory: $why" }
  final case class Refused(why: String) extends Use { def label = s"refused: $why" }

  /** Message full name -> field name -> use. */
  lazy val table: Map[String, Map[String, Use]] = SpecCoverageTable.entries.groupBy(_._1).map {
    case (message, fields) => message -> fields.flatMap(_._2).toMap
  }

  /** The refused fields of a message type (empty for most). */
  def refused(d: Descriptor): Seq[(FieldDescriptor, String)] =
    table.getOrElse(d.getFullName, Map.empty).toSeq.collect {
      case (name, Refused(why)) if d.findFieldByName(name) != null => d.findFieldByName(name) -> why
    }

  /** Every message type a Plan can hold, from the generated classes' descriptors. */
  def reachable: Seq[Descriptor] = {
    val seen = scala.collection.mutable.LinkedHashMap.empty[String, Descriptor]
    val stack = scala.collection.mutable.Stack[Descriptor](Plan.getDescriptor)
    while (stack.nonEmpty) {
      val d = stack.pop()
      if (!seen.contains(d.getFullName) && !d.getFullName.startsWith("google.protobuf.")) {
        seen(d.getFullName) = d
        d.getFields.asScala.filter(_.getJavaType == FieldDescriptor.JavaType.MESSAGE).foreach(f =>
          stack.push(f.getMessageType))
      }
    }
    seen.values.toSeq
  }
}
