package io.sparksubstrait

import io.substrait.proto.{Expression, Rel}
import io.substrait.proto.Expression.{FieldReference, Subquery}
import io.substrait.proto.Expression.Subquery.{SetComparison, SetPredicate}

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Scalar, IN, EXISTS and ANY/ALL subqueries, correlated and not, against the same SQL (people has NULLs and a duplicate row). */
class SubqueriesSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerPeople(spark); Datasets.registerNums(spark) }

  private def people = readNamed(Datasets.peopleSchema, "people")
  private def sub(f: Subquery.Builder => Subquery.Builder): Expression = Expression.newBuilder().setSubquery(f(Subquery.newBuilder())).build()
  private def outer(i: Int): Expression = Expression.newBuilder().setSelection(FieldReference.newBuilder()
    .setOuterReference(FieldReference.OuterReference.newBuilder().setStepsOut(1)).setDirectReference(structSeg(i))).build()
  private def scalar(r: Rel) = sub(_.setScalar(Subquery.Scalar.newBuilder().setInput(r)))
  private def exists(r: Rel) = sub(_.setSetPredicate(SetPredicate.newBuilder().setPredicateOp(SetPredicate.PredicateOp.PREDICATE_OP_EXISTS).setTuples(r)))
  private def compare(left: Expression, reduction: SetComparison.ReductionOp, op: SetComparison.ComparisonOp, r: Rel) =
    sub(_.setSetComparison(SetComparison.newBuilder().setLeft(left).setReductionOp(reduction).setComparisonOp(op).setRight(r)))

  test("scalar subqueries: uncorrelated, and correlated on a column with NULLs") {
    val b = new PlanBuilder()
    val max = b.fn("functions_arithmetic", "max:fp64")
    val count = b.fn("functions_aggregate_generic", "count")
    val eq = b.fn("functions_comparison", "equal:str_str")
    val maxScore = aggregate(people, Nil, Seq(b.measure(max, Seq(field(2)))))
    val sameGroup = aggregate(filter(people, b.call(eq, field(3), outer(3))), Nil, Seq(b.measure(count, Nil)))
    val plan = b.plan(emit(project(people, scalar(maxScore), scalar(sameGroup)), 0, 4, 5), "id", "top", "n")
    assertSameRows(run(plan), spark.sql(
      "SELECT id, (SELECT max(score) FROM people), (SELECT count(*) FROM people p2 WHERE p2.grp = p1.grp) FROM people p1"))
  }

  test("IN and NOT IN (= ANY, <> ALL) with NULL needles and NULLs in the subquery") {
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:str_str")
    val groupA = emit(filter(people, b.call(eq, field(3), litString("a"))), 0)
    val in = sub(_.setInPredicate(Subquery.InPredicate.newBuilder().addNeedles(field(0)).setHaystack(emit(readNamed(Datasets.numsSchema, "nums"), 1))))
    val plan = b.plan(emit(project(people, in,
      compare(field(0), SetComparison.ReductionOp.REDUCTION_OP_ANY, SetComparison.ComparisonOp.COMPARISON_OP_EQ, groupA),
      compare(field(0), SetComparison.ReductionOp.REDUCTION_OP_ALL, SetComparison.ComparisonOp.COMPARISON_OP_NE, groupA)), 0, 4, 5, 6),
      "id", "in_b", "any", "all")
    assertSameRows(run(plan), spark.sql("""SELECT id, id IN (SELECT b FROM nums), id IN (SELECT id FROM people WHERE grp = 'a'),
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

  test("UNIQUE, other ANY/ALL comparisons, misplaced outer references and wrong widths are errors") {
    val b = new PlanBuilder()
    val unique = sub(_.setSetPredicate(SetPredicate.newBuilder().setPredicateOp(SetPredicate.PredicateOp.PREDICATE_OP_UNIQUE).setTuples(people)))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.filter.condition.subquery.set_predicate.predicate_op") {
      run(b.plan(filter(people, unique), "id", "name", "score", "grp"))
    }
    val gtAny = compare(field(2), SetComparison.ReductionOp.REDUCTION_OP_ANY, SetComparison.ComparisonOp.COMPARISON_OP_GT, emit(people, 2))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.filter.condition.subquery.set_comparison") {
      run(b.plan(filter(people, gtAny), "id", "name", "score", "grp"))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].selection.outer_reference.steps_out") {
      run(b.plan(emit(project(people, outer(0)), 4), "x"))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].subquery.scalar.input") {
      run(b.plan(emit(project(people, scalar(people)), 4), "x"))
    }
  }
}
