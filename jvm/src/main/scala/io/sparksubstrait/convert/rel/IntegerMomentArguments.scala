package io.sparksubstrait.convert.rel

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, Cast, ExprId, Expression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.types.DoubleType

import io.sparksubstrait.runtime.{ExactMoments, IntegerMoments}

/**
 * A variance or std_dev of a column its input computes as a double cast of an i8, i16 or i32
 * (DataFusion projects the cast below its aggregate: TPC-DS q39) takes the integer form,
 * [[IntegerMoments]] over that integer, which the input projection then outputs too: the path
 * AggregateFunctions takes when the cast is the measure's argument itself (a generated
 * HashAggregate of four long sums rather than an object aggregate of exact sums). The values
 * are the same: the cast of an integer below 2^31 to a double is exact.
 */
private[rel] object IntegerMomentArguments {

  /** The measures and the input, each measure given with its plan location. */
  def apply(measures: Seq[(Expression, String)], input: LogicalPlan): (Seq[Expression], LogicalPlan) = input match {
    case Project(list, child) =>
      val casts: Map[ExprId, Expression] = list.collect {
        case a @ Alias(Cast(integer, DoubleType, _, _), _) if IntegerMoments.Integers(integer.dataType) =>
          a.exprId -> integer
      }.toMap
      val added = mutable.LinkedHashMap.empty[ExprId, Alias]
      val rewritten = if (casts.isEmpty) measures.map(_._1)
      else measures.map { case (m, location) =>
        m.transformUp {
          case ExactMoments(Seq(a: Attribute), statistic, mode, false, _, _)
              if casts.contains(a.exprId) && IntegerMoments.Statistics(statistic) =>
            val integer = added.getOrElseUpdate(a.exprId, Alias(casts(a.exprId), s"${a.name}_integer")())
            IntegerMoments(integer.toAttribute, statistic, mode, location)
        }
      }
      if (added.isEmpty) (measures.map(_._1), input) else (rewritten, Project(list ++ added.values, child))
    case _ => (measures.map(_._1), input)
  }
}
