package io.sparksubstrait.connect

import java.util.Optional

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connect.planner.SparkConnectPlanner
import org.apache.spark.sql.connect.plugin.RelationPlugin

import io.sparksubstrait.SubstraitPlans

/**
 * Runs Substrait plans sent by Spark Connect clients: register with
 * `spark.connect.extensions.relation.classes=io.sparksubstrait.connect.SubstraitRelationPlugin`.
 *
 * The relation's `extension` Any must hold a [[SubstraitRelationPayload]] message (a plan to
 * read) or its write request (a DataFrame to write as a plan: one row, column `plan`); for any
 * other Any this returns empty, Spark's contract for "not mine" (it then asks the next
 * plugin). A payload of ours that fails raises the project's SubstraitException, which
 * Spark Connect sends to the client with its condition and message parameters.
 *
 * Kept in the spark-4 source folder: Spark Connect's server API differs across versions.
 */
class SubstraitRelationPlugin extends RelationPlugin {
  override def transform(relation: Array[Byte], planner: SparkConnectPlanner): Optional[LogicalPlan] =
    SubstraitRelationPayload.unpack(relation) match {
      case Some(payload) => Optional.of(SubstraitPlans.logicalPlan(planner.session, payload))
      case None => SubstraitRelationPayload.unpackWrite(relation) match {
          // Writing: the client's DataFrame arrives as its Connect relation, planned here as
          // Spark Connect plans any relation; the result is one row holding the written plan.
          case Some(request) =>
            val input = planner.transformRelation(org.apache.spark.connect.proto.Relation.parseFrom(request.relation))
            Optional.of(SubstraitPlans.writtenPlanRow(planner.session, input, request))
          case None => Optional.empty()
        }
    }
}
