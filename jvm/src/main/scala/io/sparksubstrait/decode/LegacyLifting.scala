package io.sparksubstrait.decode

import scala.jdk.CollectionConverters._

import com.google.protobuf.Descriptors

import io.sparksubstrait.proto._
import io.sparksubstrait.foundation.PlanPath

/**
 * Lifts fields that older spec releases wrote, and the pinned release removed or deprecated,
 * into their current form, so that converters read one shape (the pinned spec's):
 *
 *  - `Plan.extension_uris` and each declaration's `extension_uri_reference` → extension URNs;
 *  - function `args` (bare expressions, enums as `Expression.enum`) → `arguments`;
 *  - `Grouping.grouping_expressions` → the aggregate's `grouping_expressions` + references;
 *  - FetchRel's int64 `offset` / `count` (-1: all) → `offset_expr` / `count_expr`;
 *  - hash / merge join `left_keys` / `right_keys` → `keys` compared with EQ;
 *  - `VirtualTable.values` (struct literals) → `expressions`;
 *  - the microsecond `timestamp`, `timestamp_tz`, `time` types and literals → their precision
 *    forms at precision 6; `IntervalDayToSecond.microseconds` → precision 6;
 *  - `Type.user_defined_type_reference` → `user_defined`;
 *  - a window bound's int64 `offset` → `offset_expr`.
 *
 * The generated message classes know the removed fields (project/SubstraitProtos.scala), so
 * binary and JSON plans arrive with them as typed fields. The walk runs only when
 * [[PlanTreeCheck]] met one, and rebuilds only the messages on the way to them.
 * The single-message rewrites live in [[LegacyLifts]].
 */
private[decode] object LegacyLifting {

  /** The legacy fields of the generated classes, by descriptor (removed ones and deprecated ones we lift). */
  val fields: Set[Descriptors.FieldDescriptor] = {
    val removed = SpecVersion.LEGACY_FIELDS.toSet
    val deprecatedLifted = Set("substrait.Expression.WindowFunction.Bound.Preceding.offset",
      "substrait.Expression.WindowFunction.Bound.Following.offset")
    val all = removed ++ deprecatedLifted
    def walk(d: Descriptors.Descriptor): Seq[Descriptors.FieldDescriptor] =
      d.getFields.asScala.toSeq.filter(f => all(f.getFullName)) ++ d.getNestedTypes.asScala.flatMap(walk)
    val found = Seq(Plan.getDescriptor.getFile, Rel.getDescriptor.getFile, Type.getDescriptor.getFile,
      SimpleExtensionDeclaration.getDescriptor.getFile).distinct.flatMap(_.getMessageTypes.asScala).flatMap(walk).toSet
    found
  }

  /**
   * Children first, so that a message's own lift sees its children in current form; by
   * [[readings.MessageRewrite]]'s walk, which reads a oneof by its one set field. Without
   * `enterLeaves` (the tree check met no legacy field in a type, literal, schema or reference
   * path) the walk does not enter those.
   */
  def apply(plan: Plan, enterLeaves: Boolean = true): Plan =
    if (enterLeaves) readings.MessageRewrite.located(plan) { case (message, at) => LegacyLifts(message, at) }
    else readings.MessageRewrite.skippingLeavesLocated(plan) { case (message, at) => LegacyLifts(message, at) }

  /**
   * The lift of a plan whose legacy fields are all in the plan message and its extension
   * declarations (extension URIs): the plan message's lift alone, which rewrites those, and no
   * walk of the relations.
   */
  def declarations(plan: Plan): Plan = LegacyLifts(plan, PlanPath.root).asInstanceOf[Plan]
}
