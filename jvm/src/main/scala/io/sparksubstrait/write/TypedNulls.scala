package io.sparksubstrait.write

import org.apache.spark.sql.catalyst.expressions.{
  Alias, AttributeReference, Cast, ExprId, Expression, Literal, OuterReference
}
import org.apache.spark.sql.catalyst.plans.logical.{Except, Intersect, LogicalPlan, Union}
import org.apache.spark.sql.types.{DataType, NullType}

/**
 * SQL's bare NULL in a SELECT list (`SELECT NULL AS s_state`) is a void (NullType) column,
 * which Substrait has no type for. Analyzed plans type it where it is used: a UNION's branch
 * gets a projection above casting it to the union column's type (WidenSetOperationTypes), as
 * TPC-DS q27 and q36 have. A void column whose every use is a cast to one type T holds only
 * NULLs of T: it is written as a NULL of T, and its casts (now of T to T) as the column. A
 * void column used any other way (bare, compared, grouped by, as a set operation's or a CTE's
 * column, at the plan's output) or not at all stays void, and writing it is refused as before.
 */
private[sparksubstrait] object TypedNulls {
  def apply(plan: LogicalPlan): LogicalPlan = {
    val nodes = plan.collectWithSubqueries { case p => p }
    val voids: Set[ExprId] = nodes.flatMap(_.expressions.flatMap(_.collect {
      case a @ Alias(Literal(null, NullType), _) => a.exprId
    })).toSet
    if (voids.isEmpty) return plan

    // Each use of a void column: Some(T) for a cast to T, None for any other.
    val uses = scala.collection.mutable.Map[ExprId, Set[Option[DataType]]]().withDefaultValue(Set.empty)
    def walk(e: Expression): Unit = e match {
      case c: Cast if isVoid(c.child, voids) =>
        val id = c.child.asInstanceOf[AttributeReference].exprId
        uses(id) += Some(c.dataType)
      case a: AttributeReference if voids(a.exprId) => uses(a.exprId) += None
      // A subquery's reference to an outer column: a leaf holding the attribute.
      case OuterReference(a) if voids(a.exprId) => uses(a.exprId) += None
      case other => other.children.foreach(walk)
    }
    nodes.foreach(_.expressions.foreach(walk))
    // Columns passed on by position rather than by reference: the plan's output and set operations' inputs.
    val positional = plan.output ++ nodes.flatMap {
      case s @ (_: Union | _: Intersect | _: Except) => s.children.flatMap(_.output)
      case _ => Nil
    }
    positional.foreach(a => if (voids(a.exprId)) uses(a.exprId) += None)

    val typed: Map[ExprId, DataType] = uses.toMap.collect { case (id, Only(Some(t))) => id -> t }
    if (typed.isEmpty) return plan
    plan.transformUpWithSubqueries { case p =>
      p.transformExpressionsDown {
        case c: Cast if isVoid(c.child, typed.keySet) =>
          val a = c.child.asInstanceOf[AttributeReference]
          a.withDataType(typed(a.exprId))
        case a @ Alias(Literal(null, NullType), _) if typed.contains(a.exprId) =>
          a.withNewChildren(Seq(Literal(null, typed(a.exprId))))
      }
    }
  }

  private def isVoid(e: Expression, ids: Set[ExprId]): Boolean = e match {
    case a: AttributeReference => a.dataType == NullType && ids(a.exprId)
    case _ => false
  }

  /** A set of exactly one element. */
  private object Only {
    def unapply[T](s: Set[T]): Option[T] = if (s.size == 1) s.headOption else None
  }
}
