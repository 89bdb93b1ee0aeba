package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{Exists, InSubquery, ScalarSubquery}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.rel.RelWriter

/**
 * Subquery expressions: scalar, EXISTS and IN. The subquery's plan is written with the
 * enclosing relation's input as the record its outer references see. Spark's optimizer turns
 * correlated ones into joins first; the analyzed plan keeps them as written in SQL.
 */
private[sparksubstrait] object SubqueryWriter {
  def scalar(s: ScalarSubquery, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val rel = ctx.inSubquery(input)(RelWriter.write(s.plan, at / "scalar subquery"))
    SExpression.newBuilder().setSubquery(SExpression.Subquery.newBuilder()
        .setScalar(SExpression.Subquery.Scalar.newBuilder().setInput(rel))).build()
  }

  def exists(e: Exists, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val rel = ctx.inSubquery(input)(RelWriter.write(e.plan, at / "EXISTS subquery"))
    SExpression.newBuilder().setSubquery(SExpression.Subquery.newBuilder().setSetPredicate(
        SExpression.Subquery.SetPredicate.newBuilder().setPredicateOp(
          SExpression.Subquery.SetPredicate.PredicateOp.PREDICATE_OP_EXISTS)
          .setTuples(rel))).build()
  }

  def in(i: InSubquery, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    if (i.values.size != i.query.plan.output.size) {
      throw SubstraitErrors.unwritable(at.toString, "an IN subquery", "its value count differs from its columns",
        "as many values as columns")
    }
    val b = SExpression.Subquery.InPredicate.newBuilder()
    i.values.zipWithIndex.foreach { case (v, k) => b.addNeedles(ExpressionWriter.write(v, input, at / s"needle $k")) }
    b.setHaystack(ctx.inSubquery(input)(RelWriter.write(i.query.plan, at / "IN subquery")))
    SExpression.newBuilder().setSubquery(SExpression.Subquery.newBuilder().setInPredicate(b)).build()
  }
}
