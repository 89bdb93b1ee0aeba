package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{CaseWhen, Expression, If, Literal}

import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/** CASE WHEN and IF as IfThen; a CASE without ELSE gets an explicit NULL of its type. */
private[sparksubstrait] object ConditionalWriter {
  def caseWhen(c: CaseWhen, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression =
    ifThen(c.branches, c.elseValue.getOrElse(Literal(null, c.dataType)), input, at)

  def ifExpr(i: If, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression =
    ifThen(Seq(i.predicate -> i.trueValue), i.falseValue, input, at)

  private def ifThen(branches: Seq[(Expression, Expression)], otherwise: Expression, input: InputRecord,
    at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val b = SExpression.IfThen.newBuilder()
    branches.zipWithIndex.foreach { case ((cond, value), i) =>
      b.addIfs(SExpression.IfThen.IfClause.newBuilder()
          .setIf(ExpressionWriter.write(cond, input, at / s"branch $i condition"))
          .setThen(ExpressionWriter.write(value, input, at / s"branch $i value")))
    }
    b.setElse(ExpressionWriter.write(otherwise, input, at / "else"))
    SExpression.newBuilder().setIfThen(b).build()
  }
}
