package io.sparksubstrait
package convert.expr

import io.sparksubstrait.proto.{Expression, Rel}
import io.sparksubstrait.proto.Expression.Subquery
import io.sparksubstrait.proto.Expression.Subquery.SetPredicate

import org.apache.spark.sql.Row
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Outer references two and three queries out (`steps_out` 2 and 3, as DataFusion's producer
 * writes them: one step per subquery boundary). The expected rows are DuckDB 1.1.3's for
 * the same SQL on the same data (Spark SQL cannot run these queries: it resolves outer
 * columns one query out only). On Spark 3.5 they are refused at the reference.
 */
class NestedOuterReferencesSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    // A duplicate department, NULL keys and codes, a budget of NULL, employees with no department.
    spark.sql("""CREATE OR REPLACE TEMP VIEW dept AS SELECT * FROM VALUES
      (1, 'a', 10), (2, 'b', 5), (3, NULL, NULL), (1, 'a', 10), (4, 'd', 0) AS t(dept_id, dname, budget)""")
    spark.sql("""CREATE OR REPLACE TEMP VIEW emp AS SELECT * FROM VALUES
      (1, 1, 20), (2, 1, 3), (3, 2, 4), (4, NULL, 7), (5, 3, NULL), (5, 3, NULL), (6, 4, 1) AS t(id, dept, code)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW emp0 AS SELECT * FROM emp WHERE false")
  }

  private val deptSchema = schema("dept_id" -> i32(), "dname" -> string(), "budget" -> i32())
  private val empSchema = schema("id" -> i32(), "dept" -> i32(), "code" -> i32())
  private def dept = readNamed(deptSchema, "dept")
  private def emp(name: String = "emp") = readNamed(empSchema, name)
  private def sub(f: Subquery.Builder => Subquery.Builder): Expression =
    Expression.newBuilder().setSubquery(f(Subquery.newBuilder())).build()
  private def exists(r: Rel) = sub(_.setSetPredicate(
      SetPredicate.newBuilder().setPredicateOp(SetPredicate.PredicateOp.PREDICATE_OP_EXISTS).setTuples(r)))
  private def in(needle: Expression, r: Rel) =
    sub(_.setInPredicate(Subquery.InPredicate.newBuilder().addNeedles(needle).setHaystack(r)))

  /** The functions the plans call, declared on one builder. */
  private class Calls(val b: PlanBuilder) {
    private val eqFn = b.fn("functions_comparison", "equal:any_any")
    private val gtFn = b.fn("functions_comparison", "gt:any_any")
    private val gteFn = b.fn("functions_comparison", "gte:any_any")
    private val andFn = b.fn("functions_boolean", "and:bool")
    private val notFn = b.fn("functions_boolean", "not:bool")
    val count: Int = b.fn("functions_aggregate_generic", "count")
    def eq(l: Expression, r: Expression): Expression = b.call(eqFn, l, r)
    def gt(l: Expression, r: Expression): Expression = b.call(gtFn, l, r)
    def gte(l: Expression, r: Expression): Expression = b.call(gteFn, l, r)
    def and(l: Expression, r: Expression): Expression = b.call(andFn, l, r)
    def not(e: Expression): Expression = b.call(notFn, e)
  }

  /** `EXISTS (SELECT 1 FROM emp e WHERE e.dept = d.dept_id AND EXISTS (SELECT 1 FROM emp x WHERE x.id = e.id AND x.code > d.budget))`. */
  private def existsExists(c: Calls, table: String = "emp"): Rel = {
    val x = filter(emp(table), c.and(c.eq(field(0), outerField(0)), c.gt(field(2), outerField(2, stepsOut = 2))))
    filter(dept, exists(filter(emp(table), c.and(c.eq(field(1), outerField(0)), exists(x)))))
  }

  private def onSpark4(body: => Unit): Unit =
    if (SparkShim.outerReferencesInSubqueryProjections) body
    else {
      val c = new Calls(new PlanBuilder("datafusion", 85))
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
        "relations[0].root.input.filter.condition.subquery." +
          "set_predicate.tuples.filter.condition.scalar_function.arguments[1].value.subquery.set_predicate.tuples.filter." +
          "condition.scalar_function.arguments[1].value.scalar_function.arguments[1].value.selection.outer_reference." +
          "steps_out") {
        run(c.b.plan(emit(existsExists(c), 1), "dname"))
      }
    }

  test("EXISTS inside EXISTS referencing the outermost query (steps_out 2), and over an empty table: DuckDB's rows") {
    onSpark4 {
      val c = new Calls(new PlanBuilder("datafusion", 85))
      assertRows(run(c.b.plan(emit(existsExists(c), 1), "dname")), Seq(Row("a"), Row("a"), Row("d")))
      assertRows(run(c.b.plan(emit(existsExists(c, "emp0"), 1), "dname")), Nil)
    }
  }

  test("NOT EXISTS inside NOT EXISTS, steps_out 2 (NULL budgets and codes): DuckDB's rows") {
    onSpark4 {
      for ((table, expected) <- Seq("emp" -> Seq(4), "emp0" -> Seq(1, 1, 2, 3, 4))) {
        val c = new Calls(new PlanBuilder("datafusion", 85))
        val x = filter(emp(table), c.and(c.eq(field(0), outerField(0)), c.gte(field(2), outerField(2, stepsOut = 2))))
        val e = filter(emp(table), c.and(c.eq(field(1), outerField(0)), c.not(exists(x))))
        assertRows(run(c.b.plan(emit(filter(dept, c.not(exists(e))), 0), "dept_id")), expected.map(Row(_)),
          ordered = false)
      }
    }
  }

  test("a scalar COUNT subquery holding an EXISTS with steps_out 2 (a count of no rows is 0): DuckDB's rows") {
    onSpark4 {
      val c = new Calls(new PlanBuilder("datafusion", 85))
      val x = filter(emp(), c.and(c.eq(field(0), outerField(0)), c.gt(field(2), outerField(2, stepsOut = 2))))
      val counted = aggregate(filter(emp(), c.and(c.eq(field(1), outerField(0)), exists(x))), Nil,
        Seq(c.b.measure(c.count, Nil)))
      val scalar = sub(_.setScalar(Subquery.Scalar.newBuilder().setInput(counted)))
      assertRows(run(c.b.plan(emit(project(dept, scalar), 0, 3), "dept_id", "n")),
        Seq(Row(1, 1L), Row(1, 1L), Row(2, 0L), Row(3, 0L), Row(4, 1L)))
    }
  }

  test("IN inside IN referencing the outermost query (steps_out 2): DuckDB's rows") {
    onSpark4 {
      val c = new Calls(new PlanBuilder("datafusion", 85))
      val x = emit(filter(emp(), c.gt(field(2), outerField(2, stepsOut = 2))), 0)
      val e = emit(filter(emp(), in(field(0), x)), 1)
      assertRows(run(c.b.plan(emit(filter(dept, in(field(0), e)), 1), "dname")), Seq(Row("a"), Row("a"), Row("d")))
    }
  }

  test("three levels deep (steps_out 3) and a reference by rel_reference two levels out: DuckDB's rows") {
    onSpark4 {
      val c = new Calls(new PlanBuilder("datafusion", 85))
      val y = filter(emp(), c.and(c.eq(field(0), outerField(0)), c.gt(field(2), outerField(2, stepsOut = 3))))
      val x = filter(emp(), c.and(c.eq(field(0), outerField(0)), exists(y)))
      val e = filter(emp(), c.and(c.eq(field(1), outerField(0)), exists(x)))
      assertRows(run(c.b.plan(emit(filter(dept, exists(e)), 1), "dname")), Seq(Row("a"), Row("a"), Row("d")))
      // The same two levels out, by the outermost filter's rel_anchor.
      val x2 = filter(emp(), c.and(c.eq(field(0), outerField(0)), c.gt(field(2), outerFieldOf(2, 7))))
      val e2 = filter(emp(), c.and(c.eq(field(1), outerField(0)), exists(x2)))
      assertRows(run(c.b.plan(emit(anchored(filter(dept, exists(e2)), 7), 1), "dname")),
        Seq(Row("a"), Row("a"), Row("d")))
    }
  }

  test("steps_out beyond the enclosing subqueries is the plan's error") {
    val c = new Calls(new PlanBuilder("datafusion", 85))
    val x = filter(emp(), c.gt(field(2), outerField(2, stepsOut = 3)))
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.filter.condition.subquery.set_predicate." +
        "tuples.filter.condition.subquery.set_predicate.tuples.filter.condition.scalar_function.arguments[1].value." +
        "selection.outer_reference.steps_out") {
      run(c.b.plan(emit(filter(dept, exists(filter(emp(), exists(x)))), 1), "dname"))
    }
  }
}
