package org.apache.spark.sql.sparksubstrait

import org.apache.spark.SparkRuntimeException
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{
  AggregateExpression, AggregateFunction, Complete, Count, First
}
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenFallback
import org.apache.spark.sql.catalyst.plans.LeftOuter
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, Join, JoinHint, LogicalPlan, Project}
import org.apache.spark.sql.types.{BooleanType, DataType}

/**
 * A single join on Spark 3.5, which has no LeftSingle: every row of `preserved` with its one
 * matching row of `single`, NULLs when none, Spark 4's SCALAR_SUBQUERY_TOO_MANY_ROWS when more
 * than one matches. `single` is grouped by its side of the key equalities (its own conditions
 * applied first), each group counted and its columns taken by first(), which is exact for the
 * one row a group may have; a left outer join on the keys; then a filter that raises the error
 * for a row whose group counts more than one. Only conditions that are AND-ed equalities between
 * the sides and conditions of one side can be grouped so; anything else is refused (Left).
 */
private[sparksubstrait] object SingleJoinRewrite {
  val expected = "on Spark 3.5, a single join whose condition is AND-ed equalities between the two sides and " +
    "deterministic conditions of one side (Spark 4 has single joins)"

  def plan(preserved: LogicalPlan, single: LogicalPlan, condition: Option[Expression], hint: JoinHint)
    : Either[String, LogicalPlan] = {
    val conjuncts = condition.toSeq.flatMap(conjunctsOf)
    val (ofSingle, rest) = conjuncts.partition(c => c.references.nonEmpty && c.references.subsetOf(single.outputSet))
    val (ofPreserved, between) = rest.partition(_.references.subsetOf(preserved.outputSet))
    val keys = between.map(keyPair(_, preserved, single))
    if (!conjuncts.forall(_.deterministic) || keys.exists(_.isEmpty)) scala.util.Left(expected)
    else scala.util.Right(build(preserved, single, ofSingle, ofPreserved, keys.flatten, hint))
  }

  /** (preserved side, single side, null-safe) of an equality between the sides. */
  private def keyPair(c: Expression, preserved: LogicalPlan, single: LogicalPlan)
    : Option[(Expression, Expression, Boolean)] = {
    def sides(a: Expression, b: Expression) =
      if (a.references.subsetOf(preserved.outputSet) && b.references.subsetOf(single.outputSet)) Some((a, b))
      else if (b.references.subsetOf(preserved.outputSet) && a.references.subsetOf(single.outputSet)) Some((b, a))
      else None
    c match {
      case EqualTo(a, b) => sides(a, b).map { case (p, s) => (p, s, false) }
      case EqualNullSafe(a, b) => sides(a, b).map { case (p, s) => (p, s, true) }
      case _ => None
    }
  }

  private def build(preserved: LogicalPlan, single: LogicalPlan, ofSingle: Seq[Expression],
    ofPreserved: Seq[Expression], keys: Seq[(Expression, Expression, Boolean)], hint: JoinHint): LogicalPlan = {
    val input = ofSingle.reduceOption(And).map(Filter(_, single)).getOrElse(single)
    def agg(f: AggregateFunction) = AggregateExpression(f, Complete, isDistinct = false)
    val keyColumns = keys.zipWithIndex.map { case ((_, s, _), i) => Alias(s, s"key$i")() }
    val count = Alias(agg(Count(Seq(Literal(1)))), "matches")()
    val columns = single.output.map(a => Alias(agg(First(a, ignoreNulls = false)), a.name)())
    // Grouping treats NULL keys as one group (which `=` never matches and `<=>` does), and
    // -0.0 / NaN as equal, as Spark's `=` does.
    val grouped = Aggregate(keys.map(_._2), keyColumns ++ (count +: columns), input)
    val on = keys.zip(keyColumns).map { case ((p, _, nullSafe), k) =>
      if (nullSafe) EqualNullSafe(p, k.toAttribute) else EqualTo(p, k.toAttribute)
    } ++ ofPreserved
    val joined = Join(preserved, grouped, LeftOuter, on.reduceOption(And), hint)
    // Above the outer join the count is NULL for a row without a match (nullable, as the analyzer has it).
    val matches = count.toAttribute.withNullability(true)
    val checked = Filter(If(GreaterThan(matches, Literal(1L)), TooManyMatches(), Literal.TrueLiteral), joined)
    Project(preserved.output ++ columns.map(_.toAttribute), checked)
  }

  private def conjunctsOf(e: Expression): Seq[Expression] = e match {
    case And(l, r) => conjunctsOf(l) ++ conjunctsOf(r)
    case other => Seq(other)
  }
}

/**
 * Spark 4's error for a single join's second match, raised when evaluated. Not deterministic,
 * so that the optimizer keeps the filter it is in where it is: no filter above moves past it
 * (one on the single side's columns could otherwise drop the group that should fail), and the
 * outer join below stays one.
 */
final case class TooManyMatches() extends LeafExpression with CodegenFallback {
  override lazy val deterministic: Boolean = false
  override def dataType: DataType = BooleanType
  override def nullable: Boolean = true
  override def foldable: Boolean = false
  override def eval(input: InternalRow): Any =
    throw new SparkRuntimeException("SCALAR_SUBQUERY_TOO_MANY_ROWS", Map.empty[String, String])
  override def prettyName: String = "single_join_too_many_matches"
}
