package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.expressions.{
  Attribute, AttributeReference, CaseWhen, EqualTo, Expression, Literal, NamedExpression
}
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Expand}
import org.apache.spark.sql.types.IntegerType

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{AggregateRel, Rel, SetRel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.{ExpressionWriter, FunctionWriter, InputRecord}

/**
 * GROUPING SETS, ROLLUP and CUBE: Spark's Aggregate over an Expand (one projection per set,
 * NULL for the keys a set lacks, and the grouping id) back into one AggregateRel with a
 * grouping per projection, over the Expand's input.
 *
 * Every set also groups by a constant: Spark's sets all group its expanded rows, so even the
 * empty set () gives no row for an empty input, where Substrait's empty set gives one (SQL's
 * rule). Spark's grouping id (what grouping() and grouping_id() read: a bitmask of the keys a
 * set lacks) is a constant of each Expand projection; Substrait numbers a row's grouping set in
 * the extra column it appends with several sets, so the id is written as the constant of that
 * set (a CASE over the set index). Queries that aggregate a grouping key are refused.
 *
 * For a target whose consumer misreads grouping sets (`setsAsUnion`: DataFusion 55 reads its
 * own layout, the set index before the measures), the same record is a UNION ALL of one
 * single-grouping aggregate per set, each projected to every key (NULL where the set lacks it),
 * the measures and its set's index: the input is read once per set.
 */
private[sparksubstrait] object GroupingSetsWriter {
  def isGroupingSets(a: Aggregate): Boolean = a.child match {
    case e: Expand => gidIndex(e) >= 0
    case _ => false
  }

  private def gidIndex(e: Expand): Int = e.output.indexWhere(_.name == "spark_grouping_id")

  def write(a: Aggregate, calls: Seq[AggregateExpression], at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val e = a.child.asInstanceOf[Expand]
    val here = at / e
    val gid = e.output(gidIndex(e))
    val keys: Seq[Attribute] = a.groupingExpressions.map {
      case k: Attribute if e.output.exists(_.exprId == k.exprId) => k
      case other => throw refuse(here, s"the grouping expression ${other.sql}", "a grouping key the Expand computes")
    }.filterNot(_.exprId == gid.exprId)
    val gidOfSet = e.projections.map(_(gidIndex(e)) match {
      case l: Literal => l
      case other => throw refuse(here, s"the grouping id computed as ${other.sql}", "a constant id per grouping set")
    })
    if (calls.exists(_.references.exists(r => keys.exists(_.exprId == r.exprId)))) {
      throw refuse(here, "an aggregate of a grouping key", "aggregates of columns that are not grouping keys")
    }
    val positions = keys.map(k => e.output.indexWhere(_.exprId == k.exprId))
    // Each key's value in the sets that keep it: one expression of the Expand's input.
    val sources = positions.map { p =>
      e.projections.map(_(p)).filterNot(isNull).distinct match {
        case Seq(one) => one
        // Spark tells repeated sets apart by a key of its own holding each set's position.
        case several if several.forall(_.isInstanceOf[Literal]) =>
          throw refuse(here, "a repeated grouping set (Spark numbers the repeats)",
            "grouping sets that are all different")
        case several => throw refuse(here, s"a grouping key computed as ${several.map(_.sql).mkString(" or ")}",
            "one expression per grouping key")
      }
    }
    val kept = e.projections.map(proj => positions.indices.filter(i => !isNull(proj(positions(i)))))
    // Grouping expressions: the constant, then the keys by first appearance in the sets, so the
    // output is in this order whether a consumer lists the expressions as declared or as the
    // sets first name them (both readings of the spec are in use).
    val order = positions.indices.sortBy(i => kept.indexWhere(_.contains(i)))
    order.find(i => !kept.exists(_.contains(i))).foreach { i =>
      throw refuse(here, s"the grouping key ${keys(i).sql} in no grouping set", "keys that some set groups by")
    }
    val slot = order.zipWithIndex.map { case (key, k) => key -> (k + 1) }.toMap
    val sets = kept.map(set => 0 +: set.map(slot).sorted)
    val record = InputRecord(e.child.output)
    val written = (Literal(0) +: order.map(sources)).zipWithIndex.map { case (s, i) =>
      ExpressionWriter.write(s, record, here / s"grouping key $i")
    }
    // One AggregateRel over the Expand's input with these groupings (each a list of slots of `written`).
    def aggregate(groupings: Seq[Seq[Int]]): Rel = {
      val b = AggregateRel.newBuilder().setInput(RelWriter.write(e.child, here))
      // A single grouping lists only its own expressions: no consumer need decide whether unused ones are output.
      val listed = if (groupings.size == 1) groupings.head else written.indices
      groupings.foreach { set =>
        val g = AggregateRel.Grouping.newBuilder()
        if (ctx.target.legacyGroupings) set.foreach(i => g.addGroupingExpressions(written(i)))
        else set.foreach(i => g.addExpressionReferences(listed.indexOf(i)))
        b.addGroupings(g)
      }
      if (!ctx.target.legacyGroupings) listed.foreach(i => b.addGroupingExpressions(written(i)))
      calls.zipWithIndex.foreach { case (c, i) =>
        val m = AggregateRel.Measure.newBuilder().setMeasure(FunctionWriter.aggregate(c, record, at / s"aggregate $i"))
        c.filter.foreach(f => m.setFilter(ExpressionWriter.write(f, record, at / s"aggregate $i filter")))
        b.addMeasures(m)
      }
      Rel.newBuilder().setAggregate(b).build()
    }
    // The AggregateRel's record: the constant, the keys in that order, the measures, then
    // (several sets) the set index.
    def placeholder(name: String) = AttributeReference(name, IntegerType)()
    val slots: Seq[Attribute] = placeholder("spark_substrait_constant_group") +: order.map(keys)
    val index = if (sets.size > 1) Some(placeholder("spark_substrait_grouping_set")) else None
    val rel =
      if (index.isEmpty || !ctx.target.setsAsUnion) aggregate(sets)
      else {
        // The same record from a UNION ALL of one single-grouping aggregate per set: its keys, NULL
        // for the others, the measures and the set's index (for a consumer misreading grouping sets).
        val branches = sets.zipWithIndex.map { case (set, k) =>
          val columns = slots.indices.map(j => if (set.contains(j)) slots(j) else Literal(null, slots(j).dataType)) ++
            calls :+ Literal(k)
          ProjectWriter.project(aggregate(Seq(set)), InputRecord(set.map(slots) ++ calls), columns,
            here / s"grouping set $k")
        }
        val u = SetRel.newBuilder().setOp(SetRel.SetOp.SET_OP_UNION_ALL)
        branches.foreach(u.addInputs)
        Rel.newBuilder().setSet(u).build()
      }
    // What reads only the grouping id (grouping(k) is a bit of it) is a constant per set:
    // evaluated for each set's id, and chosen by the set index (the one set's value alone).
    def perSet(x: Expression): Expression = {
      val values = gidOfSet.map(id =>
        Literal.create(x.transform { case r: Attribute if r.exprId == gid.exprId => id }
            .eval(), x.dataType))
      index match {
        case None => values.head
        case Some(i) => CaseWhen(values.zipWithIndex.map { case (v, k) => EqualTo(i, Literal(k)) -> v })
      }
    }
    val columns = a.aggregateExpressions.map(_.transformDown {
      // Not an alias: its name stays, its child is replaced.
      case x if (!x.isInstanceOf[NamedExpression] || x.isInstanceOf[Attribute]) && readsOnly(x, gid) => perSet(x)
    })
    ProjectWriter.project(rel, InputRecord(slots ++ calls ++ index.toSeq), columns, at)
  }

  private def readsOnly(x: Expression, gid: Attribute): Boolean =
    x.deterministic && x.references.nonEmpty && x.references.forall(_.exprId == gid.exprId)

  private def isNull(e: Expression): Boolean = e match {
    case Literal(null, _) => true
    case _ => false
  }

  private def refuse(at: CatalystPath, node: String, expected: String) =
    SubstraitErrors.unwritable(at.toString, node, "Substrait's grouping sets cannot express it exactly", expected)
}
