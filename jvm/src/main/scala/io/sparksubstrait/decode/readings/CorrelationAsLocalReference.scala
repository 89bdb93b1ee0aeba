package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Expression, Plan}

/**
 * A known ibis-substrait bug: it writes no outer reference. A subquery's column of the
 * enclosing query (TPC-H Q4's `lineitem.l_orderkey == orders.o_orderkey` inside EXISTS) is
 * written as a plain root reference numbered by the enclosing relation's schema, so the
 * subquery compares two of its own columns and is no longer correlated. Where both numbers
 * coincide (Q2, Q4: both keys are column 0) the plan says `equal(x, x)` over one root
 * reference inside a subquery, which nothing else would write: that shape is recognised,
 * and the plan runs as written (`x = x` holds for every non-NULL x), with a warning.
 * Which side was meant as the outer column is not in the plan, so nothing is repaired.
 * Where the numbers differ (Q20, Q22) the plan is a valid, different question no shape
 * reveals (docs/producers.md lists them).
 */
private[sparksubstrait] object CorrelationAsLocalReference extends FoundBug(Releases.Ibis) {
  val name = "ibis-correlation-as-local-reference"
  val meaning = "a subquery's correlated column written as one of its own columns, so the subquery compares a " +
    "column with itself and is not correlated; run as written"

  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] =
    callsOf(plan, Set("equal")) { (f, at) =>
      if (sameRootColumn(f) && at.toString.contains(".subquery.")) {
        found(
          s"$at: equal(field ${f.getArguments(0).getValue.getSelection.getDirectReference.getStructField.getField}, itself)")
      }
    }

  /** Both arguments the same plain reference to one column of the relation's own input. */
  private def sameRootColumn(f: Expression.ScalarFunction): Boolean = f.getArgumentsList.asScala.toSeq match {
    case Seq(a, b) if a.hasValue && b.hasValue && a.getValue.hasSelection =>
      val s = a.getValue.getSelection
      s.hasRootReference && s.hasDirectReference && s.getDirectReference.hasStructField &&
      !s.getDirectReference.getStructField.hasChild && a.getValue == b.getValue
    case _ => false
  }
}
