package io.sparksubstrait.convert.rel

import org.apache.spark.sql.catalyst.expressions.{
  Alias, And, Attribute, CaseWhen, Cast, EqualTo, Expression, GreaterThan, GroupingID, GroupingSets, Literal,
  NamedExpression, Or
}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Average, Count, Max, Min, Sum}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, LogicalPlan, OneRowRelation, Project, Union}
import org.apache.spark.sql.types.{IntegerType, LongType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.runtime.{DecimalSum, IntegerSum}

/**
 * An AggregateRel with several grouping sets. Output: every distinct grouping expression
 * (NULL where a row's set lacks it), the measures, and the i32 index of the row's set.
 *
 * The sets take Spark SQL's GROUPING SETS form, so the input is read once: one Expand
 * feeding one aggregate (the analyzer builds both from `GroupingSets`). The set index comes
 * from Spark's grouping id, a bitmask of the absent expressions (the first expression is the
 * highest bit).
 *
 * The empty set `()` gives one row even for an empty input, as SQL's empty grouping set
 * does, where Spark's GROUPING SETS gives none (its Expand makes no row of no row). So with
 * an empty set the input gains one sentinel row (every column NULL, `real_row` false) that
 * every aggregate skips (a FILTER on `real_row`, needless for those that skip NULLs): it makes the empty set's row exist over an
 * empty input, with each aggregate's value over no rows; the groups it alone makes in the
 * other sets (its keys over NULL columns) are dropped by a filter keeping a row of the empty
 * set or with a real row. Reading the input once keeps ROLLUP / CUBE with their grand total
 * as fast as Spark SQL's (a union of one aggregate per set read it once per set).
 *
 * Two sets with the same expressions share a bitmask, so a plan repeating a set is a UNION
 * ALL of one aggregate per set; so is one with more grouping expressions than the bitmask
 * holds, or with two that Spark deems the same.
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
    // Constants every set groups by (our writer adds one to each): see `expanded`.
    val constant = groupExprs.indices.filter(k => groupExprs(k).foldable && sets.forall(_.contains(k))).toSet
    // Sets the same but for those constants share a bitmask.
    val repeats = sets.map(_.filterNot(constant).toSet).distinct.size < sets.size
    // Spark keys the bitmask by its own distinct grouping expressions: ours must be distinct to it too.
    val alike = groupExprs.map(_.canonicalized).distinct.size < groupExprs.size
    if (!(repeats || alike || groupExprs.size > 62)) expanded(indexed, groupExprs, constant, measures, input)
    else {
      // Every branch of the union reads the input through one shared reference (SharedSubtrees.readTwice).
      val child = ctx.subtrees.readTwice(input)
      Union(indexed.map(oneSet(_, groupExprs, measures, child)))
    }
  }

  private def expanded(sets: Seq[(Seq[Int], Int)], groupExprs: Seq[Expression], constant: Set[Int],
    measures: Seq[NamedExpression], input: LogicalPlan): LogicalPlan = {
    // Always aliased: the analyzer swaps the grouping columns for Expand's (nullable) copies,
    // and the aliases keep the attribute ids the relations above already refer to.
    val groupOutput = groupExprs.zipWithIndex.map {
      case (n: NamedExpression, _) => Alias(n, n.name)()
      case (e, k) => Alias(e, s"group$k")()
    }
    // Spark's sets: without the constants every set groups by (our writer adds one to each: in
    // Spark's Expand every set, () too, groups rows by the grouping id already, so a set of
    // constants alone is Spark's (), which gives no row of no rows, as the constant's group).
    // Their value is the constant in every row: no Expand column, no hash key.
    val keyed = groupExprs.indices.filterNot(constant)
    val gid = GroupingID(Nil)
    def mask(set: Seq[Int]): Literal = {
      val bits = keyed.indices.filterNot(i => set.contains(keyed(i))).map(i => 1L << (keyed.size - 1 - i)).sum
      if (gid.dataType == IntegerType) Literal(bits.toInt) else Literal.create(bits, LongType)
    }
    val index = Alias(
      CaseWhen(sets.init.map { case (set, i) => EqualTo(gid, mask(set)) -> Literal(i) }, Literal(sets.last._2)),
      "grouping_set")()
    def aggregate(measures: Seq[NamedExpression], extra: Seq[NamedExpression], child: LogicalPlan) =
      Aggregate(Seq(GroupingSets(sets.map(_._1.filterNot(constant).map(groupExprs)), keyed.map(groupExprs))),
        groupOutput ++ measures ++ (index +: extra), child)
    sets.find(_._1.isEmpty) match {
      case None => aggregate(measures, Nil, input)
      case Some((_, emptySet)) =>
        val real = Alias(Literal.TrueLiteral, "real_row")()
        val sentinel = Project(input.output.map(a => Alias(Literal(null, a.dataType), a.name)()) :+
            Alias(Literal.FalseLiteral, "real_row")(), OneRowRelation())
        // A Union's output is its first child's attributes: the grouping expressions still refer to them.
        val rows = Union(Project(input.output :+ real, input), sentinel)
        val onlyReal = measures.map(_.transformUp {
          case a: AggregateExpression if !skipsNulls(a) =>
            a.copy(filter = Some(a.filter.fold[Expression](real.toAttribute)(And(real.toAttribute, _))))
        }.asInstanceOf[NamedExpression])
        val realRows =
          Alias(Count(Literal(1)).toAggregateExpression(isDistinct = false, filter = Some(real.toAttribute)),
            "real_rows")()
        val grouped = aggregate(onlyReal, Seq(realRows), rows)
        val kept = Filter(
          Or(EqualTo(index.toAttribute, Literal(emptySet)), GreaterThan(realRows.toAttribute, Literal(0L))), grouped)
        Project(grouped.output.init, kept)
    }
  }

  /**
   * A count, sum, average, min or max of a column as it is (or cast): the sentinel's NULL is no
   * value to it, so it needs no FILTER. Spark then plans it as for SQL: no filter evaluated per
   * row, and a DISTINCT one through its two-phase distinct aggregate (with a FILTER, through
   * another Expand).
   */
  private def skipsNulls(a: AggregateExpression): Boolean =
    (a.aggregateFunction match {
      case _: Count | _: Sum | _: Average | _: Min | _: Max | _: IntegerSum | _: DecimalSum => true
      case _ => false
    }) && a.aggregateFunction.children.forall(isColumn)

  private def isColumn(e: Expression): Boolean = e match {
    case _: Attribute => true
    case c: Cast => isColumn(c.child)
    case _ => false
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
