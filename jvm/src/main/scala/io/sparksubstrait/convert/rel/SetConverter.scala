package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.SetRel
import io.sparksubstrait.proto.SetRel.SetOp
import org.apache.spark.sql.catalyst.expressions.{And, EqualNullSafe, ExprId, Expression}
import org.apache.spark.sql.catalyst.plans.LeftAnti
import org.apache.spark.sql.catalyst.plans.logical.{Distinct, Except, Intersect, Join, JoinHint, LogicalPlan, Union}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * SetRel over a primary input and one or more secondary ones, with the spec's record counts
 * (m copies in the primary, n1…nk in the secondaries) and NULL matching NULL, as Spark's
 * set operators do:
 *  - MINUS_PRIMARY: p EXCEPT DISTINCT (s1 ∪ … ∪ sk)
 *  - MINUS_PRIMARY_ALL: max(0, m − Σn) copies = p EXCEPT ALL (s1 UNION ALL … sk)
 *  - MINUS_MULTISET: every primary record (all m copies) except those present in all
 *    secondaries; no SQL operator says this, so an anti join on (s1 ∩ … ∩ sk)
 *  - INTERSECTION_PRIMARY: p INTERSECT DISTINCT (s1 ∪ … ∪ sk)
 *  - INTERSECTION_MULTISET: p INTERSECT DISTINCT s1 … INTERSECT DISTINCT sk
 *  - INTERSECTION_MULTISET_ALL: min(m, n1 … nk) copies = INTERSECT ALL, chained
 *  - UNION_DISTINCT, UNION_ALL.
 * Output nullability follows from Spark's operators, which match the spec's rules.
 */
private[sparksubstrait] object SetConverter {
  def convert(rel: SetRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val inputs = rel.getInputsList.asScala.toSeq
    if (inputs.size < 2) throw SubstraitErrors.invalidPlan(at / "inputs", s"${inputs.size} input(s)",
      "a primary and at least one secondary input")
    val primary = RelConverter.convert(inputs.head, at.at("inputs", 0))
    // Catalyst rewrites INTERSECT / EXCEPT into joins: the inputs need distinct attribute ids.
    // One set of the ids seen so far (not a comparison with each earlier input: a union of
    // 10,000 inputs converted in quadratic time so).
    val seen = scala.collection.mutable.HashSet.empty[ExprId] ++= primary.output.map(_.exprId)
    val secondaries = inputs.zipWithIndex.tail.map { case (r, i) =>
      val converted = RelConverter.convert(r, at.at("inputs", i))
      checkTypes(primary, converted, at.at("inputs", i))
      val plan =
        if (converted.output.exists(a => seen.contains(a.exprId))) JoinConverter.withNewIds(converted) else converted
      seen ++= plan.output.map(_.exprId)
      plan
    }.toVector
    def unionAll(plans: Seq[LogicalPlan]) = if (plans.size == 1) plans.head else Union(plans)
    rel.getOp match {
      case SetOp.SET_OP_UNION_ALL => Union(primary +: secondaries)
      case SetOp.SET_OP_UNION_DISTINCT => Distinct(Union(primary +: secondaries))
      case SetOp.SET_OP_MINUS_PRIMARY => Except(primary, unionAll(secondaries), isAll = false)
      case SetOp.SET_OP_MINUS_PRIMARY_ALL => Except(primary, unionAll(secondaries), isAll = true)
      case SetOp.SET_OP_INTERSECTION_PRIMARY => Intersect(primary, unionAll(secondaries), isAll = false)
      case SetOp.SET_OP_INTERSECTION_MULTISET => secondaries.foldLeft(primary)(Intersect(_, _, isAll = false))
      case SetOp.SET_OP_INTERSECTION_MULTISET_ALL => secondaries.foldLeft(primary)(Intersect(_, _, isAll = true))
      case SetOp.SET_OP_MINUS_MULTISET => minusMultiset(primary, secondaries)
      case SetOp.SET_OP_UNSPECIFIED => throw SubstraitErrors.missingField(at, "op", "a set operation")
      case other =>
        throw SubstraitErrors.invalidPlan(at / "op", s"set operation ${other.getNumber}", "a SetOp of the spec")
    }
  }

  /**
   * The spec: "all records from the primary input excluding any records that are included in
   * all secondary inputs". Unlike MINUS_PRIMARY it does not remove duplicates, so a kept
   * record keeps its m copies: a NULL-safe anti join against the secondaries' intersection.
   */
  private def minusMultiset(primary: LogicalPlan, secondaries: Seq[LogicalPlan]): LogicalPlan = {
    val inAll = secondaries.tail.foldLeft(secondaries.head)(Intersect(_, _, isAll = false))
    val sameRecord =
      primary.output.zip(inAll.output).map { case (p, s) => EqualNullSafe(p, s): Expression }.reduce(And(_, _))
    Join(primary, inAll, LeftAnti, Some(sameRecord), JoinHint.NONE)
  }

  /** All inputs must have identical field types (nullability may differ). */
  private def checkTypes(primary: LogicalPlan, other: LogicalPlan, at: PlanPath): Unit = {
    val expected = primary.output.map(_.dataType)
    val found = other.output.map(_.dataType)
    if (expected.size != found.size ||
      expected.zip(found).exists { case (a, b) => !NamedTableReader.compatible(a, b) }) {
      throw SubstraitErrors.typeMismatch(at, found.map(SparkTypeNames.of).mkString("(", ", ", ")"),
        expected.map(SparkTypeNames.of).mkString("(", ", ", "), the primary input's field types"))
    }
  }
}
