package io.sparksubstrait

import io.substrait.proto.JoinRel.JoinType._

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** JoinRel and CrossRel against the same joins in Spark SQL, with NULL keys, duplicates and an empty side. */
class JoinsSuite extends SparkSuite with SubstraitAssertions {
  private val lSchema = schema("k" -> i32(), "v" -> string())
  private val rSchema = schema("k" -> i32(), "w" -> string())

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("CREATE OR REPLACE TEMP VIEW l AS SELECT * FROM VALUES (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (4, NULL) AS t(k, v)")
    spark.sql("CREATE OR REPLACE TEMP VIEW r AS SELECT * FROM VALUES (2, 'x'), (2, 'y'), (3, 'z'), (NULL, 'm'), (4, 'x') AS t(k, w)")
    spark.sql("CREATE OR REPLACE TEMP VIEW r0 AS SELECT * FROM r WHERE false")
  }

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
    assertSameRows(run(b.plan(rel, "a", "b", "c", "d")), spark.sql("SELECT * FROM l LEFT JOIN r ON l.k = r.k WHERE r.w IS NULL"))
  }

  test("join without a condition, cross product, self-join, emit on a join") {
    val b = new PlanBuilder()
    assertSameRows(run(b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_INNER), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l CROSS JOIN r"))
    assertSameRows(run(b.plan(cross(readNamed(lSchema, "l"), readNamed(rSchema, "r")), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l CROSS JOIN r"))
    assertSameRows(run(b.plan(join(readNamed(lSchema, "l"), readNamed(lSchema, "l"), JOIN_TYPE_INNER, Some(keysEqual(b))), "a", "b", "c", "d")),
      spark.sql("SELECT * FROM l x JOIN l y ON x.k = y.k"))
    val emitted = emit(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_INNER, Some(keysEqual(b))), 3, 1)
    assertSameRows(run(b.plan(emitted, "w", "v")), spark.sql("SELECT r.w, l.v FROM l JOIN r ON l.k = r.k"))
  }

  test("single and mark joins, and a post-join filter on a semi join, are refused") {
    val b = new PlanBuilder()
    for (t <- Seq(JOIN_TYPE_LEFT_SINGLE, JOIN_TYPE_RIGHT_SINGLE, JOIN_TYPE_LEFT_MARK, JOIN_TYPE_RIGHT_MARK)) {
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.join.type") {
        run(b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), t, Some(keysEqual(b))), "a", "b", "c", "d"))
      }
    }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.join.post_join_filter") {
      run(b.plan(join(readNamed(lSchema, "l"), readNamed(rSchema, "r"), JOIN_TYPE_LEFT_SEMI, Some(keysEqual(b)), Some(litBool(true))), "a", "b"))
    }
  }
}
