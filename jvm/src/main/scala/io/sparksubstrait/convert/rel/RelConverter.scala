package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.Rel
import io.sparksubstrait.proto.Rel.RelTypeCase
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Dispatches each relation kind to its converter, then applies what all relations share
 * (emit, extensions) once, in [[RelCommonConverter]].
 */
private[sparksubstrait] object RelConverter {
  def convert(rel: Rel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = SubstraitErrors.located(at) {
    val plan = rel.getRelTypeCase match {
      case RelTypeCase.READ => RelCommonConverter(rel.getRead, at / "read")(ReadConverter.convert)
      case RelTypeCase.FILTER => RelCommonConverter(rel.getFilter, at / "filter")(FilterConverter.convert)
      case RelTypeCase.PROJECT => RelCommonConverter(rel.getProject, at / "project")(ProjectConverter.convert)
      case RelTypeCase.FETCH => RelCommonConverter(rel.getFetch, at / "fetch")(FetchConverter.convert)
      case RelTypeCase.SORT => RelCommonConverter(rel.getSort, at / "sort")(SortConverter.convert)
      case RelTypeCase.AGGREGATE => RelCommonConverter(rel.getAggregate, at / "aggregate")(AggregateConverter.convert)
      case RelTypeCase.JOIN => RelCommonConverter(rel.getJoin, at / "join")(JoinConverter.convert)
      case RelTypeCase.SET => RelCommonConverter(rel.getSet, at / "set")(SetConverter.convert)
      case RelTypeCase.CROSS => RelCommonConverter(rel.getCross, at / "cross")(JoinConverter.convertCross)
      case RelTypeCase.HASH_JOIN =>
        RelCommonConverter(rel.getHashJoin, at / "hash_join")(PhysicalJoinConverter.convertHash)
      case RelTypeCase.MERGE_JOIN =>
        RelCommonConverter(rel.getMergeJoin, at / "merge_join")(PhysicalJoinConverter.convertMerge)
      case RelTypeCase.NESTED_LOOP_JOIN =>
        RelCommonConverter(rel.getNestedLoopJoin, at / "nested_loop_join")(PhysicalJoinConverter.convertNestedLoop)
      case RelTypeCase.EXPAND => RelCommonConverter(rel.getExpand, at / "expand")(ExpandConverter.convert)
      case RelTypeCase.EXCHANGE => RelCommonConverter(rel.getExchange, at / "exchange")(ExchangeConverter.convert)
      case RelTypeCase.WINDOW => RelCommonConverter(rel.getWindow, at / "window")(WindowRelConverter.convert)
      case RelTypeCase.LATERAL_JOIN =>
        RelCommonConverter(rel.getLateralJoin, at / "lateral_join")(LateralJoinConverter.convert)
      case RelTypeCase.TOP_N => RelCommonConverter(rel.getTopN, at / "top_n")(TopNConverter.convert)
      case RelTypeCase.EXTENSION_LEAF =>
        RelCommonConverter(rel.getExtensionLeaf, at / "extension_leaf")(ExtensionRelConverter.leaf)
      case RelTypeCase.EXTENSION_SINGLE =>
        RelCommonConverter(rel.getExtensionSingle, at / "extension_single")(ExtensionRelConverter.single)
      case RelTypeCase.EXTENSION_MULTI =>
        RelCommonConverter(rel.getExtensionMulti, at / "extension_multi")(ExtensionRelConverter.multi)
      case RelTypeCase.REFERENCE => RelCommonConverter(rel.getReference, at / "reference")(ctx.subtrees.reference)
      case RelTypeCase.RELTYPE_NOT_SET => throw SubstraitErrors.missingField(at, "rel_type", "a relation")
      case other =>
        throw SubstraitErrors.unsupported(at / other.name().toLowerCase, s"relation ${other.name().toLowerCase}",
          "a relation kind listed in docs/supported.md")
    }
    // The one place relations are reported to explain (null: not explaining).
    if (ctx.listener != null) ctx.listener.relation(rel, at, plan)
    plan
  }

  /** Converts a required input relation. */
  def input(hasInput: Boolean, input: => Rel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (!hasInput) throw SubstraitErrors.missingField(at, "input", "the input relation")
    convert(input, at / "input")
  }
}
