package io.sparksubstrait.convert.rel

import io.substrait.proto.Rel
import io.substrait.proto.Rel.RelTypeCase
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.plan.PlanPath

/** Dispatches each relation kind to its converter, then applies the relation's emit once. */
object RelConverter {
  def convert(rel: Rel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = SubstraitErrors.located(at)(rel.getRelTypeCase match {
    case RelTypeCase.READ => RelCommonConverter.apply(ReadConverter.convert(rel.getRead, at / "read"), rel.getRead.getCommon, at / "read")
    case RelTypeCase.FILTER => RelCommonConverter.apply(FilterConverter.convert(rel.getFilter, at / "filter"), rel.getFilter.getCommon, at / "filter")
    case RelTypeCase.PROJECT => RelCommonConverter.apply(ProjectConverter.convert(rel.getProject, at / "project"), rel.getProject.getCommon, at / "project")
    case RelTypeCase.FETCH => RelCommonConverter.apply(FetchConverter.convert(rel.getFetch, at / "fetch"), rel.getFetch.getCommon, at / "fetch")
    case RelTypeCase.SORT => RelCommonConverter.apply(SortConverter.convert(rel.getSort, at / "sort"), rel.getSort.getCommon, at / "sort")
    case RelTypeCase.AGGREGATE => RelCommonConverter.apply(AggregateConverter.convert(rel.getAggregate, at / "aggregate"), rel.getAggregate.getCommon, at / "aggregate")
    case RelTypeCase.RELTYPE_NOT_SET => throw SubstraitErrors.missingField(at, "rel_type", "a relation")
    case other => throw SubstraitErrors.unsupported(at / other.name().toLowerCase, s"relation ${other.name().toLowerCase}",
      "a relation kind listed in docs/supported.md")
  })

  /** Converts a required input relation. */
  def input(hasInput: Boolean, input: => Rel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!hasInput) throw SubstraitErrors.missingField(at, "input", "the input relation")
    convert(input, at / "input")
  }
}
