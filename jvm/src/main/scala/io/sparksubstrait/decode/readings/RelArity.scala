package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{JoinRel, Rel}
import io.sparksubstrait.proto.Rel.RelTypeCase

/**
 * How many columns a relation outputs, read from the messages alone (no catalog): what a
 * reading needs to lift a producer's project into the spec's shape (an emit naming its
 * expressions). None where the messages do not say (a reference to a shared subtree, an
 * extension relation); the reading then reports that it cannot be applied.
 */
private[sparksubstrait] object RelArity {
  def of(rel: Rel): Option[Int] = {
    val common = commonOf(rel)
    if (common.exists(_.hasEmit)) return common.map(_.getEmit.getOutputMappingCount)
    rel.getRelTypeCase match {
      case RelTypeCase.READ =>
        val read = rel.getRead
        if (read.hasProjection) Some(read.getProjection.getSelect.getStructItemsCount)
        else if (read.getBaseSchema.hasStruct) Some(read.getBaseSchema.getStruct.getTypesCount)
        else Some(read.getBaseSchema.getNamesCount) // names only: no nested fields to count
      case RelTypeCase.FILTER => of(rel.getFilter.getInput)
      case RelTypeCase.SORT => of(rel.getSort.getInput)
      case RelTypeCase.FETCH => of(rel.getFetch.getInput)
      case RelTypeCase.PROJECT => of(rel.getProject.getInput).map(_ + rel.getProject.getExpressionsCount)
      case RelTypeCase.CROSS => sum(of(rel.getCross.getLeft), of(rel.getCross.getRight))
      case RelTypeCase.JOIN => join(rel.getJoin)
      case RelTypeCase.SET => rel.getSet.getInputsList.asScala.headOption.flatMap(of)
      case RelTypeCase.AGGREGATE =>
        val agg = rel.getAggregate
        // As AggregateConverter: the distinct expressions the grouping sets name, in either form.
        val shared = agg.getGroupingExpressionsList.asScala
        val keys = agg.getGroupingsList.asScala.flatMap { g =>
          if (g.getExpressionReferencesCount > 0)
            g.getExpressionReferencesList.asScala.flatMap(r => shared.lift(r.intValue))
          else g.getGroupingExpressionsList.asScala
        }.distinct.size
        Some(keys + agg.getMeasuresCount + (if (agg.getGroupingsCount > 1) 1 else 0))
      case RelTypeCase.WINDOW => of(rel.getWindow.getInput).map(_ + rel.getWindow.getWindowFunctionsCount)
      case RelTypeCase.EXPAND => Some(rel.getExpand.getFieldsCount)
      case RelTypeCase.EXCHANGE => of(rel.getExchange.getInput)
      case _ => None
    }
  }

  private def sum(a: Option[Int], b: Option[Int]): Option[Int] = for (x <- a; y <- b) yield x + y

  private def join(j: JoinRel): Option[Int] = {
    val (left, right) = (of(j.getLeft), of(j.getRight))
    j.getType match {
      case JoinRel.JoinType.JOIN_TYPE_LEFT_SEMI | JoinRel.JoinType.JOIN_TYPE_LEFT_ANTI => left
      case JoinRel.JoinType.JOIN_TYPE_RIGHT_SEMI | JoinRel.JoinType.JOIN_TYPE_RIGHT_ANTI => right
      case JoinRel.JoinType.JOIN_TYPE_LEFT_MARK => left.map(_ + 1)
      case JoinRel.JoinType.JOIN_TYPE_RIGHT_MARK => right.map(_ + 1)
      case _ => sum(left, right)
    }
  }

  private def commonOf(rel: Rel): Option[io.sparksubstrait.proto.RelCommon] = rel.getRelTypeCase match {
    case RelTypeCase.READ => Some(rel.getRead.getCommon)
    case RelTypeCase.FILTER => Some(rel.getFilter.getCommon)
    case RelTypeCase.SORT => Some(rel.getSort.getCommon)
    case RelTypeCase.FETCH => Some(rel.getFetch.getCommon)
    case RelTypeCase.PROJECT => Some(rel.getProject.getCommon)
    case RelTypeCase.CROSS => Some(rel.getCross.getCommon)
    case RelTypeCase.JOIN => Some(rel.getJoin.getCommon)
    case RelTypeCase.SET => Some(rel.getSet.getCommon)
    case RelTypeCase.AGGREGATE => Some(rel.getAggregate.getCommon)
    case RelTypeCase.WINDOW => Some(rel.getWindow.getCommon)
    case RelTypeCase.EXPAND => Some(rel.getExpand.getCommon)
    case RelTypeCase.EXCHANGE => Some(rel.getExchange.getCommon)
    case _ => None
  }
}
