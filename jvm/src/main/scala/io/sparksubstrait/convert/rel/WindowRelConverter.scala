package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.ConsistentPartitionWindowRel
import org.apache.spark.sql.catalyst.expressions.{Alias, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.{ExpressionConverter, WindowFunctionConverter}
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * ConsistentPartitionWindowRel: window functions sharing one partitioning and order; the
 * output is the input fields followed by one field per function. One Catalyst Window.
 */
private[sparksubstrait] object WindowRelConverter {
  def convert(rel: ConsistentPartitionWindowRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val input = child.output.toIndexedSeq // indexed by field references: constant time per reference
    val partitions = rel.getPartitionExpressionsList.asScala.toSeq.zipWithIndex.map { case (p, i) =>
      ExpressionConverter.convert(p, input, at.at("partition_expressions", i))
    }
    val order = rel.getSortsList.asScala.toSeq.zipWithIndex.map { case (s, i) =>
      SortConverter.order(s, input, at.at("sorts", i))
    }
    if (rel.getWindowFunctionsCount == 0) {
      throw SubstraitErrors.invalidPlan(at / "window_functions", "no window function", "one or more window functions")
    }
    val functions: Seq[NamedExpression] = rel.getWindowFunctionsList.asScala.toSeq.zipWithIndex.map { case (f, i) =>
      Alias(WindowFunctionConverter.fromRel(f, partitions, order, input, at.at("window_functions", i)), s"window$i")()
    }
    SparkShim.window(functions, partitions, order, child)
  }
}
