package io.sparksubstrait
package producers

import io.sparksubstrait.proto.{Plan, Version}
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{SparkSuite, SubstraitAssertions}

/**
 * `ibis-correlation-as-root-reference` on real ibis-substrait 4.0.1 plans
 * (jvm/src/test/resources/ibis-correlation, written by its write.py with ibis 9.5.0): a
 * correlated EXISTS whose enclosing column ibis-substrait writes as a root reference numbered
 * by the enclosing record. The rows expected are those ibis' own DuckDB backend gives for the
 * expressions (write.py prints them), which are DuckDB's SQL answer
 * `SELECT dname FROM dept d WHERE [NOT] EXISTS (SELECT 1 FROM emp e WHERE e.dept = d.dept_id)`.
 */
class IbisCorrelationSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    // NULL keys on both sides, a duplicate department and duplicate employees, an empty emp0.
    spark.sql("""CREATE OR REPLACE TEMP VIEW dept AS SELECT dname, CAST(budget AS DOUBLE) AS budget,
      CAST(dept_id AS INT) AS dept_id FROM VALUES
      ('a', 10.0, 1), ('b', 5.0, 2), (NULL, NULL, 3), ('a', 10.0, 1), ('d', 0.0, NULL) AS t(dname, budget, dept_id)""")
    spark.sql("""CREATE OR REPLACE TEMP VIEW emp AS SELECT CAST(id AS INT) AS id, CAST(dept AS INT) AS dept, name,
      CAST(salary AS DOUBLE) AS salary FROM VALUES
      (1, 1, 'x', 20.0), (2, 1, 'y', 3.0), (3, NULL, 'z', 4.0), (4, 2, NULL, NULL), (4, 2, NULL, NULL)
      AS t(id, dept, name, salary)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW emp0 AS SELECT * FROM emp WHERE false")
  }

  private def plan(name: String): Plan = {
    val in = getClass.getResourceAsStream(s"/ibis-correlation/$name.bin")
    try Plan.parseFrom(in)
    finally in.close()
  }
  private def stamped(p: Plan, producer: String): Plan =
    p.toBuilder.setVersion(Version.newBuilder(p.getVersion).setProducer(producer)).build()
  private def readings(p: Plan): Seq[String] =
    PlanDecoder.fromBytes(p.toByteArray, PlanLimits.active).readings.map(_.name)

  test(
    "ibis-correlation-as-root-reference: EXISTS and NOT EXISTS read correlated, over NULLs, duplicates, an empty table") {
    val exists = plan("exists")
    assert(exists.getVersion.getProducer == "ibis-substrait")
    assert(readings(exists).contains("ibis-correlation-as-root-reference"))
    assertRows(run(exists), Seq(Row("a"), Row("a"), Row("b")))
    assertRows(run(plan("not_exists")), Seq(Row("d"), Row(null)))
    assertRows(run(plan("exists_empty")), Nil)
    assertRows(run(plan("not_exists_empty")), Seq(Row("a"), Row("a"), Row("b"), Row("d"), Row(null)))
  }

  test("ibis-correlation-as-root-reference: the same plan stamped by another producer is read by the spec (refused)") {
    for (producer <- Seq("datafusion", "isthmus")) {
      val other = stamped(plan("exists"), producer)
      assert(!readings(other).contains("ibis-correlation-as-root-reference"))
      // equal(dept, name): an i32 and a string, as the spec reads the plan.
      assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION",
        "relations[0].root.input.project.input.filter.condition.subquery." +
          "set_predicate.tuples.filter.condition.scalar_function") {
        run(other)
      }
    }
  }

  test(
    "ibis-correlation-as-root-reference: a comparison the types cannot place is refused, naming ibis-substrait's bug") {
    // emp.salary > dept.budget: gt(field 3, field 1) is salary > dept as written, or salary > budget.
    val e = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.project.input.filter.condition." +
        "subquery.set_predicate.tuples.filter.condition.scalar_function.arguments[1].value") {
      run(plan("exists_ambiguous"))
    }
    assert(e.getMessage.contains("ibis-substrait's known bug"), e.getMessage)
    // TPC-H Q21 (ibis' own expression): l2.l_suppkey != l1.l_suppkey is not_equal(field 2, field 9), l_suppkey
    // against l_linestatus as written; read as l1.l_suppkey (i64) or as s_address (a string), it compares.
    val q21 = intercept[errors.SubstraitException](run(plan("tpch_q21")))
    assert(q21.getCondition == "SUBSTRAIT_UNSUPPORTED_FEATURE", q21.getMessage)
    assert(q21.getMessage.contains("not_equal(field 2, field 9)") && q21.getMessage.contains("known bug"),
      q21.getMessage)
  }
}
