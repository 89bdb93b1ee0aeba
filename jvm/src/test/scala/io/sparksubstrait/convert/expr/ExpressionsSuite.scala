package io.sparksubstrait
package convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** If-then, switch, IN lists and nested constructors against the same expressions in Spark SQL. */
class ExpressionsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerNums(spark) }

  private def over(sql: String, names: Seq[String] = Nil)(
    exprs: PlanBuilder => Seq[io.sparksubstrait.proto.Expression]): Unit = {
    val b = new PlanBuilder()
    val es = exprs(b)
    val plan = b.plan(emit(project(readNamed(Datasets.numsSchema, "nums"), es: _*), es.indices.map(_ + 10): _*),
      (if (names.nonEmpty) names else es.indices.map(i => s"c$i")): _*)
    assertSameRows(run(plan), spark.sql(s"SELECT $sql FROM nums"))
  }

  test("if-then: several clauses, NULL conditions, with and without else, numeric results widened") {
    over("CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero or null' END, CASE WHEN p THEN x END, " +
      "CASE WHEN q THEN a ELSE x END") { b =>
      val gt = b.fn("functions_comparison", "gt:i32_i32")
      val lt = b.fn("functions_comparison", "lt:i32_i32")
      Seq(
        ifThen(Seq(b.call(gt, field(0), litI32(0)) -> litString("pos"),
            b.call(lt, field(0), litI32(0)) -> litString("neg")),
          Some(litString("zero or null"))),
        ifThen(Seq(field(4) -> field(2)), None),
        ifThen(Seq(field(5) -> field(0)), Some(field(2))))
    }
  }

  test("switch: matches by equality, a NULL value takes else") {
    over("CASE a WHEN 7 THEN 'seven' WHEN -7 THEN 'minus seven' ELSE 'other' END, CASE s WHEN 'x' THEN 1 END") { _ =>
      Seq(switchOn(field(0), Seq(litI32(7) -> litString("seven"), litI32(-7) -> litString("minus seven")),
          Some(litString("other"))),
        switchOn(field(9), Seq(litString("x") -> litI32(1)), None))
    }
  }

  test("singular_or_list: IN with SQL's three-valued result") {
    over("a IN (7, 0), a IN (7, NULL), s IN ('x', s), x IN (1, 2.5)") { _ =>
      Seq(inList(field(0), litI32(7), litI32(0)), inList(field(0), litI32(7), litNull(i32())),
        inList(field(9), litString("x"), field(9)), inList(field(2), litI32(1), litFp64(2.5)))
    }
  }

  test("nested constructors: struct, list, map") {
    over("named_struct('a', a, 's', s), array(a, b), map('k', a, 'j', b)", Seq("c0", "a", "s", "c1", "c2")) { _ =>
      Seq(structOf(field(0), field(9)), listOf(field(0), field(1)),
        mapOf(litString("k") -> field(0), litString("j") -> field(1)))
    }
  }

  test("field references: struct fields, list elements (negative, out of range), map keys, chains, expression roots") {
    spark.sql("""CREATE OR REPLACE TEMP VIEW deep AS SELECT * FROM VALUES
      (named_struct('a', 1, 'b', 'x'), array(10, 20, 30), map('k', 1, 'j', 2), array(named_struct('v', 5))),
      (named_struct('a', NULL, 'b', 'y'), array(), map('j', 3), array()),
      (NULL, NULL, NULL, NULL) AS t(st, arr, m, arrs)""")
    val deep = schema("st" -> struct(i32(), string()),
      "arr" -> io.sparksubstrait.proto.Type.newBuilder().setList(
        io.sparksubstrait.proto.Type.List.newBuilder().setType(i32())).build(),
      "m" -> io.sparksubstrait.proto.Type.newBuilder().setMap(
        io.sparksubstrait.proto.Type.Map.newBuilder().setKey(string(false)).setValue(i32())).build(),
      "arrs" -> io.sparksubstrait.proto.Type.newBuilder().setList(
        io.sparksubstrait.proto.Type.List.newBuilder().setType(struct(i32()))).build())
      .toBuilder.clearNames().addAllNames(java.util.Arrays.asList("st", "a", "b", "arr", "m", "arrs", "v")).build()
    val exprs = Seq(path(0, structSeg(1)), path(1, listSeg(0)), path(1, listSeg(-1)), path(1, listSeg(5)),
      path(2, mapSeg(litString("k"))), path(3, listSeg(0), structSeg(0)),
      fieldOf(structOf(field(0), litI32(9)), structSeg(1)))
    val plan = new PlanBuilder().plan(emit(project(readNamed(deep, "deep"), exprs: _*), 4, 5, 6, 7, 8, 9, 10), "b",
      "a0", "alast", "a5", "mk", "v", "nine")
    assertSameRows(run(plan),
      spark.sql("""SELECT st.b, try_element_at(arr, 1), try_element_at(arr, -1), try_element_at(arr, 6),
      try_element_at(m, 'k'), try_element_at(arrs, 1).v, 9 FROM deep"""))
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH",
      "relations[0].root.input.project.expressions[0].selection.direct_reference.struct_field.child.list_element") {
      run(new PlanBuilder().plan(emit(project(readNamed(deep, "deep"), path(0, listSeg(0))), 4), "x"))
    }
  }

  test("lambdas: transform, filter, any_match, all_match over list rows with NULLs and an empty list, vs SQL") {
    val b = new PlanBuilder()
    val schemaXs =
      schema("xs" -> io.sparksubstrait.proto.Type.newBuilder().setList(io.sparksubstrait.proto.Type.List.newBuilder()
          .setType(i32()).setNullability(io.sparksubstrait.proto.Type.Nullability.NULLABILITY_NULLABLE)).build())
    val rows = Seq(Seq(listOf(litI32(1), litI32(-2), litI32(3))), Seq(listOf(litI32(5), litNull(i32()))),
      Seq(litNull(schemaXs.getStruct.getTypes(0))), Seq(listOf(litI32(1), litI32(-2), litI32(3))))
    val emptyList =
      io.sparksubstrait.proto.Expression.newBuilder().setLiteral(io.sparksubstrait.proto.Expression.Literal.newBuilder()
          .setEmptyList(schemaXs.getStruct.getTypes(0).getList)).build()
    val input = readVirtual(schemaXs, rows :+ Seq(emptyList))
    // x -> f(x, arg): a lambda over one i32 parameter.
    def lambda(fn: Int, arg: io.sparksubstrait.proto.Expression) = lambdaOverI32(x => b.call(fn, x, arg))
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val exprs = Seq(
      b.call(b.fn("functions_list", "transform:list_func"), field(0), lambda(add, litI32(10))),
      b.call(b.fn("functions_list", "filter:list_func"), field(0), lambda(gt, litI32(0))),
      b.call(b.fn("functions_list", "any_match:list_func"), field(0), lambda(gt, litI32(4))),
      b.call(b.fn("functions_list", "all_match:list_func"), field(0), lambda(gt, litI32(0))))
    val plan = b.plan(emit(project(input, exprs: _*), 1, 2, 3, 4), "t", "f", "a", "m")
    assertSameRows(run(plan),
      spark.sql("""SELECT transform(xs, x -> x + 10), filter(xs, x -> x > 0), exists(xs, x -> x > 4),
      forall(xs, x -> x > 0) FROM VALUES (array(1, -2, 3)), (array(5, NULL)), (CAST(NULL AS ARRAY<INT>)), (array(1, -2, 3)),
      (CAST(array() AS ARRAY<INT>)) AS t(xs)"""))
  }

  test(
    "a lambda only as the function argument of a higher-order function: elsewhere refused, however deep in the call") {
    val b = new PlanBuilder()
    val xs =
      schema("xs" -> io.sparksubstrait.proto.Type.newBuilder().setList(io.sparksubstrait.proto.Type.List.newBuilder()
          .setType(i32()).setNullability(io.sparksubstrait.proto.Type.Nullability.NULLABILITY_NULLABLE)).build())
    val input = readVirtual(xs, Seq(Seq(listOf(litI32(1), litI32(-2)))))
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val transform = b.fn("functions_list", "transform:list_func")
    val lambda = lambdaOverI32(x => b.call(add, x, litI32(1)))
    // add(1, x -> x + 1): a lambda where a value goes.
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.project.expressions[0].scalar_function") {
      run(b.plan(emit(project(input, b.call(add, litI32(1), lambda)), 1), "v"))
    }
    // The same three calls deep: the check of each call stops at its arguments, which were checked themselves.
    val deep = b.call(add, b.call(add, b.call(add, litI32(1), lambda), litI32(2)), litI32(3))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.project.expressions[0].scalar_function" +
        ".arguments[0].value.scalar_function.arguments[0].value.scalar_function") {
      run(b.plan(emit(project(input, deep), 1), "v"))
    }
    // A higher-order call as an argument of another call is fine: transform(xs, x -> x + 1) inside a cardinality.
    val size = b.fn("functions_list", "cardinality:list")
    assertSameRows(run(b.plan(emit(project(input, b.call(size, b.call(transform, field(0), lambda))), 1), "n")),
      spark.sql("SELECT CAST(size(transform(array(1, -2), x -> x + 1)) AS BIGINT)"))
  }

  test("a lambda parameter reference outside any lambda is an error") {
    val b = new PlanBuilder()
    val param = io.sparksubstrait.proto.Expression.newBuilder().setSelection(
      io.sparksubstrait.proto.Expression.FieldReference.newBuilder()
        .setLambdaParameterReference(
          io.sparksubstrait.proto.Expression.FieldReference.LambdaParameterReference.newBuilder().setStepsOut(1))
        .setDirectReference(structSeg(0))).build()
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.project.expressions[0].selection.lambda_parameter_reference.steps_out") {
      run(b.plan(project(readNamed(Datasets.numsSchema, "nums"), param), "c"))
    }
  }

  test("multi_or_list: row-value IN with SQL's three-valued result") {
    over("(a = 7 AND b = 2) OR (a = -7 AND b = 3) OR (a = 0 AND b = 1), (a = 7 AND b = 2)") { _ =>
      def record(values: io.sparksubstrait.proto.Expression*) =
        io.sparksubstrait.proto.Expression.MultiOrList.Record.newBuilder().addAllFields(values.asJava).build()
      def multi(records: io.sparksubstrait.proto.Expression.MultiOrList.Record*) =
        io.sparksubstrait.proto.Expression.newBuilder()
          .setMultiOrList(
            io.sparksubstrait.proto.Expression.MultiOrList.newBuilder().addValue(field(0)).addValue(field(1))
              .addAllOptions(records.asJava)).build()
      Seq(multi(record(litI32(7), litI32(2)), record(litI32(-7), litI32(3)), record(litI32(0), litI32(1))),
        multi(record(litI32(7), litI32(2))))
    }
  }
}
