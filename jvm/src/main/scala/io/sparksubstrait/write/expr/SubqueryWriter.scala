package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{Exists, InSubquery, OuterReference, ScalarSubquery}
import org.apache.spark.sql.catalyst.plans.logical.{CTERelationRef, LogicalPlan}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.rel.RelWriter

/**
 * Subquery expressions: scalar, EXISTS and IN. The subquery's plan is written with the
 * enclosing relation's input as the record its outer references see. Spark's optimizer turns
 * correlated ones into joins first; the analyzed plan keeps them as written in SQL.
 *
 * A target whose consumer binds an outer reference by name (`outerByName`: DataFusion 55) would
 * bind it to the subquery's own column where the subquery reads a table with a column of that
 * name (a self-correlation, as TPC-DS q06 and TPC-H Q21): refused there.
 */
private[sparksubstrait] object SubqueryWriter {
  def scalar(s: ScalarSubquery, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val rel = ctx.inSubquery(input)(RelWriter.write(checked(s.plan, at), at / "scalar subquery"))
    SExpression.newBuilder().setSubquery(SExpression.Subquery.newBuilder()
        .setScalar(SExpression.Subquery.Scalar.newBuilder().setInput(rel))).build()
  }

  def exists(e: Exists, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val rel = ctx.inSubquery(input)(RelWriter.write(checked(e.plan, at), at / "EXISTS subquery"))
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
    b.setHaystack(ctx.inSubquery(input)(RelWriter.write(checked(i.query.plan, at), at / "IN subquery")))
    SExpression.newBuilder().setSubquery(SExpression.Subquery.newBuilder().setInPredicate(b)).build()
  }

  /** The subquery's plan, unless the target's consumer would bind one of its outer references to its own column. */
  private def checked(plan: LogicalPlan, at: CatalystPath)(implicit ctx: WriteContext): LogicalPlan = {
    if (ctx.target.outerByName) {
      // The columns of the tables it reads (a CTE reference is written as its definition, whose columns
      // DataFusion qualifies by no table: TPC-DS q01, q30, q81 read right).
      val own = plan.collectLeaves().filterNot(_.isInstanceOf[CTERelationRef]).flatMap(_.output.map(_.name.toLowerCase))
        .toSet
      plan.foreach(_.expressions.foreach(_.foreach {
        case OuterReference(a) if own(a.name.toLowerCase) =>
          throw SubstraitErrors.unwritable(at.toString, s"the outer reference ${a.sql}",
            s"the ${ctx.target.name} target's consumer binds an outer reference by name, here to the subquery's own " +
              s"column ${a.name}", "a plan for another target (the default reads it)")
        case _ =>
      }))
    }
    plan
  }
}
