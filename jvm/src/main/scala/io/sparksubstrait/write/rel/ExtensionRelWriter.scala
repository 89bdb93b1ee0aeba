package io.sparksubstrait.write.rel

import com.google.protobuf.{Any => ProtoAny, ByteString}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.extending.{ExtensionPayload, ExtensionRelation, ExtensionRelations, HandlerClasses}
import io.sparksubstrait.proto.{ExtensionLeafRel, ExtensionMultiRel, ExtensionSingleRel, Rel}
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * A Catalyst node no writer of ours has a relation for, written by the first of the session's
 * extension relation handlers (docs/extending.md) that claims it: an ExtensionLeafRel,
 * ExtensionSingleRel or ExtensionMultiRel by the number of inputs its payload names, each
 * input written by [[RelWriter]]. The handler answers for the relation's record being the
 * node's output; its type URL must be one it reads, so the plan reads back through it.
 */
private[sparksubstrait] object ExtensionRelWriter {

  /** The node as its handler's relation, or None when no handler claims it (then it is unwritable). */
  def write(plan: LogicalPlan, at: CatalystPath)(implicit ctx: WriteContext): Option[Rel] = {
    val location = at.toString
    val handlers = ExtensionRelations.fromConf(SparkShim.sqlConf(ctx.session), None).handlers
    handlers.iterator.map(h => h -> HandlerClasses.call(h, s"writing ${plan.nodeName}", location)(h.toSubstrait(plan)))
      .collectFirst { case (h, Some(payload)) => relation(checked(payload, h, plan, location), at) }
  }

  private def checked(payload: ExtensionPayload, handler: ExtensionRelation, plan: LogicalPlan, location: String)
    : ExtensionPayload = {
    def broke(how: String) =
      SubstraitErrors.extensionFailed(location, HandlerClasses.describe(handler), s"writing ${plan.nodeName}", how)
    if (payload == null || payload.typeUrl == null || payload.payload == null || payload.inputs == null) {
      throw broke("it returned a payload with a null part")
    }
    if (!handler.typeUrls.contains(payload.typeUrl)) {
      throw broke(s"it wrote type URL ${payload.typeUrl}, which it does not read (its typeUrls: " +
        s"${handler.typeUrls.toSeq.sorted.mkString(", ")}), so the plan would not read back")
    }
    payload
  }

  private def relation(payload: ExtensionPayload, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val detail = ProtoAny.newBuilder().setTypeUrl(payload.typeUrl).setValue(ByteString.copyFrom(payload.payload))
    val inputs = payload.inputs.zipWithIndex.map { case (p, i) =>
      RelWriter.write(p, if (payload.inputs.size == 1) at else at / s"input $i")
    }
    inputs match {
      case Seq() => Rel.newBuilder().setExtensionLeaf(ExtensionLeafRel.newBuilder().setDetail(detail)).build()
      case Seq(input) =>
        Rel.newBuilder().setExtensionSingle(ExtensionSingleRel.newBuilder().setInput(input).setDetail(detail)).build()
      case many =>
        val m = ExtensionMultiRel.newBuilder().setDetail(detail)
        many.foreach(m.addInputs)
        Rel.newBuilder().setExtensionMulti(m).build()
    }
  }
}
