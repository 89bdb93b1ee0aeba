package io.sparksubstrait
package decode

import io.sparksubstrait.proto.{Expression, NamedLambda, Plan, PlanRel, Rel}
import io.sparksubstrait.proto.JoinRel.JoinType._

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Definitions a plan writes once and uses by number (spec 0.105+ detached relations and
 * expressions, 0.106+ named lambdas) are inlined at decode time: the same rows as the
 * plan written out in full, checked against Spark SQL.
 */
class SharedDefinitionsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerPeople(spark) }

  private def people = readNamed(Datasets.peopleSchema, "people")
  private def detachedRel(n: Int): Rel = Rel.newBuilder().setDetachedRelOrdinal(n).build()
  private def detachedExpr(n: Int): Expression = Expression.newBuilder().setDetachedExpressionOrdinal(n).build()

  /** The plan with detached relations and expressions added to its one PlanRel. */
  private def detaching(p: Plan, rels: Seq[Rel], exprs: Seq[Expression]): Plan = {
    val b = p.toBuilder
    val pr: PlanRel.Builder = b.getRelationsBuilder(0)
    rels.foreach(pr.addDetachedRels)
    exprs.foreach(pr.addDetachedExpressions)
    b.build()
  }

  test("detached relations and expressions: each use means the definition, definitions may use others") {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:fp64_fp64")
    val eq = b.fn("functions_comparison", "equal:i32_i32")
    // rel 0: people with score > expr 0 (1.0); rel 1 joins rel 0 with itself on id.
    val scored = filter(people, detachedExpr(0))
    val selfJoin = join(detachedRel(0), detachedRel(0), JOIN_TYPE_INNER, Some(b.call(eq, field(0), field(4))))
    val plan = detaching(b.plan(emit(project(detachedRel(1), field(0)), 0, 1, 6), "id", "name", "score2"),
      Seq(scored, selfJoin), Seq(b.call(gt, field(2), litFp64(1.0))))
    assertSameRows(run(plan),
      spark.sql("""SELECT a.id, a.name, b.score FROM people a JOIN people b ON a.id = b.id
      WHERE a.score > 1.0 AND b.score > 1.0"""))
    // An expression used in a filter and in a projection.
    val twice = detaching(b.plan(emit(project(filter(people, detachedExpr(0)), detachedExpr(0)), 0, 4), "id", "gt"),
      Nil, Seq(b.call(gt, field(2), litFp64(-1.0))))
    assertSameRows(run(twice), spark.sql("SELECT id, score > -1.0 FROM people WHERE score > -1.0"))
  }

  test("named lambdas: a function value and its uses mean the lambda written in place") {
    val b = new PlanBuilder()
    val schemaXs =
      schema("xs" -> io.sparksubstrait.proto.Type.newBuilder().setList(io.sparksubstrait.proto.Type.List.newBuilder()
          .setType(i32()).setNullability(io.sparksubstrait.proto.Type.Nullability.NULLABILITY_NULLABLE)).build())
    val input = readVirtual(schemaXs,
      Seq(Seq(listOf(litI32(1), litI32(-2), litI32(3))), Seq(listOf(litI32(5), litNull(i32()))),
        Seq(litNull(schemaXs.getStruct.getTypes(0)))))
    val plusTen = lambdaOverI32(x => b.call(b.fn("functions_arithmetic", "add:i32_i32"), x, litI32(10))).getLambda
    val named = Expression.newBuilder().setNamedLambdaReference(
      Expression.NamedLambdaReference.newBuilder().setLambdaReference(3)).build()
    val transform = b.fn("functions_list", "transform:list_func")
    val p = b.plan(emit(project(input, b.call(transform, field(0), named), b.call(transform, field(0), named)), 1, 2),
      "t1", "t2")
    val plan = p.toBuilder.addNamedLambdas(
      NamedLambda.newBuilder().setLambdaAnchor(3).setLambda(plusTen).setName("plus_ten")).build()
    assertSameRows(run(plan),
      spark.sql("""SELECT transform(xs, x -> x + 10), transform(xs, x -> x + 10) FROM VALUES
      (array(1, -2, 3)), (array(5, NULL)), (CAST(NULL AS ARRAY<INT>)) AS t(xs)"""))
    // An anchor the plan does not define.
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.project.expressions[0].scalar_function.arguments[1].value.named_lambda_reference.lambda_reference") {
      run(p)
    }
  }

  test("shared definitions: unknown ordinals, self-reference and an exponential unfolding are the plan's errors") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.detached_rel_ordinal") {
      run(detaching(b.plan(detachedRel(2), "id", "name", "score", "grp"), Seq(people), Nil))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].detached_rels[0].filter.input.detached_rel_ordinal") {
      run(detaching(b.plan(detachedRel(0), "id", "name", "score", "grp"), Seq(filter(detachedRel(0), litBool(true))),
          Nil))
    }
    // Each definition unions the previous one with itself: 2^40 reads of people.
    val doubling = (1 until 40).map(k =>
      set(io.sparksubstrait.proto.SetRel.SetOp.SET_OP_UNION_ALL, detachedRel(k - 1), detachedRel(k - 1)))
    val e = assertPlanError("SUBSTRAIT_PLAN_TOO_LARGE", "plan") {
      run(detaching(b.plan(detachedRel(39), "id", "name", "score", "grp"), people +: doubling, Nil))
    }
    assert(e.getMessage.contains("unfold"), e.getMessage)
  }
}
