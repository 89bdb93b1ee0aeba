package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.execution.datasources.LogicalRelation

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.Rel
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * Dispatch only: one Catalyst operator to its kind's writer. Every writer returns a relation
 * whose record is the operator's `output`, in order, so a parent writes its expressions
 * against its children's `output`.
 */
private[sparksubstrait] object RelWriter {
  def write(plan: LogicalPlan, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val here = at / plan
    // Only the limits, and the operators LimitPushDown pushes LocalLimits through, keep the
    // enclosing GlobalLimit in view (FetchWriter).
    val keepsLimit = plan match {
      case _: LocalLimit | _: Offset | _: Union | _: Project => true
      case j: Join => true
      case _ => false
    }
    ctx.withGlobalLimit(ctx.underGlobalLimit && keepsLimit) {
      plan match {
        case p: Project => ProjectWriter.write(p, here)
        case f: Filter => FilterWriter.write(f, here)
        case a: Aggregate => AggregateWriter.write(a, here)
        case d: Distinct => AggregateWriter.distinct(d, here)
        case j: Join => JoinWriter.write(j, here)
        case s: Sort => SortWriter.write(s, here)
        case w: Window => WindowWriter.write(w, here)
        case w: WindowGroupLimit => WindowGroupLimitWriter.write(w, here)
        case l: GlobalLimit => FetchWriter.globalLimit(l, here)
        case l: LocalLimit => FetchWriter.localLimit(l, here)
        case o: Offset => FetchWriter.offset(o, here)
        case u: Union => SetWriter.union(u, here)
        case i: Intersect => SetWriter.intersect(i, here)
        case e: Except => SetWriter.except(e, here)
        case l: LocalRelation => VirtualTableWriter.write(l, here)
        case o: OneRowRelation => VirtualTableWriter.oneRow(o, here)
        case l: LogicalRelation => FileRelationWriter.write(l, here)
        case v: View => NamedTableWriter.view(v, here)
        case w: WithCTE => CteWriter.withCte(w, here)
        case r: CTERelationRef => CteWriter.ref(r, here)
        case e: BaseEvalPython => PythonEvalWriter.write(e, here)
        // A name for the child (FROM t AS x) or a hint: no rows of their own.
        case s: SubqueryAlias => write(s.child, at)
        case h: ResolvedHint => write(h.child, at)
        // Repartitioning changes where rows are, not which rows there are.
        case r: RepartitionOperation => write(r.child, at)
        case other if NamedTableWriter.isCatalogTable(other) => NamedTableWriter.table(other, here)
        case other => throw SubstraitErrors.unwritable(here.toString, s"the operator ${other.nodeName}",
            s"the Catalyst operator ${other.nodeName} has no Substrait relation in this writer",
            "a plan of the operators docs/writing.md lists")
      }
    }
  }
}
