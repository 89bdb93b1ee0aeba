package io.sparksubstrait.extending

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * Public API (docs/extending.md): reads, and optionally writes, the extension relations
 * (`ExtensionLeafRel`, `ExtensionSingleRel`, `ExtensionMultiRel`) whose `detail` payload has
 * one of [[typeUrls]]. Registered by class name in the session setting
 * `spark.substrait.extensionRelations` (a comma list; a class with a no-argument constructor,
 * or a Scala object). One instance per class serves every session and every conversion, on
 * several threads at once: keep it stateless.
 *
 * Payloads cross this API as the `google.protobuf.Any`'s type URL and bytes: the released jar
 * shades protobuf, so no protobuf class may appear here. Parse the bytes with your own
 * message classes (`MyMessage.parseFrom(payload)`).
 *
 * The plan a handler returns must be resolved (every attribute bound, as a DataFrame's
 * analyzed plan is); its output is the relation's record, which the relation's `emit`
 * then selects from, as for any relation.
 */
trait ExtensionRelation {

  /**
   * The type URLs this handler reads: the `type_url` of the relation's `detail`, e.g.
   * `type.googleapis.com/org.example.Sample`. No two registered handlers may claim one URL.
   */
  def typeUrls: Set[String]

  /**
   * The Catalyst plan for one relation.
   *
   * @param typeUrl the detail's type URL, one of [[typeUrls]]
   * @param payload the detail's bytes (`Any.value`)
   * @param inputs  the relation's inputs, converted: none for a leaf, one for a single-input
   *                relation, every input in order for a multi-input one
   * @param session the session reading the plan
   * @throws Exception any, to refuse the relation: the reader raises the project's error
   *                   SUBSTRAIT_EXTENSION_FAILED naming this handler and the relation's place
   */
  def toLogicalPlan(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan], session: SparkSession)
    : LogicalPlan

  /**
   * Writing: the relation a Catalyst node of an optimized plan stands for, when this handler
   * writes it (None: not this handler's node). The writer asks only for nodes it has no
   * relation of its own for, writes the payload's inputs itself, and makes an
   * `ExtensionLeafRel` for no input, an `ExtensionSingleRel` for one and an
   * `ExtensionMultiRel` for more. The relation's record must be the node's `output`, in
   * order, and the type URL one of [[typeUrls]], so the plan reads back to the same rows.
   */
  def toSubstrait(plan: LogicalPlan): Option[ExtensionPayload] = None
}

/**
 * Public API: what [[ExtensionRelation.toSubstrait]] writes for a Catalyst node.
 *
 * @param typeUrl the `type_url` of the relation's `detail`
 * @param payload the `detail`'s bytes (`Any.value`)
 * @param inputs  the Catalyst plans written as the relation's inputs, in order
 */
final case class ExtensionPayload(typeUrl: String, payload: Array[Byte], inputs: Seq[LogicalPlan])
