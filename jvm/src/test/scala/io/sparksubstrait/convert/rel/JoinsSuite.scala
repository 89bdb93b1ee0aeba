package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{Expression, JoinRel, Rel}
import io.sparksubstrait.proto.JoinRel.JoinType._
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{JoinTables, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** JoinRel and CrossRel against the same joins in Spark SQL, with NULL keys, duplicates and an empty side. */
class JoinsSuite extends SparkSuite with SubstraitAssertions with JoinTables {
  private def keysEqual(b: PlanBuilder) = b.call(b.fn("functions_comparison", "equal:any_any"), field(0), field(2))

  private val cases = Seq(
    JOIN_TYPE_INNER -> "SELECT * FROM l JOIN %s r ON l.k = r.k",
    JOIN_TYPE_OUTER -> "SELECT * FROM l FULL OUTER JOIN %s r ON l.k = r.k",
    JOIN_TYPE_LEFT -> "SELECT * FROM l LEFT JOIN %s r ON l.k = r.k",
    JOIN_TYPE_RIGHT -> "SELECT * FROM l RIGHT JOIN %s r ON l.k = r.k",
    JOIN_TYPE_LEFT_SEMI -> "SELECT * FROM l LEFT SEMI JOIN %s r ON l.k = r.k",
    JOIN_TYPE_LEFT_ANTI -> "SELECT * FROM l LEFT ANTI JOIN %s r ON l.k = r.k",
    JOIN_TYPE_RIGHT_SEMI -> "SELECT * FROM %s r LEFT SEMI JOIN l ON l.k = r.k",
    JOIN_TYPE_RIGHT_ANTI -> "SELECT * FROM %s r LEFT ANTI JOIN l ON l.k = r.k")

  for ((joinType, sql) <- cases; right <- Seq("r", "r0")) {
    test(s"join ${joinType.name()} against $right") {
      val b = new PlanBuilder()
      val rel = join(readNamed(lSchema, "l"), readNamed(rSchema, right), joinType, Some(keysEqual(b)))
      val expected = spark.sql(sql.format(right))
      assertSameRows(run(b.plan(rel, expected.columns.indices.map(i => s"c$i"): _*)), expected)
    }
  }

  test("post-join filter applies to the joined rows (after NULL extension)") {
    val b = new PlanBuilder()
    val rel = join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_LEFT, Some(keysEqual(b)),
      Some(b.call(b.fn("functions_comparison", "is_null:any"), field(3))))
    assertSameRows(run(b.plan(rel, "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r ON l.k = r.k WHERE r.w IS NULL"))
  }

  test("join on the literal true, cross product, self-join, emit on a join") {
    val b = new PlanBuilder()
    // A JoinRel without its expression is refused (SpecRequirementsSuite); true is the spec's every-pair condition.
    assertSameRows(run(b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_INNER,
            Some(litBool(true))), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l CROSS JOIN r"))
    assertSameRows(run(b.plan(cross(readNamed(lSchema, "l"), readNamed(rSchema, "r")), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l CROSS JOIN r"))
    assertSameRows(run(b.plan(join(readNamed(lSchema, "l"), readNamed(lSchema, "l"), JOIN_TYPE_INNER,
            Some(keysEqual(b))), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l x JOIN l y ON x.k = y.k"))
    val emitted =
      emit(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_INNER, Some(keysEqual(b))), 3, 1)
    assertSameRows(run(b.plan(emitted, "w", "v")), spark.sql("SELECT r.w, l.v FROM l JOIN r ON l.k = r.k"))
  }

  test("single joins: at most one match per row, NULLs when none, a second match fails the query") {
    // Spark 4's single join; on Spark 3.5 the grouped outer join with a check (SingleJoinRewrite):
    // the same rows and the same error.
    val b = new PlanBuilder()
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW r1 AS SELECT * FROM VALUES (2, 'x'), (3, 'z'), (NULL, 'm'), (4, 'x') AS t(k, w)")
    def single(left: Rel, right: Rel, condition: Option[Expression],
      joinType: JoinRel.JoinType = JOIN_TYPE_LEFT_SINGLE) =
      join(left, right, joinType, condition)
    def l = readNamed(lSchema, "l")
    def r(name: String) = readNamed(rSchema, name)
    // With unique keys on the single side, a single join is the outer join.
    assertSameRows(run(b.plan(single(l, r("r1"), Some(keysEqual(b))), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r1 ON l.k = r1.k"))
    assertSameRows(run(b.plan(single(r("r1"), l, Some(keysEqual(b)), JOIN_TYPE_RIGHT_SINGLE), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM r1 RIGHT JOIN l ON l.k = r1.k"))
    assertSameRows(run(b.plan(single(l, r("r0"), Some(keysEqual(b))), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r0 ON l.k = r0.k"))
    // Several rows of a key no row matches: no error (r2's 7).
    spark.sql("CREATE OR REPLACE TEMP VIEW r2 AS SELECT * FROM r1 UNION ALL VALUES (7, 'a'), (7, 'b'), (NULL, 'o')")
    assertSameRows(run(b.plan(single(l, r("r2"), Some(keysEqual(b))), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r1 ON l.k = r1.k"))
    // IS NOT DISTINCT FROM: l's NULL key meets r1's NULL key (r2 has two: an error).
    val nullSafe = b.call(b.fn("functions_comparison", "is_not_distinct_from:any_any"), field(0), field(2))
    assertSameRows(run(b.plan(single(l, r("r1"), Some(nullSafe)), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r1 ON l.k <=> r1.k"))
    assertTooManyRows(run(b.plan(single(l, r("r2"), Some(nullSafe)), "a", "b", "c", "d")))
    // Conditions of one side with the keys: r.w <> 'y' leaves one row of key 2; l.v <> 'b' leaves
    // those rows unmatched.
    val notY = b.call(b.fn("functions_comparison", "not_equal:any_any"), field(3), litString("y"))
    val notB = b.call(b.fn("functions_comparison", "not_equal:any_any"), field(1), litString("b"))
    val and = b.call(b.fn("functions_boolean", "and:bool"), keysEqual(b), notY, notB)
    assertSameRows(run(b.plan(single(l, r("r"), Some(and)), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r ON l.k = r.k AND r.w <> 'y' AND l.v <> 'b'"))
    // The condition true: every row with the single side's one row, NULLs for none, an error for two.
    spark.sql("CREATE OR REPLACE TEMP VIEW r_one AS SELECT * FROM r WHERE w = 'z'")
    assertSameRows(run(b.plan(single(l, r("r_one"), Some(litBool(true))), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r_one ON true"))
    assertSameRows(run(b.plan(single(l, r("r0"), Some(litBool(true))), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r0 ON true"))
    assertTooManyRows(run(b.plan(single(l, r("r1"), Some(litBool(true))), "a", "b", "c", "d")))
    // r has two rows with key 2: an error, also when only the preserved side's columns are
    // read, or a filter on the single side's columns follows (it would drop the row on its own).
    assertTooManyRows(run(b.plan(single(l, r("r"), Some(keysEqual(b))), "a", "b", "c", "d")))
    assertTooManyRows(run(b.plan(emit(single(l, r("r"), Some(keysEqual(b))), 0, 1), "a", "b")))
    val isZ = b.call(b.fn("functions_comparison", "equal:any_any"), field(3), litString("z"))
    assertTooManyRows(run(b.plan(filter(single(l, r("r"), Some(keysEqual(b))), isZ), "a", "b", "c", "d")))
    assertTooManyRows(run(b.plan(single(r("r"), l, Some(keysEqual(b)), JOIN_TYPE_RIGHT_SINGLE), "a", "b", "c", "d")))
    // A condition between the sides other than equalities: Spark 3.5 cannot group by it.
    val less = b.call(b.fn("functions_comparison", "lt:any_any"), field(0), field(2))
    if (org.apache.spark.SPARK_VERSION.startsWith("3.")) {
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.join.type") {
        run(b.plan(single(l, r("r1"), Some(less)), "a", "b", "c", "d"))
      }
    } else {
      assertTooManyRows(run(b.plan(single(l, r("r1"), Some(less)), "a", "b", "c", "d")))
      assertSameRows(run(b.plan(single(l, r("r_one"), Some(less)), "a", "b", "c", "d")),
        spark.sql("SELECT * FROM l LEFT JOIN r_one ON l.k < r_one.k"))
    }
  }

  private def assertTooManyRows(df: => org.apache.spark.sql.DataFrame): Unit = {
    val e = intercept[Exception](df.collect())
    assert(causes(e).exists(_.getMessage.contains("SCALAR_SUBQUERY_TOO_MANY_ROWS")), e)
  }

  test("mark joins: the marked side with true / NULL / false by the spec's NULL rule (rows worked out by hand)") {
    val b = new PlanBuilder()
    // r has keys 2, 2, 3, NULL, 4: a left key with no match still meets r's NULL key, so NULL.
    assertRows(run(b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_LEFT_MARK,
            Some(keysEqual(b))), "k", "v", "m")),
      Seq(Row(1, "a", null), Row(2, "b", true), Row(2, "b", true), Row(null, "n", null), Row(4, null, true)))
    assertRows(run(b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r0"), JOIN_TYPE_LEFT_MARK,
            Some(keysEqual(b))), "k", "v", "m")),
      Seq(Row(1, "a", false), Row(2, "b", false), Row(2, "b", false), Row(null, "n", false), Row(4, null, false)))
    assertRows(run(b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_RIGHT_MARK,
            Some(keysEqual(b))), "k", "w", "m")),
      Seq(Row(2, "x", true), Row(2, "y", true), Row(3, "z", null), Row(null, "m", null), Row(4, "x", true)))
  }

  // ---- physical joins ----
  private def key(cmp: io.sparksubstrait.proto.ComparisonJoinKey.SimpleComparisonType) =
    io.sparksubstrait.proto.ComparisonJoinKey.newBuilder()
      .setLeft(field(0).getSelection).setRight(field(0).getSelection)
      .setComparison(io.sparksubstrait.proto.ComparisonJoinKey.ComparisonType.newBuilder().setSimple(cmp)).build()
  private def hashJoin(typeValue: Int, keys: Seq[io.sparksubstrait.proto.ComparisonJoinKey],
    post: Option[io.sparksubstrait.proto.Expression] = None) = {
    val h = io.sparksubstrait.proto.HashJoinRel.newBuilder().setLeft(readNamed(lSchema, "l")).setRight(
      readNamed(rSchema, "r"))
      .setTypeValue(typeValue)
    keys.foreach(h.addKeys)
    post.foreach(h.setPostJoinFilter)
    io.sparksubstrait.proto.Rel.newBuilder().setHashJoin(h).build()
  }
  private val EQ = io.sparksubstrait.proto.ComparisonJoinKey.SimpleComparisonType.SIMPLE_COMPARISON_TYPE_EQ

  // The physical joins number their types differently from JoinRel.
  private val physicalCases = Seq(1 -> "SELECT * FROM l JOIN r ON l.k = r.k",
    2 -> "SELECT * FROM l FULL JOIN r ON l.k = r.k",
    3 -> "SELECT * FROM l LEFT JOIN r ON l.k = r.k", 4 -> "SELECT * FROM l RIGHT JOIN r ON l.k = r.k",
    5 -> "SELECT * FROM l LEFT SEMI JOIN r ON l.k = r.k", 6 -> "SELECT * FROM r LEFT SEMI JOIN l ON l.k = r.k",
    7 -> "SELECT * FROM l LEFT ANTI JOIN r ON l.k = r.k", 8 -> "SELECT * FROM r LEFT ANTI JOIN l ON l.k = r.k")

  test("hash join: every join type of its own numbering, with a shuffle-hash hint on the build side") {
    for ((t, sql) <- physicalCases) {
      val expected = spark.sql(sql)
      val df = run(new PlanBuilder().plan(hashJoin(t, Seq(key(EQ))), expected.columns.indices.map(i => s"c$i"): _*))
      assertSameRows(df, expected)
    }
    val df = run(new PlanBuilder().plan(hashJoin(1, Seq(key(EQ))), "a", "b", "c", "d"))
    assert(df.queryExecution.analyzed.toString.contains("rightHint=(strategy=shuffle_hash)"),
      df.queryExecution.analyzed.toString)
  }

  test(
    "hash join keys: IS_NOT_DISTINCT_FROM, MIGHT_EQUAL, the deprecated key lists; the post-join predicate joins (spec < 0.91)") {
    import io.sparksubstrait.proto.ComparisonJoinKey.SimpleComparisonType._
    def check(rel: io.sparksubstrait.proto.Rel, sql: String) =
      assertSameRows(run(new PlanBuilder().plan(rel, "a", "b", "c", "d")), spark.sql(sql))
    check(hashJoin(1, Seq(key(SIMPLE_COMPARISON_TYPE_IS_NOT_DISTINCT_FROM))), "SELECT * FROM l JOIN r ON l.k <=> r.k")
    check(hashJoin(1, Seq(key(SIMPLE_COMPARISON_TYPE_MIGHT_EQUAL))),
      "SELECT * FROM l JOIN r ON l.k = r.k OR (l.k = r.k) IS NULL")
    val legacy = hashJoin(3, Nil).toBuilder
    legacy.getHashJoinBuilder.addLeftKeys(field(0).getSelection).addRightKeys(field(0).getSelection)
    check(legacy.build(), "SELECT * FROM l LEFT JOIN r ON l.k = r.k")
    val b = new PlanBuilder()
    val notX = b.call(b.fn("functions_comparison", "not_equal:any_any"), field(3), litString("x"))
    assertSameRows(run(b.plan(hashJoin(3, Seq(key(EQ)), Some(notX)), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r ON l.k = r.k AND r.w <> 'x'"))
  }

  test("merge join and nested-loop join (with and without an expression)") {
    val merge = io.sparksubstrait.proto.MergeJoinRel.newBuilder().setLeft(readNamed(lSchema, "l")).setRight(
      readNamed(rSchema, "r"))
      .setTypeValue(2).addKeys(key(EQ))
    assertSameRows(run(new PlanBuilder().plan(io.sparksubstrait.proto.Rel.newBuilder().setMergeJoin(merge).build(), "a",
          "b", "c", "d")),
      spark.sql("SELECT * FROM l FULL JOIN r ON l.k = r.k"))
    val b = new PlanBuilder()
    val nlj = io.sparksubstrait.proto.NestedLoopJoinRel.newBuilder().setLeft(readNamed(lSchema, "l")).setRight(
      readNamed(rSchema, "r"))
      .setTypeValue(7).setExpression(b.call(b.fn("functions_comparison", "lt:any_any"), field(0), field(2)))
    assertSameRows(run(b.plan(io.sparksubstrait.proto.Rel.newBuilder().setNestedLoopJoin(nlj).build(), "a", "b")),
      spark.sql("SELECT * FROM l LEFT ANTI JOIN r ON l.k < r.k"))
    val cartesian = nlj.clone().clearExpression().setTypeValue(1)
    assertSameRows(run(b.plan(io.sparksubstrait.proto.Rel.newBuilder().setNestedLoopJoin(cartesian).build(), "a", "b",
          "c", "d")),
      spark.sql("SELECT * FROM l CROSS JOIN r"))
  }

  test(
    "physical single and mark joins: the same rows as JoinRel's, the post-join predicate deciding the mark (spec < 0.91)") {
    val b = new PlanBuilder()
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW r1 AS SELECT * FROM VALUES (2, 'x'), (3, 'z'), (NULL, 'm'), (4, 'x') AS t(k, w)")
    val single = hashJoin(9, Seq(key(EQ))).toBuilder
    single.getHashJoinBuilder.setRight(readNamed(rSchema, "r1"))
    assertSameRows(run(b.plan(single.build(), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l LEFT JOIN r1 ON l.k = r1.k"))
    single.getHashJoinBuilder.setTypeValue(10).setLeft(readNamed(rSchema, "r1")).setRight(readNamed(lSchema, "l"))
    assertSameRows(run(b.plan(single.build(), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM r1 RIGHT JOIN l ON l.k = r1.k"))
    assertTooManyRows(run(b.plan(hashJoin(9, Seq(key(EQ))), "a", "b", "c", "d")))
    // The same marks as the JoinRel test above, worked by hand.
    assertRows(run(b.plan(hashJoin(11, Seq(key(EQ))), "k", "v", "m")),
      Seq(Row(1, "a", null), Row(2, "b", true), Row(2, "b", true), Row(null, "n", null), Row(4, null, true)))
    assertRows(run(b.plan(hashJoin(12, Seq(key(EQ))), "k", "w", "m")),
      Seq(Row(2, "x", true), Row(2, "y", true), Row(3, "z", null), Row(null, "m", null), Row(4, "x", true)))
    // With `r.w <> 'x'` as the post-join predicate: (4, NULL) now matches only r's (4, 'x'),
    // which the predicate rejects, and meets r's NULL key: NULL.
    val notX = b.call(b.fn("functions_comparison", "not_equal:any_any"), field(3), litString("x"))
    assertRows(run(b.plan(hashJoin(11, Seq(key(EQ)), Some(notX)), "k", "v", "m")),
      Seq(Row(1, "a", null), Row(2, "b", true), Row(2, "b", true), Row(null, "n", null), Row(4, null, null)))
  }

  test("physical joins: no keys, mixed key forms and custom key comparisons are errors") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.hash_join") {
      run(b.plan(hashJoin(1, Nil), "a", "b", "c", "d"))
    }
    val custom = key(EQ).toBuilder
    custom.getComparisonBuilder.setCustomFunctionReference(1)
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.hash_join.keys[0].comparison.custom_function_reference") {
      run(b.plan(hashJoin(1, Seq(custom.build())), "a", "b", "c", "d"))
    }
    val mixed = hashJoin(1, Seq(key(EQ))).toBuilder
    mixed.getHashJoinBuilder.addLeftKeys(field(0).getSelection).addRightKeys(field(0).getSelection)
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.hash_join") {
      run(b.plan(mixed.build(), "a", "b", "c", "d"))
    }
  }
}
