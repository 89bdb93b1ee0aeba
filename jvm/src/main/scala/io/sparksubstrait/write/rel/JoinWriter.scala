package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.{Alias, AttributeReference, Coalesce, Literal}
import org.apache.spark.sql.catalyst.plans._
import org.apache.spark.sql.catalyst.plans.logical.Join
import org.apache.spark.sql.types.BooleanType

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{JoinRel, Rel}
import io.sparksubstrait.proto.JoinRel.JoinType
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.{ExpressionWriter, InputRecord}

/**
 * Join: the condition over the left and right records side by side (a join without one is
 * on TRUE). Semi and anti joins (the optimizer's form of EXISTS, IN, INTERSECT and EXCEPT,
 * NOT IN's null-aware condition included) output the left record only, as Catalyst's.
 *
 * An existence join (the optimizer's form of EXISTS under OR) appends to each left row
 * whether a right row matches: a left mark join, whose mark is NULL where no pair matched but
 * some pair's condition was NULL; Spark's flag is false there, so the mark is written as
 * coalesce(mark, false).
 */
private[sparksubstrait] object JoinWriter {
  def write(j: Join, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    if (j.joinType.isInstanceOf[ExistenceJoin]) return existence(j, at)
    val kind = j.joinType match {
      case Inner | Cross => JoinType.JOIN_TYPE_INNER
      case LeftOuter => JoinType.JOIN_TYPE_LEFT
      case RightOuter => JoinType.JOIN_TYPE_RIGHT
      case FullOuter => JoinType.JOIN_TYPE_OUTER
      case LeftSemi => JoinType.JOIN_TYPE_LEFT_SEMI
      case LeftAnti => JoinType.JOIN_TYPE_LEFT_ANTI
      // Named by class: some join types' `sql` throws (ExistenceJoin's does).
      case other => throw SubstraitErrors.unwritable(at.toString, s"a ${CatalystPath.nameOf(other)} join",
          s"Spark's ${CatalystPath.nameOf(other)} join has no exact Substrait join type",
          "inner, left, right, full, semi, anti or existence joins")
    }
    join(j, kind, at)
  }

  private def join(j: Join, kind: JoinType, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val left = RelWriter.write(j.left, at / "left")
    val right = RelWriter.write(j.right, at / "right")
    val condition = ExpressionWriter.write(j.condition.getOrElse(Literal.TrueLiteral),
      InputRecord(j.left.output ++ j.right.output), at / "condition")
    Rel.newBuilder().setJoin(
      JoinRel.newBuilder().setLeft(left).setRight(right).setType(kind).setExpression(condition)).build()
  }

  private def existence(j: Join, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val marked = join(j, JoinType.JOIN_TYPE_LEFT_MARK, at)
    val mark = AttributeReference("spark_substrait_mark", BooleanType)()
    val flag = j.output.last
    ProjectWriter.project(marked, InputRecord(j.left.output :+ mark),
      j.left.output :+ Alias(Coalesce(Seq(mark, Literal.FalseLiteral)), flag.name)(), at)
  }
}
