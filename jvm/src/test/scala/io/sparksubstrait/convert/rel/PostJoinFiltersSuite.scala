package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{ComparisonJoinKey, Expression, HashJoinRel, MergeJoinRel, Rel}
import io.sparksubstrait.proto.JoinRel.JoinType._
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{JoinTables, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * A join's post-join filter and the physical joins' residual expression, by the spec release
 * the plan is stamped with: from 0.91 a filter over the join's output (references over its
 * direct output order) that never decides matches; before 0.91 a match predicate on semi,
 * anti, mark and physical joins. Rows against Spark SQL or worked out by hand, with NULL
 * keys, duplicates and an empty side.
 */
class PostJoinFiltersSuite extends SparkSuite with SubstraitAssertions with JoinTables {
  private def current = new PlanBuilder(minor = 108)
  private def before091 = new PlanBuilder(minor = 90)
  private def keysEqual(b: PlanBuilder) = b.call(b.fn("functions_comparison", "equal:any_any"), field(0), field(2))
  private def notX(b: PlanBuilder, i: Int) =
    b.call(b.fn("functions_comparison", "not_equal:any_any"), field(i), litString("x"))
  private def notNull(b: PlanBuilder, i: Int) = b.call(b.fn("functions_comparison", "is_not_null:any"), field(i))
  private def names(n: Int) = (0 until n).map(i => s"c$i")

