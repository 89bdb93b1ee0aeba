package io.sparksubstrait.extending.examples

import com.google.protobuf.{Struct, Value}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Sample}

import io.sparksubstrait.extending.{ExtensionPayload, ExtensionRelation}

/**
 * docs/extending.md's worked example of an extension relation, read and written: Spark's
 * Bernoulli sample (`TABLESAMPLE (p PERCENT) REPEATABLE (seed)`, `df.sample(fraction, seed)`)
 * as an ExtensionSingleRel whose detail is a `google.protobuf.Struct` under the type URL
 * below: `{"fraction": 0.3, "seed": "7"}` (the seed as text: a Struct's numbers are doubles,
 * which do not hold every long). It uses the public API only, as a user's handler would.
 */
object SampleRelation extends ExtensionRelation {
  val TypeUrl = "type.googleapis.com/org.example.Sample"

  override def typeUrls: Set[String] = Set(TypeUrl)

  override def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan = {
    require(inputs.size == 1, s"a sample reads one input, not ${inputs.size}")
    val fields = Struct.parseFrom(payload).getFieldsMap
    require(fields.containsKey("fraction") && fields.containsKey("seed"), "a sample needs a fraction and a seed")
    val fraction = fields.get("fraction").getNumberValue
    require(fraction >= 0 && fraction <= 1, s"a fraction from 0 to 1, not $fraction")
    Sample(0.0, fraction, withReplacement = false, fields.get("seed").getStringValue.toLong, inputs.head)
  }

  /** A Bernoulli sample with a seed, without replacement (no other has a payload here): it reads back the same. */
  override def toSubstrait(plan: LogicalPlan): Option[ExtensionPayload] = plan match {
    case s: Sample if s.lowerBound == 0.0 && !s.withReplacement && bernoulli(s) =>
      seedOf(s).map(seed => ExtensionPayload(TypeUrl, payload(s.upperBound, seed), Seq(s.child)))
    case _ => None
  }

  /** Spark 3.5 holds the seed as a long, Spark 4.3 as an option (None: a random one, which cannot be written). */
  private def seedOf(s: Sample): Option[Long] = (s.seed: Any) match {
    case seed: Long => Some(seed)
    case Some(seed: Long) => Some(seed)
    case _ => None
  }

  /** Spark 4.3 also samples by blocks (TABLESAMPLE SYSTEM): another relation. */
  private def bernoulli(s: Sample): Boolean =
    s.productArity < 6 || s.productElement(5).getClass.getSimpleName.stripSuffix("$") == "Bernoulli"

  def payload(fraction: Double, seed: Long): Array[Byte] = Struct.newBuilder()
    .putFields("fraction", Value.newBuilder().setNumberValue(fraction).build())
    .putFields("seed", Value.newBuilder().setStringValue(seed.toString).build())
    .build().toByteArray
}
