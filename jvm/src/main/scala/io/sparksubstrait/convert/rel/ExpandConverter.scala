package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.ExpandRel
import org.apache.spark.sql.catalyst.expressions.{AttributeReference, Cast, Literal, Expression => CExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Expand, LogicalPlan}
import org.apache.spark.sql.types.{IntegerType, NullType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.expr.ExpressionConverter
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.NumericCoercion
import io.sparksubstrait.foundation.PlanPath

/**
 * ExpandRel: each input row becomes n rows, n being the number of duplicates of the
 * switching fields; row i takes each switching field's i-th expression (NULL where a field
 * has fewer) and every consistent field's one expression. Input fields beyond the given
 * definitions pass through unchanged. Catalyst's Expand is exactly this.
 *
 * The output is the expand fields followed by a non-nullable i32 column holding the index
 * (from 0) of the duplicate each row came from: the spec page's "direct output order". The
 * proto's comment calls that column int64; the spec page, which defines the output order of
 * every relation, says i32, and so do we (docs/supported.md). A plan without switching
 * fields has one duplicate, index 0.
 */
private[sparksubstrait] object ExpandConverter {
  def convert(rel: ExpandRel, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan = {
    val child = RelConverter.input(rel.hasInput, rel.getInput, at)
    val input = child.output.toIndexedSeq // indexed by field references: constant time per reference
    val definitions: Seq[Either[CExpression, Seq[CExpression]]] =
      rel.getFieldsList.asScala.toSeq.zipWithIndex.map { case (f, i) =>
        val fAt = at.at("fields", i)
        f.getFieldTypeCase match {
          case ExpandRel.ExpandField.FieldTypeCase.CONSISTENT_FIELD =>
            Left(ExpressionConverter.convert(f.getConsistentField, input, fAt / "consistent_field"))
          case ExpandRel.ExpandField.FieldTypeCase.SWITCHING_FIELD =>
            val duplicates = f.getSwitchingField.getDuplicatesList.asScala.toSeq.zipWithIndex.map { case (d, k) =>
              ExpressionConverter.convert(d, input, (fAt / "switching_field").at("duplicates", k))
            }
            if (duplicates.isEmpty)
              throw SubstraitErrors.invalidPlan(fAt / "switching_field", "no duplicates", "one or more expressions")
            Right(duplicates)
          case _ => throw SubstraitErrors.missingField(fAt, "field_type", "a switching or consistent field")
        }
      } ++ input.drop(rel.getFieldsCount).map(a => Left(a))
    val rows = (definitions.collect { case Right(d) => d.size } :+ 1).max
    // Each column: its expression in every output row, brought to one type.
    val columns: Seq[Seq[CExpression]] = definitions.zipWithIndex.map {
      case (Left(e), _) => Seq.fill(rows)(e)
      case (Right(d), i) =>
        val padded = d ++ Seq.fill(rows - d.size)(Literal(null, NullType))
        oneType(padded, at.at("fields", i) / "switching_field")
    }
    val output = columns.zipWithIndex.map { case (exprs, i) =>
      val typed = exprs.find(_.dataType != NullType).getOrElse(exprs.head)
      AttributeReference(s"expand$i", typed.dataType, exprs.exists(_.nullable))()
    }
    val ordinal = AttributeReference("duplicate_index", IntegerType, nullable = false)()
    val projections = Seq.tabulate(rows)(i => columns.map(_(i)) :+ Literal(i, IntegerType))
    Expand(projections, output :+ ordinal, child)
  }

  private def oneType(exprs: Seq[CExpression], at: PlanPath): Seq[CExpression] = {
    val types = exprs.map(_.dataType).filter(_ != NullType).distinct
    types match {
      case Seq() => exprs
      case Seq(t) => exprs.map(e => if (e.dataType == NullType) Cast(e, t) else e)
      case _ => NumericCoercion.unify(exprs).getOrElse(throw SubstraitErrors.typeMismatch(at,
            types.map(SparkTypeNames.of).mkString(", "), "duplicates of one type"))
    }
  }
}