  test("JoinRel (spec 0.91+): the post-join filter filters the output of semi and anti joins, over their one side") {
    val b = current
    for ((t, sql) <- Seq(JOIN_TYPE_LEFT_SEMI -> "l LEFT SEMI JOIN %s r ON l.k = r.k",
        JOIN_TYPE_LEFT_ANTI -> "l LEFT ANTI JOIN %s r ON l.k = r.k");
      right <- Seq("r", "r0")) {
      // `v IS NOT NULL` is field 1 of the output (l's fields only). As a match predicate it
      // would keep (4, NULL) in the anti join (no match counts): as a filter it drops it.
      val rel = join(readNamed(lSchema, "l"), readNamed(rSchema, right), t, Some(keysEqual(b)), Some(notNull(b, 1)))
      assertSameRows(run(b.plan(rel, names(2): _*)),
        spark.sql(s"SELECT * FROM (${sql.format(right)}) WHERE v IS NOT NULL"))
    }
    // Right semi / anti: the output is r's fields, so field 1 is r.w.
    val rightAnti =
      join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_RIGHT_ANTI, Some(keysEqual(b)), Some(notX(b, 1)))
    assertSameRows(run(b.plan(rightAnti, names(2): _*)),
      spark.sql("SELECT * FROM (SELECT * FROM r LEFT ANTI JOIN l ON l.k = r.k) WHERE w <> 'x'"))
    val rightSemi =
      join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_RIGHT_SEMI, Some(keysEqual(b)), Some(notX(b, 1)))
    assertSameRows(run(b.plan(rightSemi, names(2): _*)),
      spark.sql("SELECT * FROM (SELECT * FROM r LEFT SEMI JOIN l ON l.k = r.k) WHERE w <> 'x'"))
    // A reference to the other side, which the output no longer has, is the plan's error.
    assertPlanError("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
      "relations[0].root.input.join.post_join_filter.scalar_function.arguments[0].value.selection.direct_reference.struct_field.field") {
      run(b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_LEFT_SEMI, Some(keysEqual(b)),
            Some(notX(b, 3))), names(2): _*))
    }
  }

  test("JoinRel (spec 0.91+): the post-join filter of a mark join sees the marked side and the mark (rows by hand)") {
    val b = current
    // Marks as in JoinsSuite: (1,a,NULL) (2,b,true) (2,b,true) (NULL,n,NULL) (4,NULL,true); keep non-NULL marks.
    val rel = join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_LEFT_MARK, Some(keysEqual(b)),
      Some(notNull(b, 2)))
    assertRows(run(b.plan(rel, "k", "v", "m")), Seq(Row(2, "b", true), Row(2, "b", true), Row(4, null, true)))
    val empty = join(readNamed(lSchema, "l"), readNamed(rSchema, "r0"), JOIN_TYPE_RIGHT_MARK, Some(keysEqual(b)),
      Some(notNull(b, 2)))
    assertRows(run(b.plan(empty, "k", "w", "m")), Nil)
    // Inner and outer joins: a filter over both sides, as before 0.91.
    val left =
      join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_LEFT, Some(keysEqual(b)), Some(notX(b, 3)))
    assertSameRows(run(b.plan(left, names(4): _*)),
      spark.sql("SELECT * FROM l LEFT JOIN r ON l.k = r.k WHERE r.w <> 'x'"))
  }

  test("JoinRel (spec < 0.91): on semi, anti and mark joins the post-join filter decides which matches count") {
    val b = before091
    def check(t: io.sparksubstrait.proto.JoinRel.JoinType, right: String, sql: String, n: Int) = {
      val rel = join(readNamed(lSchema, "l"), readNamed(rSchema, right), t, Some(keysEqual(b)), Some(notX(b, 3)))
      assertSameRows(run(b.plan(rel, names(n): _*)), spark.sql(sql))
    }
    for (right <- Seq("r", "r0")) {
      check(JOIN_TYPE_LEFT_SEMI, right, s"SELECT * FROM l LEFT SEMI JOIN $right r ON l.k = r.k AND r.w <> 'x'", 2)
      check(JOIN_TYPE_LEFT_ANTI, right, s"SELECT * FROM l LEFT ANTI JOIN $right r ON l.k = r.k AND r.w <> 'x'", 2)
      check(JOIN_TYPE_RIGHT_ANTI, right, s"SELECT * FROM $right r LEFT ANTI JOIN l ON l.k = r.k AND r.w <> 'x'", 2)
    }
    // The mark with `l.k = r.k AND r.w <> 'x'`, worked by hand: 4 meets only (4, 'x'), which
    // the predicate rejects, and r's NULL key: NULL.
    val mark =
      join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_LEFT_MARK, Some(keysEqual(b)), Some(notX(b, 3)))
    assertRows(run(b.plan(mark, "k", "v", "m")),
      Seq(Row(1, "a", null), Row(2, "b", true), Row(2, "b", true), Row(null, "n", null), Row(4, null, null)))
  }

  // ---- physical joins ----
  private val EQ = ComparisonJoinKey.SimpleComparisonType.SIMPLE_COMPARISON_TYPE_EQ
  private val key = ComparisonJoinKey.newBuilder().setLeft(field(0).getSelection).setRight(field(0).getSelection)
    .setComparison(ComparisonJoinKey.ComparisonType.newBuilder().setSimple(EQ)).build()
  private def hash(t: Int, right: String, residual: Option[Expression], post: Option[Expression]): Rel = {
    val h = HashJoinRel.newBuilder().setLeft(readNamed(lSchema, "l")).setRight(readNamed(rSchema, right)).setTypeValue(
      t).addKeys(key)
    residual.foreach(h.setResidualExpression)
    post.foreach(h.setPostJoinFilter)
    Rel.newBuilder().setHashJoin(h).build()
  }
  private def merge(t: Int, right: String, residual: Option[Expression], post: Option[Expression]): Rel = {
    val m = MergeJoinRel.newBuilder().setLeft(readNamed(lSchema, "l")).setRight(readNamed(rSchema, right)).setTypeValue(
      t).addKeys(key)
    residual.foreach(m.setResidualExpression)
    post.foreach(m.setPostJoinFilter)
    Rel.newBuilder().setMergeJoin(m).build()
  }

  test("hash and merge joins: the residual expression decides matches, with every join type's meaning") {
    val b = current
    // Physical numbering: 1 inner, 2 outer, 3 left, 4 right, 5 left semi, 6 right semi, 7 left anti, 8 right anti.
    val cases = Seq(1 -> ("l JOIN %s r ON l.k = r.k AND r.w <> 'x'", 4),
      2 -> ("l FULL JOIN %s r ON l.k = r.k AND r.w <> 'x'", 4),
      3 -> ("l LEFT JOIN %s r ON l.k = r.k AND r.w <> 'x'", 4),
      4 -> ("l RIGHT JOIN %s r ON l.k = r.k AND r.w <> 'x'", 4),
      5 -> ("l LEFT SEMI JOIN %s r ON l.k = r.k AND r.w <> 'x'", 2),
      6 -> ("%s r LEFT SEMI JOIN l ON l.k = r.k AND r.w <> 'x'", 2),
      7 -> ("l LEFT ANTI JOIN %s r ON l.k = r.k AND r.w <> 'x'", 2),
      8 -> ("%s r LEFT ANTI JOIN l ON l.k = r.k AND r.w <> 'x'", 2))
    for ((t, (sql, n)) <- cases; right <- Seq("r", "r0"); physical <- Seq(hash _, merge _)) {
      assertSameRows(run(b.plan(physical(t, right, Some(notX(b, 3)), None), names(n): _*)),
        spark.sql(s"SELECT * FROM ${sql.format(right)}"))
    }
    // A left mark join with the residual: the marks of the JoinRel case above, by hand.
    assertRows(run(b.plan(hash(11, "r", Some(notX(b, 3)), None), "k", "v", "m")),
      Seq(Row(1, "a", null), Row(2, "b", true), Row(2, "b", true), Row(null, "n", null), Row(4, null, null)))
  }

  test(
    "hash and merge joins (spec 0.91+): the post-join filter filters the output; before 0.91 it is a match predicate") {
    val b = current
    for (physical <- Seq(hash _, merge _)) {
      // Left join: NULL-extended rows have r.w NULL, which the filter drops (a match predicate would keep them).
      assertSameRows(run(b.plan(physical(3, "r", None, Some(notX(b, 3))), names(4): _*)),
        spark.sql("SELECT * FROM l LEFT JOIN r ON l.k = r.k WHERE r.w <> 'x'"))
      // Anti join with a residual and a filter over its output (l's fields).
      assertSameRows(run(b.plan(physical(7, "r", Some(notX(b, 3)), Some(notNull(b, 1))), names(2): _*)),
        spark.sql("SELECT * FROM (SELECT * FROM l LEFT ANTI JOIN r ON l.k = r.k AND r.w <> 'x') WHERE v IS NOT NULL"))
      // Mark join: the filter sees the mark (field 2).
      assertRows(run(b.plan(physical(11, "r", None, Some(notNull(b, 2))), "k", "v", "m")),
        Seq(Row(2, "b", true), Row(2, "b", true), Row(4, null, true)))
    }
    val old = before091
    for (physical <- Seq(hash _, merge _)) {
      assertSameRows(run(old.plan(physical(3, "r", None, Some(notX(old, 3))), names(4): _*)),
        spark.sql("SELECT * FROM l LEFT JOIN r ON l.k = r.k AND r.w <> 'x'"))
      assertSameRows(run(old.plan(physical(7, "r0", None, Some(notX(old, 3))), names(2): _*)),
        spark.sql("SELECT * FROM l LEFT ANTI JOIN r0 ON l.k = r0.k AND r0.w <> 'x'"))
    }
  }

  test("the plan explorer names the reading the post-join filter got") {
    def notes(b: PlanBuilder, t: io.sparksubstrait.proto.JoinRel.JoinType): String = {
      val plan =
        b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), t, Some(keysEqual(b)), Some(notNull(b, 1))),
          names(2): _*)
      SubstraitPlans.explain(spark, plan.toByteArray, null, null)
    }
    assert(notes(before091, JOIN_TYPE_LEFT_ANTI).contains("post_join_filter read as a match predicate"))
    assert(notes(current, JOIN_TYPE_LEFT_ANTI).contains("post_join_filter read as a filter over the join's output"))
  }
}
