package io.sparksubstrait.decode.readings

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Plan, ProjectRel, Rel, RelCommon}

import io.sparksubstrait.errors.SubstraitErrors

/**
 * A ProjectRel without emit meaning "only its expressions" (the spec: the input's columns,
 * then the expressions). Lifted into the spec's shape: an emit naming the expressions.
 */
private[sparksubstrait] final case class ProjectWithoutEmit(name: String, releases: String,
  applies: ProducerStamp => Boolean)
    extends LiftsOneAtATime {
  val meaning = "a ProjectRel without emit outputs only its expressions (the spec: input columns, then expressions); " +
    "read as an emit of the expressions"

  def appliesTo(stamp: ProducerStamp): Boolean = applies(stamp)

  def rewrite(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Message]] = Some {
    case (rel: Rel, at) if rel.hasProject && !rel.getProject.getCommon.hasEmit =>
      val project = rel.getProject
      val width = RelArity.of(project.getInput).getOrElse(throw SubstraitErrors.unsupported(at / "project" / "input",
          s"a ProjectRel without emit over an input whose width the plan does not state ($name)",
          "an input whose column count the messages give (ReadRel, FilterRel, JoinRel, AggregateRel, …)"))
      val emit = RelCommon.Emit.newBuilder()
      (0 until project.getExpressionsCount).foreach(i => emit.addOutputMapping(width + i))
      found(s"ProjectRel of ${project.getExpressionsCount} expressions over $width input columns")
      val common = RelCommon.newBuilder(project.getCommon).setEmit(emit)
      rel.toBuilder.setProject(ProjectRel.newBuilder(project).setCommon(common)).build()
  }
}
