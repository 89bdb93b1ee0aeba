package io.sparksubstrait
package session

import org.apache.spark.sql.Row

import io.sparksubstrait.catalyst.UnresolvedSubstraitPlan
import io.sparksubstrait.implicits._
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** The extension path: the analyzer converts the plan, and nothing of ours reaches the optimizer. */
class ExtensionSuite extends SparkSuite with SubstraitAssertions {
  private def plan = {
    val b = new PlanBuilder()
    b.plan(filter(readVirtual(schema("x" -> i32(), "y" -> string()),
          Seq(Seq(litI32(1), litString("a")), Seq(litI32(3), litString("b")))),
        b.call(b.fn("functions_comparison", "gt:i32_i32"), field(0), litI32(2))), "x", "y")
  }

  test("the extension's rule is installed and converts during analysis") {
    assert(SubstraitPlans.extensionEnabled(spark))
    val df = spark.read.substrait(plan.toByteArray)
    val analyzed = df.queryExecution.analyzed
    assert(analyzed.resolved)
    assert(analyzed.collectFirst { case u: UnresolvedSubstraitPlan => u }.isEmpty)
    assert(analyzed.collect { case p => p.getClass.getName }.forall(n => !n.startsWith("io.sparksubstrait")))
    assertRows(df, Seq(Row(3, "b")))
    assert(df.queryExecution.executedPlan.toString.contains("LocalTableScan"))
  }

  test("the Scala API takes bytes and JSON") {
    assertRows(spark.read.substrait(com.google.protobuf.util.JsonFormat.printer().print(plan)), Seq(Row(3, "b")))
  }

  test("the optimized plan equals the one of the same query in SQL") {
    spark.sql("CREATE OR REPLACE TEMP VIEW t AS SELECT * FROM VALUES (1, 'a'), (3, 'b') AS t(x, y)")
    val b = new PlanBuilder()
    val p = b.plan(filter(readNamed(schema("x" -> i32(), "y" -> string()), "t"),
        b.call(b.fn("functions_comparison", "gt:i32_i32"), field(0), litI32(2))), "x", "y")
    val ours = spark.read.substrait(p.toByteArray).queryExecution.optimizedPlan
    val sql = spark.sql("SELECT x, y FROM t WHERE x > 2").queryExecution.optimizedPlan
    assert(ours.canonicalized == sql.canonicalized, s"\n$ours\nvs\n$sql")
  }
}
