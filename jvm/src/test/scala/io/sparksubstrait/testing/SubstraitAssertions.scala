package io.sparksubstrait.testing

import org.apache.spark.sql.DataFrame

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.errors.SubstraitException

trait SubstraitAssertions { self: SparkSuite =>
  def run(plan: io.sparksubstrait.proto.Plan): DataFrame = SubstraitPlans.read(spark, plan.toByteArray)

  /** An exception and its causes, outermost first (Spark wraps an error raised while a query runs). */
  def causes(e: Throwable): Seq[Throwable] = Throwables.causes(e)

  /**
   * `body` fails with our error of this condition, at conversion or while the query runs (then
   * inside Spark's wrapping), and never with Spark's own error beside it.
   */
  def assertFailsWith(condition: String)(body: => Any): SubstraitException = {
    val e = intercept[Exception](body)
    val ours = causes(e).collectFirst { case s: SubstraitException => s }
    assert(ours.exists(_.getCondition == condition), s"expected $condition, got: $e")
    assert(spark.sql("SELECT 1").collect().head.getInt(0) == 1)
    ours.get
  }

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
