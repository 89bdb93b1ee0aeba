package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.substrait.proto.SetRel
import io.substrait.proto.SetRel.SetOp
import org.apache.spark.sql.catalyst.plans.logical.{Distinct, Except, Intersect, LogicalPlan, Union}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/**
 * SetRel over a primary input and one or more secondary ones, with the spec's record counts
 * (m copies in the primary, n1…nk in the secondaries) and NULL matching NULL, as Spark's
 * set operators do:
 *  - MINUS_PRIMARY: p EXCEPT DISTINCT (s1 ∪ … ∪ sk)
 *  - MINUS_PRIMARY_ALL: max(0, m − Σn) copies = p EXCEPT ALL (s1 UNION ALL … sk)
 *  - INTERSECTION_PRIMARY: p INTERSECT DISTINCT (s1 ∪ … ∪ sk)
 *  - INTERSECTION_MULTISET: p INTERSECT DISTINCT s1 … INTERSECT DISTINCT sk
 *  - INTERSECTION_MULTISET_ALL: min(m, n1 … nk) copies = INTERSECT ALL, chained
 *  - UNION_DISTINCT, UNION_ALL.
 * Output nullability follows from Spark's operators, which match the spec's rules.
 */
object SetConverter {
  def convert(rel: SetRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val inputs = rel.getInputsList.asScala.toSeq
    if (inputs.size < 2) throw SubstraitErrors.invalidPlan(at / "inputs", s"${inputs.size} input(s)", "a primary and at least one secondary input")
    val primary = RelConverter.convert(inputs.head, at.at("inputs", 0))
    val secondaries = inputs.zipWithIndex.tail.foldLeft(Seq.empty[LogicalPlan]) { case (done, (r, i)) =>
      val plan = RelConverter.convert(r, at.at("inputs", i))
      checkTypes(primary, plan, at.at("inputs", i))
      // Catalyst rewrites INTERSECT / EXCEPT into joins: the sides need distinct attribute ids.
      done :+ (primary +: done).foldLeft(plan)((p, other) => JoinConverter.distinctFrom(other, p))
    }
    def unionAll(plans: Seq[LogicalPlan]) = if (plans.size == 1) plans.head else Union(plans)
    rel.getOp match {
      case SetOp.SET_OP_UNION_ALL => Union(primary +: secondaries)
      case SetOp.SET_OP_UNION_DISTINCT => Distinct(Union(primary +: secondaries))
      case SetOp.SET_OP_MINUS_PRIMARY => Except(primary, unionAll(secondaries), isAll = false)
      case SetOp.SET_OP_MINUS_PRIMARY_ALL => Except(primary, unionAll(secondaries), isAll = true)
      case SetOp.SET_OP_INTERSECTION_PRIMARY => Intersect(primary, unionAll(secondaries), isAll = false)
      case SetOp.SET_OP_INTERSECTION_MULTISET => secondaries.foldLeft(primary)(Intersect(_, _, isAll = false))
      case SetOp.SET_OP_INTERSECTION_MULTISET_ALL => secondaries.foldLeft(primary)(Intersect(_, _, isAll = true))
      case SetOp.SET_OP_MINUS_MULTISET =>
        // The spec does not say how many copies of a kept primary record are returned.
        throw SubstraitErrors.unsupported(at / "op", "SET_OP_MINUS_MULTISET",
          "a set operation whose duplicate counts the spec defines (MINUS_MULTISET's are not yet settled)")
      case SetOp.SET_OP_UNSPECIFIED => throw SubstraitErrors.missingField(at, "op", "a set operation")
      case other => throw SubstraitErrors.invalidPlan(at / "op", s"set operation ${other.getNumber}", "a SetOp of the spec")
    }
  }

  /** All inputs must have identical field types (nullability may differ). */
  private def checkTypes(primary: LogicalPlan, other: LogicalPlan, at: PlanPath): Unit = {
    val expected = primary.output.map(_.dataType)
    val found = other.output.map(_.dataType)
    if (expected.size != found.size || expected.zip(found).exists { case (a, b) => !NamedTableReader.compatible(a, b) }) {
      throw SubstraitErrors.typeMismatch(at, found.map(SparkTypeNames.of).mkString("(", ", ", ")"),
        expected.map(SparkTypeNames.of).mkString("(", ", ", "), the primary input's field types"))
    }
  }
}
