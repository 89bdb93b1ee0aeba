package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{Expression, Rel}
import io.sparksubstrait.proto.Expression.Subquery
import io.sparksubstrait.proto.Expression.Subquery.SetPredicate
import io.sparksubstrait.proto.JoinRel.JoinType._
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * LateralJoinRel and outer references by `rel_reference` (spec 0.94+), against the same
 * queries in Spark SQL (LATERAL, EXISTS) or rows worked out by hand. `l` and `r` have NULL
 * keys, duplicates and keys without a partner.
 */
class LateralJoinsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW l AS SELECT * FROM VALUES (1, 'a'), (2, 'b'), (2, 'b2'), (NULL, 'n'), (3, 'c') AS t(k, v)")
    spark.sql("""CREATE OR REPLACE TEMP VIEW r AS SELECT * FROM VALUES
      (1, 10), (1, 11), (1, CAST(NULL AS INT)), (2, 20), (2, 20), (NULL, 0), (4, 40) AS t(k, w)""")
  }

  private val lSchema = schema("k" -> i32(), "v" -> string())
  private val rSchema = schema("k" -> i32(), "w" -> i32())
  private def l = readNamed(lSchema, "l")
  private def r = readNamed(rSchema, "r")
  private val names = Seq("k", "v", "rk", "w")

  /** r's rows whose key is the left row's key, referenced by anchor 1 (or one step out). */
  private def matching(b: PlanBuilder, outerKey: Expression = outerFieldOf(0, 1)): Rel =
    filter(r, b.call(b.fn("functions_comparison", "equal:i32_i32"), field(0), outerKey))
  private def wOver(b: PlanBuilder, n: Int) = b.call(b.fn("functions_comparison", "gt:i32_i32"), field(3), litI32(n))
  private val sqlMatching = "(SELECT * FROM r WHERE r.k = l.k) x"

  test("lateral INNER and LEFT joins, with and without a join condition, by rel_reference and by steps_out") {
    val b = new PlanBuilder()
    for (outerKey <- Seq(outerFieldOf(0, 1), outerField(0))) {
      assertSameRows(run(b.plan(lateralJoin(l, matching(b, outerKey), JOIN_TYPE_INNER, 1), names: _*)),
        spark.sql(s"SELECT l.k, l.v, x.k, x.w FROM l, LATERAL $sqlMatching"))
    }
    assertSameRows(run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_INNER, 1, Some(wOver(b, 10))), names: _*)),
      spark.sql(s"SELECT l.k, l.v, x.k, x.w FROM l JOIN LATERAL $sqlMatching ON x.w > 10"))
    assertSameRows(run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_LEFT, 1), names: _*)),
      spark.sql(s"SELECT l.k, l.v, x.k, x.w FROM l LEFT JOIN LATERAL $sqlMatching ON true"))
    assertSameRows(run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_LEFT, 1, Some(wOver(b, 10))), names: _*)),
      spark.sql(s"SELECT l.k, l.v, x.k, x.w FROM l LEFT JOIN LATERAL $sqlMatching ON x.w > 10"))
    // An aggregate per left row: one row each, NULL where nothing matches.
    val sum = aggregate(matching(b), Nil, Seq(b.measure(b.fn("functions_arithmetic", "sum:i32"), Seq(field(1)))))
    assertSameRows(run(b.plan(lateralJoin(l, sum, JOIN_TYPE_INNER, 1), "k", "v", "s")),
      spark.sql("SELECT l.k, l.v, x.s FROM l, LATERAL (SELECT sum(w) s FROM r WHERE r.k = l.k) x"))
    // A post-join filter applies to the joined records; an empty left gives nothing.
    val notB2 = b.call(b.fn("functions_comparison", "not_equal:str_str"), field(1), litString("b2"))
    assertSameRows(run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_LEFT, 1, None, Some(notB2)), names: _*)),
      spark.sql(s"SELECT l.k, l.v, x.k, x.w FROM l LEFT JOIN LATERAL $sqlMatching ON true WHERE l.v <> 'b2'"))
    val none = filter(l, litBool(false))
    assertRows(run(b.plan(lateralJoin(none, matching(b), JOIN_TYPE_LEFT, 1), names: _*)), Nil)
  }

  test("lateral LEFT_SEMI, LEFT_ANTI and LEFT_MARK joins: EXISTS, NOT EXISTS and the mark's NULL rule") {
    val b = new PlanBuilder()
    assertSameRows(run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_LEFT_SEMI, 1, Some(wOver(b, 10))), "k", "v")),
      spark.sql("SELECT * FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.k = l.k AND r.w > 10)"))
    assertSameRows(run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_LEFT_ANTI, 1, Some(wOver(b, 10))), "k", "v")),
      spark.sql("SELECT * FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.k = l.k AND r.w > 10)"))
    // Worked out by hand: key 1 matches w 10, 11 and NULL (w > 15: false, false, NULL) -> NULL;
    // key 2 matches 20 twice -> true; NULL and 3 match nothing -> false.
    assertRows(run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_LEFT_MARK, 1, Some(wOver(b, 15))), "k", "v", "mark")),
      Seq(Row(1, "a", null), Row(2, "b", true), Row(2, "b2", true), Row(null, "n", false), Row(3, "c", false)))
  }

  test("rel_reference in a subquery names the record of the relation whose rel_anchor it gives") {
    val b = new PlanBuilder()
    val exists = Expression.newBuilder().setSubquery(Subquery.newBuilder().setSetPredicate(SetPredicate.newBuilder()
          .setPredicateOp(SetPredicate.PredicateOp.PREDICATE_OP_EXISTS).setTuples(matching(b,
              outerFieldOf(0, 7))))).build()
    assertSameRows(run(b.plan(anchored(filter(l, exists), 7), "k", "v")),
      spark.sql("SELECT * FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.k = l.k)"))
  }

  test(
    "lateral joins: right-oriented types, LEFT_SINGLE and unknown anchors are errors; two levels out is read on Spark 4") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.lateral_join.type") {
      run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_RIGHT, 1), names: _*))
    }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.lateral_join.type") {
      run(b.plan(lateralJoin(l, matching(b), JOIN_TYPE_LEFT_SINGLE, 1), names: _*))
    }
    // An anchor no enclosing relation has.
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.lateral_join.right.filter.condition.scalar_function.arguments[1].value.selection.outer_reference.rel_reference") {
      run(b.plan(lateralJoin(l, matching(b, outerFieldOf(0, 9)), JOIN_TYPE_INNER, 1), names: _*))
    }
    // Two levels out: a lateral join inside a lateral join's right input, referencing the outer one. Spark 4 reads it
    // (the outer column carried in, convert/expr/NestedOuterReferences); Spark 3.5 cannot carry it.
    val inner = lateralJoin(r, matching(b, outerFieldOf(0, 1)), JOIN_TYPE_INNER, 2)
    val twoOut = b.plan(lateralJoin(l, inner, JOIN_TYPE_INNER, 1), "a", "b", "c", "d", "e", "f")
    if (org.apache.spark.sql.sparksubstrait.SparkShim.outerReferencesInSubqueryProjections) {
      // Inner lateral joins: each left row with every r row and the r rows of its key.
      assertSameRows(run(twoOut),
        spark.sql("SELECT l.k, l.v, r1.k, r1.w, r2.k, r2.w FROM l CROSS JOIN r r1 JOIN r r2 ON r2.k = l.k"))
    } else {
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
        "relations[0].root.input.lateral_join.right.lateral_join.right.filter.condition.scalar_function.arguments[1].value.selection.outer_reference.rel_reference") {
        run(twoOut)
      }
    }
  }
}
