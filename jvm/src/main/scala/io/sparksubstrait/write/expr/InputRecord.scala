package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression}

/**
 * The record an expression is written against: the input relation's fields in order. A
 * field is usually a child's output attribute (matched by expression id); above an
 * aggregate it may be a grouping expression or an aggregate call (matched semantically),
 * which is how Catalyst's aggregate expressions refer to them.
 */
private[sparksubstrait] final class InputRecord(val columns: Seq[Expression]) {
  private val byId = columns.zipWithIndex.collect { case (a: Attribute, i) => a.exprId -> i }.reverse.toMap
  private val computed = columns.zipWithIndex.filterNot(_._1.isInstanceOf[Attribute])

  def indexOf(e: Expression): Option[Int] = e match {
    case a: Attribute => byId.get(a.exprId).orElse(computed.collectFirst { case (c, i) if c.semanticEquals(a) => i })
    case _ if computed.isEmpty => None
    case _ => computed.collectFirst { case (c, i) if c.semanticEquals(e) => i }
  }
  def size: Int = columns.size
}

private[sparksubstrait] object InputRecord {
  def apply(columns: Seq[Expression]): InputRecord = new InputRecord(columns)
}
