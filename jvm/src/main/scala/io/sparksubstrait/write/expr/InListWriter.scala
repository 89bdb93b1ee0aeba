package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{Expression, In, InSet, Literal}

import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * IN lists as SingularOrList (SQL's three-valued IN, as Spark's). InSet, the optimizer's
 * form of a long list of constants, is the same list: its values in a stable order.
 */
private[sparksubstrait] object InListWriter {
  def in(i: In, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression =
    list(i.value, i.list, input, at)

  def inSet(i: InSet, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val values = i.hset.toSeq.map(v => Literal(v, i.child.dataType))
    list(i.child, values.sortBy(_.toString), input, at)
  }

  private def list(value: Expression, options: Seq[Expression], input: InputRecord, at: CatalystPath)(
    implicit ctx: WriteContext): SExpression = {
    val b = SExpression.SingularOrList.newBuilder().setValue(ExpressionWriter.write(value, input, at / "value"))
    options.zipWithIndex.foreach { case (o, k) => b.addOptions(ExpressionWriter.write(o, input, at / s"list[$k]")) }
    SExpression.newBuilder().setSingularOrList(b).build()
  }
}
