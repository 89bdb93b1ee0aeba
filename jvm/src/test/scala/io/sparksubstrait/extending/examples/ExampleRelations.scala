package io.sparksubstrait.extending.examples

import com.google.protobuf.{Int64Value, StringValue}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Alias, AttributeReference, EqualTo, Literal, Murmur3Hash, Pmod}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LocalRelation, LogicalPlan, Project, Range, Union}
import org.apache.spark.sql.types.StringType
import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.extending.{ExtensionPayload, ExtensionRelation}

/**
 * A leaf: rows of one string column `value` from the comma-separated list a
 * `google.protobuf.StringValue` holds; an empty item is NULL, an empty list no row at all.
 */
object TextRows extends ExtensionRelation {
  val TypeUrl = "type.googleapis.com/google.protobuf.StringValue"

  override def typeUrls: Set[String] = Set(TypeUrl)

  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = {
    require(inputs.isEmpty, s"a leaf, not a relation of ${inputs.size} inputs")
    val text = StringValue.parseFrom(payload).getValue
    val items = if (text.isEmpty) Seq.empty[String] else text.split(",", -1).toSeq
    val rows = items.map(i => InternalRow(if (i.isEmpty) null else UTF8String.fromString(i)))
    LocalRelation(Seq(AttributeReference("value", StringType, nullable = true)()), rows)
  }
}

/**
 * A leaf, read and written: the whole numbers 0 to n - 1, n a `google.protobuf.Int64Value`
 * (Spark's `range(n)`, column `id`).
 */
object Series extends ExtensionRelation {
  val TypeUrl = "type.googleapis.com/google.protobuf.Int64Value"

  override def typeUrls: Set[String] = Set(TypeUrl)

  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = {
    require(inputs.isEmpty, s"a leaf, not a relation of ${inputs.size} inputs")
    Range(0, Int64Value.parseFrom(payload).getValue, 1, None)
  }

  /** Only a range from 0 by 1: another has no payload here, and stays unwritable. */
  override def toSubstrait(plan: LogicalPlan): Option[ExtensionPayload] = plan match {
    case r: Range if r.start == 0 && r.step == 1 =>
      Some(ExtensionPayload(TypeUrl, Int64Value.of(r.end).toByteArray, Nil))
    case _ => None
  }
}

/**
 * One input: a deterministic sample by a column, the rows whose first column hashes to 0
 * modulo n (SQL's `WHERE pmod(hash(c), n) = 0`); n is a `google.protobuf.Int64Value` under a
 * type URL of its own. A class (not an object), registered by its name all the same.
 */
final class HashSample extends ExtensionRelation {
  override def typeUrls: Set[String] = Set(HashSample.TypeUrl)

  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = {
    require(inputs.size == 1, s"a hash sample reads one input, not ${inputs.size}")
    val n = Int64Value.parseFrom(payload).getValue
    require(n >= 1 && n <= Int.MaxValue, s"a modulus from 1 to ${Int.MaxValue}, not $n")
    val input = inputs.head
    val bucket = Pmod(new Murmur3Hash(Seq(input.output.head)), Literal(n.toInt))
    Filter(EqualTo(bucket, Literal(0)), input)
  }
}

object HashSample {
  val TypeUrl = "type.googleapis.com/org.example.HashSample"
}

/**
 * Any number of inputs of one record type: their rows together, each with the (0-based)
 * number of the input it came from in a last column, named by the `google.protobuf.StringValue`
 * under a type URL of its own (SQL's `SELECT *, 0 AS t FROM a UNION ALL SELECT *, 1 FROM b …`).
 */
object TaggedUnion extends ExtensionRelation {
  val TypeUrl = "type.googleapis.com/org.example.TaggedUnion"

  override def typeUrls: Set[String] = Set(TypeUrl)

  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = {
    require(inputs.nonEmpty, "a tagged union of no input")
    val types = inputs.head.output.map(_.dataType)
    inputs.foreach(i => require(i.output.map(_.dataType) == types, s"inputs of one record type, not ${i.schema}"))
    val tag = StringValue.parseFrom(payload).getValue
    Union(inputs.zipWithIndex.map { case (input, i) => Project(input.output :+ Alias(Literal(i), tag)(), input) })
  }
}

/**
 * A leaf whose payload is a whole Substrait plan (its bytes), read through this project's own
 * API: the nested plan's rows, or its error as it is (a SubstraitException passes a handler).
 */
object NestedPlanLeaf extends ExtensionRelation {
  val TypeUrl = "type.googleapis.com/org.example.NestedPlan"

  override def typeUrls: Set[String] = Set(TypeUrl)

  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = {
    require(inputs.isEmpty, s"a leaf, not a relation of ${inputs.size} inputs")
    SubstraitPlans.read(session, payload).queryExecution.analyzed
  }
}
