package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, Plan}
import io.sparksubstrait.proto.Expression.SwitchExpression

/**
 * DataFusion writes SQL's simple CASE (`CASE mean WHEN 0 THEN NULL ELSE stdev / mean END`,
 * TPC-DS q39) as an if_then whose first clause holds the operand alone, without a `then`,
 * and the WHEN clauses after it (its own consumer reads a first clause without `then` so).
 * The spec's if_then needs a `then` in every clause; its form for this is the switch
 * expression. Read as that switch when every WHEN value is a literal (a NULL operand or
 * value matches nothing, as in SQL and in DataFusion); other shapes stay as written (refused).
 */
private[sparksubstrait] object SimpleCaseBase extends Reading {
  val name = "datafusion-simple-case"
  val releases = "DataFusion, every release (spec 0.33 to 0.85)"
  val meaning = "a simple CASE as an if_then whose first clause is the operand without a then; read as a switch"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("datafusion", "0.0", ProducerStamp.Newest)
  override val needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set(Expression.IfThen.getDescriptor)

  def lift(plan: Plan, found: String => Unit): Plan = MessageRewrite.skippingLeaves(plan) {
    case e: Expression if e.hasIfThen && simpleCase(e.getIfThen) =>
      val clauses = e.getIfThen.getIfsList.asScala.toSeq
      found(s"a simple CASE of ${clauses.size - 1} WHEN values")
      val switch = SwitchExpression.newBuilder().setMatch(clauses.head.getIf)
      clauses.tail.foreach(c =>
        switch.addIfs(SwitchExpression.IfValue.newBuilder().setIf(c.getIf.getLiteral).setThen(c.getThen)))
      if (e.getIfThen.hasElse) switch.setElse(e.getIfThen.getElse)
      Expression.newBuilder().setSwitchExpression(switch).build()
  }

  private def simpleCase(ifThen: Expression.IfThen): Boolean = {
    val clauses = ifThen.getIfsList.asScala.toSeq
    clauses.size >= 2 && clauses.head.hasIf && !clauses.head.hasThen &&
    clauses.tail.forall(c => c.hasIf && c.hasThen && c.getIf.hasLiteral)
  }
}
