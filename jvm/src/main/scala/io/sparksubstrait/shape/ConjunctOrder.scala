package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.types._
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * A filter's conjuncts, cheapest first. Spark evaluates a filter's conjuncts in the order
 * given and never reorders them by cost; a query's author usually writes the selective
 * range on the date first, but DuckDB's plan lists them in the order its own optimizer
 * chose (TPC-H Q6: `l_quantity < 24` on decimals first, the date range last), which costs
 * Spark about 18 % on Q6 (docs/performance.md). The query's order is gone from such a plan,
 * so the order is ours to choose: null tests, then comparisons on fixed-width values,
 * decimals, strings, anything else; the plan's order within each.
 *
 * Rows are the same: AND is commutative. Errors too: a conjunct that can raise (an ANSI
 * cast, a division, any function) keeps every conjunct that preceded it in front of it,
 * and only conjuncts that cannot raise move ahead, so a row a guard used to stop still
 * stops there. Non-deterministic filters are left as written.
 */
private[sparksubstrait] object ConjunctOrder extends PlanShapes.Shape with PredicateHelper {
  val name = "conjunct-order"
  val meaning =
    "a filter's conjuncts cheapest first (null tests, fixed-width, decimal, string comparisons), those that can raise last in their order"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.writesOptimizedPlans

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = plan.transformUpWithSubqueries {
    case f @ Filter(condition, child) if condition.resolved && condition.deterministic =>
      val conjuncts = splitConjunctivePredicates(condition)
      val ordered = order(conjuncts)
      if (ordered == conjuncts) f else Filter(ordered.reduce(And), child)
  }

  /** Stable: a sort on the cost class only; everything that can raise sorts last. */
  private[shape] def order(conjuncts: Seq[Expression]): Seq[Expression] =
    conjuncts.zipWithIndex.sortBy { case (c, i) => (costClass(c), i) }.map(_._1)

  /** After every conjunct that cannot raise. */
  private val MayRaise = 5

  private[shape] def costClass(c: Expression): Int =
    if (!cannotRaise(c)) MayRaise
    else c match {
      case IsNotNull(_: Attribute) | IsNull(_: Attribute) => 0
      case _ =>
        val compared = c.collect { case a: Attribute => a.dataType }
        if (!c.isInstanceOf[BinaryComparison] && !c.isInstanceOf[In] && !c.isInstanceOf[InSet]) 4
        else if (compared.forall(fixedWidth)) 1
        else if (compared.forall(t => fixedWidth(t) || t.isInstanceOf[DecimalType])) 2
        else if (compared.forall(t => fixedWidth(t) || t.isInstanceOf[DecimalType] || t.isInstanceOf[StringType])) 3
        else 4
    }

  private def fixedWidth(t: DataType): Boolean = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType | DateType | TimestampType =>
      true
    case _ => t.getClass.getSimpleName.startsWith("TimestampNTZ")
  }

  /** Built only of what never raises: columns, literals, comparisons, logic, widening casts. */
  private[shape] def cannotRaise(e: Expression): Boolean = e match {
    case _: Attribute | _: Literal => true
    case _: And | _: Or | _: Not | _: IsNull | _: IsNotNull => e.children.forall(cannotRaise)
    case b: BinaryComparison => b.left.dataType == b.right.dataType && b.children.forall(cannotRaise)
    case i: In => i.list.forall(_.isInstanceOf[Literal]) && cannotRaise(i.value)
    case i: InSet => cannotRaise(i.child)
    case s @ (_: StartsWith | _: EndsWith | _: Contains) => s.children.forall(cannotRaise)
    case c: Cast => Cast.canUpCast(c.child.dataType, c.dataType) && cannotRaise(c.child)
    case _ => false
  }
}
