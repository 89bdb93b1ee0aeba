package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{Expression, Rel}
import io.sparksubstrait.proto.Expression.Subquery
import io.sparksubstrait.proto.Expression.Subquery.{SetComparison, SetPredicate}

import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Scalar, IN, EXISTS and ANY/ALL subqueries, correlated and not, against the same SQL (people has NULLs and a duplicate row). */
class SubqueriesSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerPeople(spark); Datasets.registerNums(spark) }

  private def people = readNamed(Datasets.peopleSchema, "people")
  private def sub(f: Subquery.Builder => Subquery.Builder): Expression =
    Expression.newBuilder().setSubquery(f(Subquery.newBuilder())).build()
  private def outer(i: Int): Expression = outerField(i)
  private def scalar(r: Rel) = sub(_.setScalar(Subquery.Scalar.newBuilder().setInput(r)))
  private def exists(r: Rel) = sub(_.setSetPredicate(
      SetPredicate.newBuilder().setPredicateOp(SetPredicate.PredicateOp.PREDICATE_OP_EXISTS).setTuples(r)))
  private def compare(left: Expression, reduction: SetComparison.ReductionOp, op: SetComparison.ComparisonOp, r: Rel) =
    sub(_.setSetComparison(
        SetComparison.newBuilder().setLeft(left).setReductionOp(reduction).setComparisonOp(op).setRight(r)))

  test("scalar subqueries: uncorrelated, and correlated on a column with NULLs") {
    val b = new PlanBuilder()
    val max = b.fn("functions_arithmetic", "max:fp64")
    val count = b.fn("functions_aggregate_generic", "count")
    val eq = b.fn("functions_comparison", "equal:str_str")
    val maxScore = aggregate(people, Nil, Seq(b.measure(max, Seq(field(2)))))
    val sameGroup = aggregate(filter(people, b.call(eq, field(3), outer(3))), Nil, Seq(b.measure(count, Nil)))
    val plan = b.plan(emit(project(people, scalar(maxScore), scalar(sameGroup)), 0, 4, 5), "id", "top", "n")
    assertSameRows(run(plan),
      spark.sql(
        "SELECT id, (SELECT max(score) FROM people), (SELECT count(*) FROM people p2 WHERE p2.grp = p1.grp) FROM people p1"))
  }

  test("IN and NOT IN (= ANY, <> ALL) with NULL needles and NULLs in the subquery") {
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:str_str")
    val groupA = emit(filter(people, b.call(eq, field(3), litString("a"))), 0)
    val in = sub(_.setInPredicate(Subquery.InPredicate.newBuilder().addNeedles(field(0)).setHaystack(
          emit(readNamed(Datasets.numsSchema, "nums"), 1))))
    val plan = b.plan(emit(project(people, in,
          compare(field(0), SetComparison.ReductionOp.REDUCTION_OP_ANY, SetComparison.ComparisonOp.COMPARISON_OP_EQ,
            groupA),
          compare(field(0), SetComparison.ReductionOp.REDUCTION_OP_ALL, SetComparison.ComparisonOp.COMPARISON_OP_NE,
            groupA)), 0, 4, 5, 6),
      "id", "in_b", "any", "all")
    assertSameRows(run(plan),
      spark.sql("""SELECT id, id IN (SELECT b FROM nums), id IN (SELECT id FROM people WHERE grp = 'a'),
      id NOT IN (SELECT id FROM people WHERE grp = 'a') FROM people"""))
  }

  test("EXISTS, correlated, in a filter; and NOT EXISTS") {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:fp64_fp64")
    val not = b.fn("functions_boolean", "not:bool")
    val higher = filter(people, b.call(gt, field(2), outer(2)))
    assertSameRows(run(b.plan(filter(people, exists(higher)), "id", "name", "score", "grp")),
      spark.sql("SELECT * FROM people p1 WHERE EXISTS (SELECT 1 FROM people p2 WHERE p2.score > p1.score)"))
    assertSameRows(run(b.plan(filter(people, b.call(not, exists(higher))), "id", "name", "score", "grp")),
      spark.sql("SELECT * FROM people p1 WHERE NOT EXISTS (SELECT 1 FROM people p2 WHERE p2.score > p1.score)"))
  }

  test(
    "ANY and ALL with =, <>, <, >, <=, >=: true, false or NULL by SQL's rules, over NULLs and an empty subquery (worked out by hand)") {
    spark.sql("CREATE OR REPLACE TEMP VIEW xs AS SELECT * FROM VALUES (1, 1), (2, 5), (3, NULL) AS t(k, x)")
    spark.sql("CREATE OR REPLACE TEMP VIEW ss AS SELECT * FROM VALUES (2), (4), (NULL) AS t(s)")
    val b = new PlanBuilder()
    val xsSchema = schema("k" -> i32(), "x" -> i32())
    val one = schema("s" -> i32())
    val withNull = readNamed(one, "ss")
    val noNull = filter(readNamed(one, "ss"), b.call(b.fn("functions_comparison", "is_not_null:any"), field(0)))
    val empty = filter(readNamed(one, "ss"), litBool(false))
    import SetComparison.ComparisonOp._
    import SetComparison.ReductionOp._
    val cases = Seq(
      (REDUCTION_OP_ANY, COMPARISON_OP_GT, withNull) -> Seq(null, true, null),
      (REDUCTION_OP_ANY, COMPARISON_OP_GT, noNull) -> Seq(false, true, null),
      (REDUCTION_OP_ANY, COMPARISON_OP_GT, empty) -> Seq(false, false, false),
      (REDUCTION_OP_ALL, COMPARISON_OP_LT, withNull) -> Seq(null, false, null),
      (REDUCTION_OP_ALL, COMPARISON_OP_LT, noNull) -> Seq(true, false, null),
      (REDUCTION_OP_ALL, COMPARISON_OP_LT, empty) -> Seq(true, true, true),
      (REDUCTION_OP_ALL, COMPARISON_OP_GE, noNull) -> Seq(false, true, null),
      (REDUCTION_OP_ANY, COMPARISON_OP_NE, noNull) -> Seq(true, true, null),
      (REDUCTION_OP_ANY, COMPARISON_OP_LE, withNull) -> Seq(true, null, null),
      (REDUCTION_OP_ALL, COMPARISON_OP_EQ, noNull) -> Seq(false, false, null))
    val plan = b.plan(emit(project(readNamed(xsSchema, "xs"),
          cases.map { case ((r, op, rel), _) => compare(field(1), r, op, rel) }: _*),
        0 +: cases.indices.map(_ + 2): _*), "k" +: cases.indices.map(i => s"c$i"): _*)
    val rows = run(plan).collect().sortBy(_.getInt(0))
    cases.zipWithIndex.foreach { case (((r, op, _), expected), i) =>
      assert(rows.map(_.get(i + 1)).toSeq == expected, s"$op $r (case $i)")
    }
  }

  test("UNIQUE: no two equal rows without NULLs; an empty subquery is unique (worked out by hand)") {
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW us AS SELECT * FROM VALUES (1, 1, 'a'), (1, 2, 'b'), (1, 2, 'b'), (2, 1, NULL), (2, 1, NULL), (2, NULL, 'c') AS t(g, v, w)")
    val b = new PlanBuilder()
    val us = readNamed(schema("g" -> i32(), "v" -> i32(), "w" -> string()), "us")
    val eq = b.fn("functions_comparison", "equal:any_any")
    def group(g: Int, cols: Int*) = emit(filter(us, b.call(eq, field(0), litI32(g))), cols: _*)
    def unique(r: Rel) = sub(_.setSetPredicate(
        SetPredicate.newBuilder().setPredicateOp(SetPredicate.PredicateOp.PREDICATE_OP_UNIQUE).setTuples(r)))
    val plan = b.plan(emit(project(readNamed(schema("s" -> i32()), "ss"),
          unique(group(1, 1)), unique(group(1, 1, 2)), unique(group(1, 2)), unique(group(2, 1, 2)), unique(group(2, 1)),
          unique(group(3, 1))),
        1, 2, 3, 4, 5, 6), "g1v", "g1vw", "g1w", "g2vw", "g2v", "none")
    // g1 v: 1, 2, 2; (v, w): (1,a), (2,b), (2,b); w: a, b, b; g2 (v, w): rows with NULLs never clash; g2 v: 1, 1, NULL.
    assertRows(run(plan), Seq.fill(3)(Row(false, false, false, true, false, true)))
  }

  test("misplaced outer references and wrong widths are errors") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.project.expressions[0].selection.outer_reference.steps_out") {
      run(b.plan(emit(project(people, outer(0)), 4), "x"))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].subquery.scalar.input") {
      run(b.plan(emit(project(people, scalar(people)), 4), "x"))
    }
  }
}
