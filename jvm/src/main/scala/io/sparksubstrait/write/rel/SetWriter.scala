package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.plans.logical.{Except, Intersect, LogicalPlan, Union}

import io.sparksubstrait.proto.{Rel, SetRel}
import io.sparksubstrait.proto.SetRel.SetOp
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * UNION ALL (Spark's Union; UNION is a Distinct or Aggregate over it), INTERSECT and EXCEPT
 * with or without ALL (analyzed plans; the optimizer rewrites them as joins). The record is
 * the first input's, as Catalyst's output is.
 */
private[sparksubstrait] object SetWriter {
  def union(u: Union, at: CatalystPath)(implicit ctx: WriteContext): Rel = set(u.children, SetOp.SET_OP_UNION_ALL, at)

  def intersect(i: Intersect, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    set(Seq(i.left, i.right),
      if (i.isAll) SetOp.SET_OP_INTERSECTION_MULTISET_ALL else SetOp.SET_OP_INTERSECTION_MULTISET, at)

  def except(e: Except, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    set(Seq(e.left, e.right), if (e.isAll) SetOp.SET_OP_MINUS_PRIMARY_ALL else SetOp.SET_OP_MINUS_PRIMARY, at)

  private def set(inputs: Seq[LogicalPlan], op: SetOp, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val b = SetRel.newBuilder().setOp(op)
    inputs.zipWithIndex.foreach { case (p, i) => b.addInputs(RelWriter.write(p, at / s"input $i")) }
    Rel.newBuilder().setSet(b).build()
  }
}
