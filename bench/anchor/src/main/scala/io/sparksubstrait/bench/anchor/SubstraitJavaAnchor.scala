package io.sparksubstrait.bench.anchor

import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.bench.Anchor
import io.substrait.plan.ProtoPlanConverter
import io.substrait.spark.SparkExtension
import io.substrait.spark.logical.ToLogicalPlan

/**
 * substrait-java's Spark module as the benchmark's anchor, used as its own tests use it:
 * the plan bytes parsed into substrait-java's proto classes, its POJO plan
 * (`ProtoPlanConverter` with the module's extension collection: the default one and
 * spark.yml), `ToLogicalPlan.convert` (a fresh converter per plan, as it keeps state) and the
 * DataFrame of that logical plan, analyzed — the steps ours takes from bytes to DataFrame.
 * Named tables resolve through the session's catalog (its `UnresolvedRelation`s are analysed
 * as it converts), so the bench's temporary views serve both.
 */
final class SubstraitJavaAnchor extends Anchor {
  def name: String = s"substrait-java spark ${Option(classOf[ProtoPlanConverter].getPackage.getImplementationVersion).getOrElse("")}".trim

  def read(spark: SparkSession, plan: Array[Byte]): DataFrame = {
    val proto = io.substrait.proto.Plan.parseFrom(plan)
    val pojo = new ProtoPlanConverter(SparkExtension.COLLECTION).from(proto)
    val logical = new ToLogicalPlan(spark).convert(pojo)
    SparkShim.ofRows(spark, logical) // analyzes, as ours
  }
}
