package io.sparksubstrait.extending.examples

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.types.{DataType, DecimalType}

import io.sparksubstrait.extending.{ExtensionPayload, ExtensionRelation, UserDefinedTypeHandler}

/** Handlers that break their contract, for the errors they must give (ExtensionRelationsSuite). */
object ThrowingRelation extends ExtensionRelation {
  val TypeUrl = "type.googleapis.com/org.example.Throws"
  override def typeUrls: Set[String] = Set(TypeUrl)
  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = throw new IllegalStateException("the payload is not what this handler writes")
}

/** Returns a plan Spark's analyzer would still have to resolve. */
object UnresolvedPlanRelation extends ExtensionRelation {
  val TypeUrl = "type.googleapis.com/org.example.Unresolved"
  override def typeUrls: Set[String] = Set(TypeUrl)
  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = UnresolvedRelation(Seq("some_table"))
}

/** Claims TextRows' type URL too: two handlers for one URL is a setting's error. */
object SecondTextRows extends ExtensionRelation {
  override def typeUrls: Set[String] = Set(TextRows.TypeUrl)
  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = TextRows.toLogicalPlan(typeUrl, payload, inputs, session)
}

/** Writes every plan under a type URL it does not read. */
object ForeignWriter extends ExtensionRelation {
  override def typeUrls: Set[String] = Set("type.googleapis.com/org.example.Read")
  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = inputs.head
  override def toSubstrait(plan: LogicalPlan): Option[ExtensionPayload] =
    Some(ExtensionPayload("type.googleapis.com/org.example.Written", Array.emptyByteArray, plan.children))
}

/** A type handler whose literal is a string where its Spark type holds decimals. */
object WrongValueMoney extends UserDefinedTypeHandler {
  override def urn: String = MoneyType.Urn
  override def name: String = "money"
  override def sparkType: DataType = DecimalType(18, 2)
  override def literal(typeUrl: String, payload: Array[Byte]): Any = "twelve"
}
