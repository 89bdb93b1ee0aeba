package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.Literal
import org.apache.spark.sql.catalyst.plans._
import org.apache.spark.sql.catalyst.plans.logical.Join

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{JoinRel, Rel}
import io.sparksubstrait.proto.JoinRel.JoinType
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.{ExpressionWriter, InputRecord}

/**
 * Join: the condition over the left and right records side by side (a join without one is
 * on TRUE). Semi and anti joins (the optimizer's form of EXISTS, IN, INTERSECT and EXCEPT,
 * NOT IN's null-aware condition included) output the left record only, as Catalyst's.
 */
private[sparksubstrait] object JoinWriter {
  def write(j: Join, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val kind = j.joinType match {
      case Inner | Cross => JoinType.JOIN_TYPE_INNER
      case LeftOuter => JoinType.JOIN_TYPE_LEFT
      case RightOuter => JoinType.JOIN_TYPE_RIGHT
      case FullOuter => JoinType.JOIN_TYPE_OUTER
      case LeftSemi => JoinType.JOIN_TYPE_LEFT_SEMI
      case LeftAnti => JoinType.JOIN_TYPE_LEFT_ANTI
      case other => throw SubstraitErrors.unwritable(at.toString, s"a ${other.sql} join",
          s"${other.sql} (Spark's existence join marks a row false where a mark join may give NULL) has no exact Substrait join type",
          "inner, left, right, full, semi or anti joins")
    }
    val left = RelWriter.write(j.left, at / "left")
    val right = RelWriter.write(j.right, at / "right")
    val condition = ExpressionWriter.write(j.condition.getOrElse(Literal.TrueLiteral),
      InputRecord(j.left.output ++ j.right.output), at / "condition")
    Rel.newBuilder().setJoin(
      JoinRel.newBuilder().setLeft(left).setRight(right).setType(kind).setExpression(condition)).build()
  }
}
