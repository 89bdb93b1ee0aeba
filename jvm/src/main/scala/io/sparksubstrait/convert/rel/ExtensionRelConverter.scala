package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import com.google.protobuf.{Any => ProtoAny}
import io.sparksubstrait.proto.{ExtensionLeafRel, ExtensionMultiRel, ExtensionSingleRel}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.trees.TreeNodeTag

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.extending.{ExtensionRelation, ExtensionRelations, HandlerClasses}

/**
 * ExtensionLeafRel, ExtensionSingleRel and ExtensionMultiRel: what they do only their
 * `detail`'s type says, so a relation is read by the session's handler for that type URL
 * (docs/extending.md) over its converted inputs, or refused naming how to register one. The
 * handler's plan must be resolved: Spark's analyzer never sees it alone, and an unresolved
 * node would fail later, far from the relation.
 */
private[sparksubstrait] object ExtensionRelConverter {

  /** What the plan explorer notes on the operator a handler returned: the handler's name. */
  val HandlerNotes: TreeNodeTag[Seq[String]] = TreeNodeTag[Seq[String]]("sparksubstrait.extensionHandler")

  def leaf(rel: ExtensionLeafRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan =
    convert(rel.hasDetail, rel.getDetail, "extension_leaf", at)(Nil)

  def single(rel: ExtensionSingleRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan =
    convert(rel.hasDetail, rel.getDetail, "extension_single", at)(
      Seq(RelConverter.input(rel.hasInput, rel.getInput, at)))

  def multi(rel: ExtensionMultiRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan =
    convert(rel.hasDetail, rel.getDetail, "extension_multi", at)(rel.getInputsList.asScala.toSeq.zipWithIndex.map {
      case (input, i) => RelConverter.convert(input, at.at("inputs", i))
    })

  /** The handler is found before the inputs convert: an unreadable relation is refused as itself. */
  private def convert(hasDetail: Boolean, detail: ProtoAny, kind: String, at: PlanPath)(inputs: => Seq[LogicalPlan])(
    implicit ctx: ConversionContext): LogicalPlan = {
    val typeUrl = if (hasDetail) detail.getTypeUrl else ""
    val handlers = ctx.extensionRelations(at)
    val handler = handlers.forTypeUrl(typeUrl).getOrElse(throw unregistered(kind, typeUrl, handlers, at))
    val converted = inputs
    val what = s"reading the $kind of type $typeUrl"
    val plan = HandlerClasses.call(handler, what, at.toString)(
      handler.toLogicalPlan(typeUrl, detail.getValue.toByteArray, converted, ctx.session))
    checked(plan, handler, what, at)
    // An input returned as it is belongs to its own relation in the explorer.
    if (!converted.exists(_ eq plan)) {
      plan.setTagValue(HandlerNotes, Seq(s"read by ${HandlerClasses.describe(handler)} (${ExtensionRelations.Key})"))
    }
    plan
  }

  private def unregistered(kind: String, typeUrl: String, handlers: ExtensionRelations, at: PlanPath) =
    SubstraitErrors.unsupported(at,
      if (typeUrl.isEmpty) s"relation $kind without a detail" else s"relation $kind with a detail of type $typeUrl",
      s"an extension relation whose detail's type URL a handler named in ${ExtensionRelations.Key} reads " +
        s"(docs/extending.md; ${handlers.describe})")

  /** The handler's plan, refused when it is not one a relation can be: null, or not resolved. */
  private def checked(plan: LogicalPlan, handler: ExtensionRelation, what: String, at: PlanPath): Unit = {
    def broke(how: String) = SubstraitErrors.extensionFailed(at.toString, HandlerClasses.describe(handler), what, how)
    if (plan == null) throw broke("it returned null, not a plan")
    if (!plan.resolved) {
      val unresolved = plan.collect { case p if !p.resolved && p.childrenResolved => p }.headOption.getOrElse(plan)
      throw broke(s"it returned a plan that is not resolved (${unresolved.nodeName} is not; return an analyzed plan)")
    }
  }
}
