package io.sparksubstrait.testing

import org.apache.spark.sql.DataFrame

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.errors.SubstraitException

trait SubstraitAssertions { self: SparkSuite =>
  def run(plan: io.sparksubstrait.proto.Plan): DataFrame = SubstraitPlans.read(spark, plan.toByteArray)

  /** Conversion fails with our error, of this condition, naming this location. */
  def assertPlanError(condition: String, location: String)(body: => Any): SubstraitException = {
    val e = intercept[SubstraitException](body)
    assert(e.getCondition == condition, s"condition of: ${e.getMessage}")
    assert(e.getLocation == location, s"location of: ${e.getMessage}")
    assert(e.getMessage.contains(s"[$condition]"), e.getMessage)
    // The session stays usable.
    assert(spark.sql("SELECT 1").collect().head.getInt(0) == 1)
    e
  }
}
