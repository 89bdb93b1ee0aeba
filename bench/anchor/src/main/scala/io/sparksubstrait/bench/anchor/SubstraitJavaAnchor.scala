package io.sparksubstrait.bench.anchor

import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.bench.Anchor
import io.substrait.plan.{PlanProtoConverter, ProtoPlanConverter}
import io.substrait.spark.SparkExtension
import io.substrait.spark.logical.{ToLogicalPlan, ToSubstraitRel}

/**
 * substrait-java's Spark module as the benchmark's anchor, used as its own tests use it:
 * the plan bytes parsed into substrait-java's proto classes, its POJO plan
 * (`ProtoPlanConverter` with the module's extension collection: the default one and
 * spark.yml), `ToLogicalPlan.convert` (a fresh converter per plan, as it keeps state) and the
 * DataFrame of that logical plan, analyzed — the steps ours takes from bytes to DataFrame.
 * Named tables resolve through the session's catalog (its `UnresolvedRelation`s are analysed
 * as it converts), so the bench's temporary views serve both.
 *
 * As a producer: Spark's optimized plan of the SQL through `ToSubstraitRel.convert`, as its
 * round-trip tests make plans. It writes a scan of a temporary view over parquet as LocalFiles
 * (the files' paths); a catalog table would be a NamedTable.
 */
final class SubstraitJavaAnchor extends Anchor {
  def name: String =
    s"substrait-java spark ${Option(classOf[ProtoPlanConverter].getPackage.getImplementationVersion).getOrElse("")}".trim

  def read(spark: SparkSession, plan: Array[Byte]): DataFrame = {
    val proto = io.substrait.proto.Plan.parseFrom(plan)
    val pojo = new ProtoPlanConverter(SparkExtension.COLLECTION).from(proto)
    val logical = new ToLogicalPlan(spark).convert(pojo)
    SparkShim.ofRows(spark, logical) // analyzes, as ours
  }

  def produce(spark: SparkSession, sql: String): Array[Byte] = {
    val plan = new ToSubstraitRel().convert(spark.sql(sql).queryExecution.optimizedPlan)
    new PlanProtoConverter(SparkExtension.COLLECTION).toProto(plan).toByteArray
  }
}
