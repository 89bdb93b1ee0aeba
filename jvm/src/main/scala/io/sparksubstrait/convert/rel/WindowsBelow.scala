package io.sparksubstrait.convert.rel

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.{Alias, Expression => CExpression, NamedExpression, WindowExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}

/**
 * Window functions where Spark's analyzer takes none: a filter's condition (SQL's QUALIFY),
 * a sort key, an aggregate's arguments, keys or measure filters. In Substrait such a window is
 * computed over the relation's input rows; so is a column that a projection below the
 * relation adds for it, which the relation then reads instead. Spark refuses the window in
 * place ("window functions inside WHERE", "a window function inside an aggregate function").
 */
private[convert] object WindowsBelow {

  /**
   * `expressions` with each window replaced by a column of a projection over `child` (the
   * input's columns, then one per distinct window), and that projection; `child` itself and
   * the expressions unchanged when there is no window. A window inside another's arguments
   * stays where it is (the outer one is the column), as Spark nests them.
   */
  def apply(expressions: Seq[CExpression], child: LogicalPlan): (Seq[CExpression], LogicalPlan) = {
    if (!expressions.exists(_.exists(_.isInstanceOf[WindowExpression]))) return (expressions, child)
    val windows = mutable.LinkedHashMap.empty[CExpression, Alias]
    val rewritten = expressions.map(_.transformDown {
      case w: WindowExpression =>
        windows.getOrElseUpdate(w.canonicalized, Alias(w, s"window${windows.size}")()).toAttribute
    })
    val columns: Seq[NamedExpression] = child.output ++ windows.values
    (rewritten, Project(columns, child))
  }

  /** The relation built over the projection, narrowed back to its own output when the projection added columns. */
  def keepingOutput(relation: LogicalPlan, child: LogicalPlan, below: LogicalPlan): LogicalPlan =
    if (below eq child) relation else Project(child.output, relation)
}
