package io.sparksubstrait
package session

import org.apache.spark.sql.Row

import io.sparksubstrait.implicits._
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Without the extension, the jar alone converts eagerly to the same rows. */
class WithoutExtensionSuite extends SparkSuite with SubstraitAssertions {
  override protected def withExtension: Boolean = false

  test("the API converts eagerly when the extension is not enabled") {
    assert(!SubstraitPlans.extensionEnabled(spark))
    val b = new PlanBuilder()
    val p = b.plan(readVirtual(schema("x" -> i32()), Seq(Seq(litI32(4)), Seq(litNull(i32())))), "x")
    assertRows(spark.read.substrait(p.toByteArray), Seq(Row(4), Row(null)))
  }
}
