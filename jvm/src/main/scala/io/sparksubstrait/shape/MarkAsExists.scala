package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.BooleanType

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * A mark join's mark, where the plan only ever asks whether it is true, as the EXISTS it stands
 * for. The reader gives a mark join ([[io.sparksubstrait.convert.rel.JoinConverter]]) its spec
 * meaning, three-valued: `CASE WHEN EXISTS (match) THEN true WHEN EXISTS (condition NULL) THEN
 * NULL ELSE false END`, which Spark decorrelates into two existence joins, the second on `(a =
 * b) IS NULL`, a condition without equality keys: a nested-loop join. SQL's `EXISTS` under `OR`
 * (TPC-DS Q10 and Q35; DataFusion's plans of them, and ours written from Spark's existence joins
 * as `coalesce(mark, false)`) only ever needs the first: a filter keeps a row when its
 * condition is true, so NULL and false there are alike (1.3-1.5x the SQL's time with both).
 *
 * The same rows: where every use of the mark is a filter's or a join condition's operand reached
 * through AND and OR only (NULL and false are alike all the way up), or `coalesce(mark, false)`,
 * the CASE and its first test are true together (an EXISTS is never NULL). A mark used
 * anywhere else (projected, compared, negated, in the plan's output) keeps all three values.
 */
private[sparksubstrait] object MarkAsExists extends PlanShapes.Shape {
  val name = "mark-as-exists"
  val meaning =
    "a mark join's mark that the plan only tests for truth (in a filter's AND/OR, or coalesce(mark, false)) as the EXISTS it stands for, without the test for a NULL condition"

  def appliesTo(stamp: ProducerStamp): Boolean = true

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = {
    val marks = plan.collectWithSubqueries { case Project(list, _) =>
      list.collect { case MarkOf(a, first) => a.exprId -> first }
    }
      .flatten.toMap
    if (marks.isEmpty) plan
    else {
      val uses = new Uses(marks.keySet)
      plan.collectWithSubqueries { case p => uses.count(p) }
      uses.outside(plan.output)
      val truthOnly = marks.keySet.filter(uses.onlyTruth)
      if (truthOnly.isEmpty) plan
      else plan.transformUpWithSubqueries {
        case Project(list, child) if list.exists { case MarkOf(a, _) => truthOnly(a.exprId); case _ => false } =>
          // The alias keeps its id and name: every reference to it stays valid.
          Project(list.map {
              case MarkOf(a, first) if truthOnly(a.exprId) =>
                a.withNewChildren(Seq(first)).asInstanceOf[NamedExpression]
              case other => other
            }, child)
      }
    }
  }

  /** `CASE WHEN first THEN true WHEN … THEN NULL ELSE false END AS mark` with a never-NULL `first`: the alias and `first`. */
  private object MarkOf {
    def unapply(e: NamedExpression): Option[(Alias, Expression)] = e match {
      case a @ Alias(CaseWhen(Seq((first, Literal(true, BooleanType)), (_, Literal(null, _))),
              Some(Literal(false, BooleanType))), _)
          if !first.nullable && first.dataType == BooleanType => Some((a, first))
      case _ => None
    }
  }

  /** Every reference to the marks, and those that only test truth. */
  private final class Uses(ids: Set[ExprId]) {
    private val all = scala.collection.mutable.Map.empty[ExprId, Int].withDefaultValue(0)
    private val truth = scala.collection.mutable.Map.empty[ExprId, Int].withDefaultValue(0)

    def onlyTruth(id: ExprId): Boolean = all(id) == truth(id)

    /** The plan's output shows the mark as it is: all three values. */
    def outside(output: Seq[Attribute]): Unit = output.foreach(a => if (ids(a.exprId)) all(a.exprId) += 1)

    def count(p: LogicalPlan): Unit = {
      p match {
        case Filter(condition, _) => walk(condition, truthOnly = true)
        case j: Join => j.condition.foreach(walk(_, truthOnly = true))
        case Project(list, _) =>
          // A projection passing the mark on by its own id is no use of it: its uses are counted where they are.
          list.foreach {
            case a: Attribute if ids(a.exprId) =>
            case e => walk(e, truthOnly = false)
          }
        case other => other.expressions.foreach(walk(_, truthOnly = false))
      }
      // Operators whose output does not name its input's columns by id (a union's columns are its
      // first input's, a CTE reference's its definition's) or that compare whole rows (DISTINCT):
      // whatever they take from an input is a use. Elsewhere the mark's other values (NULL or
      // false) only ever reach rows a truth test drops.
      if (!byId(p)) p.children.foreach(c => outside(c.output))
    }

    private def byId(p: LogicalPlan): Boolean = p match {
      case _: Project | _: Filter | _: Join | _: Aggregate | _: Sort | _: GlobalLimit | _: LocalLimit | _: SubqueryAlias |
          _: Window | _: Expand | _: Generate | _: Deduplicate | _: Sample | _: RepartitionByExpression |
          _: Repartition => true
      case _ => false
    }

    private def walk(e: Expression, truthOnly: Boolean): Unit = e match {
      case a: Attribute if ids(a.exprId) =>
        all(a.exprId) += 1
        if (truthOnly) truth(a.exprId) += 1
      case Coalesce(Seq(a: Attribute, Literal(false, BooleanType))) if ids(a.exprId) =>
        all(a.exprId) += 1
        truth(a.exprId) += 1
      case And(l, r) => walk(l, truthOnly); walk(r, truthOnly)
      case Or(l, r) => walk(l, truthOnly); walk(r, truthOnly)
      case OuterReference(a: Attribute) if ids(a.exprId) => all(a.exprId) += 1
      case s: SubqueryExpression =>
        // What a subquery returns is compared or tested by position: a use.
        outside(s.plan.output)
        s.children.foreach(walk(_, truthOnly = false))
      case other => other.children.foreach(walk(_, truthOnly = false))
    }
  }
}
