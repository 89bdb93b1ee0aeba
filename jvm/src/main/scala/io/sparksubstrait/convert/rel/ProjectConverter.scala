package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.ProjectRel
import org.apache.spark.sql.catalyst.expressions.{Alias, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/** ProjectRel: the input's columns followed by one column per expression. */
private[sparksubstrait] object ProjectConverter {
  def convert(rel: ProjectRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    if (rel.getExpressionsCount == 0) {
      throw SubstraitErrors.invalidPlan(at / "expressions", "a ProjectRel with no expressions",
        "at least one expression (spec: logical relations, Project: 'At least one expression required')")
    }
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val input = child.output.toIndexedSeq // indexed by field references: constant time per reference
    val expressions: Seq[NamedExpression] = rel.getExpressionsList.asScala.zipWithIndex.map { case (e, i) =>
      Alias(ExpressionConverter.convert(e, input, at.at("expressions", i)), s"expr$i")()
    }.toSeq
    Project(input ++ expressions, child)
  }
}
