package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.{Expression, FilterRel}
import org.apache.spark.sql.catalyst.expressions.{Attribute, Cast, Expression => CExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.types.{BooleanType, NullType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/** FilterRel: keeps the rows whose condition is true (not false, not NULL), as SQL WHERE. */
private[sparksubstrait] object FilterConverter {
  def convert(rel: FilterRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    if (!rel.hasCondition) throw SubstraitErrors.missingField(at, "condition", "a boolean expression")
    val (Seq(kept), below) = WindowsBelow(Seq(condition(rel.getCondition, child.output, at / "condition")), child)
    WindowsBelow.keepingOutput(Filter(kept, below), child, below)
  }

  /** A boolean condition over `input`, shared with ReadRel's filters. */
  def condition(e: Expression, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    val c = ExpressionConverter.convert(e, input, at)
    if (!c.resolved) c
    else c.dataType match {
      case BooleanType => c
      case NullType => Cast(c, BooleanType)
      case other => throw SubstraitErrors.typeMismatch(at, SparkTypeNames.of(other), "bool")
    }
  }
}
