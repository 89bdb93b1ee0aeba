package io.sparksubstrait.convert.rel

import org.apache.spark.sql.catalyst.expressions.{
  Alias, CaseWhen, EqualTo, Expression, GroupingID, GroupingSets, Literal, NamedExpression
}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Union}
import org.apache.spark.sql.types.{IntegerType, LongType}

import io.sparksubstrait.convert.ConversionContext

/**
 * An AggregateRel with several grouping sets. Output: every distinct grouping expression
 * (NULL where a row's set lacks it), the measures, and the i32 index of the row's set.
 *
 * The non-empty sets take Spark SQL's GROUPING SETS form, so the input is read once: one
 * Expand feeding one aggregate (the analyzer builds both from `GroupingSets`). The set index
 * comes from Spark's grouping id, a bitmask of the absent expressions (the first expression
 * is the highest bit).
 *
 * Each empty set `()` is a global aggregate of its own, united with the rest: it gives one
 * row even for an empty input, as SQL's empty grouping set does, where Spark's GROUPING SETS
 * gives none. Two sets with the same expressions share a bitmask, so a plan repeating a set
 * is a UNION ALL of one aggregate per set; so is one with more grouping expressions than the
 * bitmask holds, or with two that Spark deems the same.
 */
private[rel] object AggregateGroupingSets {

  /**
   * @param sets        each set's grouping expressions, as indices into `groupExprs`
   * @param groupExprs  the distinct grouping expressions, converted
   * @param measures    the measures, named
   */
  def apply(sets: Seq[Seq[Int]], groupExprs: Seq[Expression], measures: Seq[NamedExpression], input: LogicalPlan)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val indexed = sets.zipWithIndex
    val repeats = sets.map(_.toSet).distinct.size < sets.size
    // Spark keys the bitmask by its own distinct grouping expressions: ours must be distinct to it too.
    val alike = groupExprs.map(_.canonicalized).distinct.size < groupExprs.size
    val (grouped, global) = indexed.partition(_._1.nonEmpty)
    val oneExpand = !(repeats || alike || groupExprs.size > 62 || grouped.size < 2)
    // Every branch of the union reads the input through one shared reference (SharedSubtrees.readTwice).
    val branches = if (oneExpand) 1 + global.size else indexed.size
    val child = if (branches > 1) ctx.subtrees.readTwice(input) else input
    val parts =
      if (!oneExpand) indexed.map(oneSet(_, groupExprs, measures, child))
      else expanded(grouped, groupExprs, measures, child) +: global.map(oneSet(_, groupExprs, measures, child))
    if (parts.size == 1) parts.head else Union(parts)
  }

  private def expanded(sets: Seq[(Seq[Int], Int)], groupExprs: Seq[Expression], measures: Seq[NamedExpression],
    child: LogicalPlan): LogicalPlan = {
    // Always aliased: the analyzer swaps the grouping columns for Expand's (nullable) copies,
    // and the aliases keep the attribute ids the relations above already refer to.
    val groupOutput = groupExprs.zipWithIndex.map {
      case (n: NamedExpression, _) => Alias(n, n.name)()
      case (e, k) => Alias(e, s"group$k")()
    }
    val gid = GroupingID(Nil)
    def mask(set: Seq[Int]): Literal = {
      val bits = groupExprs.indices.filterNot(set.contains).map(k => 1L << (groupExprs.size - 1 - k)).sum
      if (gid.dataType == IntegerType) Literal(bits.toInt) else Literal.create(bits, LongType)
    }
    val index =
      CaseWhen(sets.init.map { case (set, i) => EqualTo(gid, mask(set)) -> Literal(i) }, Literal(sets.last._2))
    Aggregate(Seq(GroupingSets(sets.map(_._1.map(groupExprs)), groupExprs)),
      groupOutput ++ measures :+ Alias(index, "grouping_set")(), child)
  }

  /** One set as a GROUP BY of its expressions, the others NULL. */
  private def oneSet(set: (Seq[Int], Int), groupExprs: Seq[Expression], measures: Seq[NamedExpression],
    child: LogicalPlan): LogicalPlan = {
    val (keys, index) = set
    val groupOutput = groupExprs.zipWithIndex.map { case (e, k) =>
      Alias(if (keys.contains(k)) e else Literal(null, e.dataType), s"group$k")()
    }
    // Fresh measure aliases per branch: a Union's children need distinct attribute ids.
    val branchMeasures = measures.map { case a: Alias => Alias(a.child, a.name)(); case m => m }
    Aggregate(keys.map(groupExprs),
      groupOutput ++ branchMeasures :+ Alias(Literal(index, IntegerType), "grouping_set")(), child)
  }
}
