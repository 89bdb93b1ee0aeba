package io.sparksubstrait

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** If-then, switch, IN lists and nested constructors against the same expressions in Spark SQL. */
class ExpressionsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerNums(spark) }

  private def over(sql: String, names: Seq[String] = Nil)(exprs: PlanBuilder => Seq[io.substrait.proto.Expression]): Unit = {
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
        ifThen(Seq(b.call(gt, field(0), litI32(0)) -> litString("pos"), b.call(lt, field(0), litI32(0)) -> litString("neg")),
          Some(litString("zero or null"))),
        ifThen(Seq(field(4) -> field(2)), None),
        ifThen(Seq(field(5) -> field(0)), Some(field(2))))
    }
  }

  test("switch: matches by equality, a NULL value takes else") {
    over("CASE a WHEN 7 THEN 'seven' WHEN -7 THEN 'minus seven' ELSE 'other' END, CASE s WHEN 'x' THEN 1 END") { _ =>
      Seq(switchOn(field(0), Seq(litI32(7) -> litString("seven"), litI32(-7) -> litString("minus seven")), Some(litString("other"))),
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
      Seq(structOf(field(0), field(9)), listOf(field(0), field(1)), mapOf(litString("k") -> field(0), litString("j") -> field(1)))
    }
  }
}
