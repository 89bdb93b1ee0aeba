package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{CaseWhen, EqualTo, Expression, IsNaN, Literal}
import org.apache.spark.sql.catalyst.optimizer.NormalizeNaNAndZero
import org.apache.spark.sql.types.{DoubleType, FloatType}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * The optimizer's float normalization before grouping and joining (NormalizeFloatingNumbers):
 * NormalizeNaNAndZero turns -0.0 into 0.0 and every NaN into the one NaN, which changes the
 * values a query returns, so it is written exactly: CASE WHEN x = 0 THEN 0.0 WHEN is_nan(x)
 * THEN NaN ELSE x END (-0.0 = 0.0 holds; NULL falls through to x). Of floats and doubles only:
 * Spark normalizes inside structs and arrays with lambdas, refused.
 */
private[sparksubstrait] object NormalizationWriter {
  def write(n: NormalizeNaNAndZero, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val x = n.child
    val (zero, nan): (Expression, Expression) = x.dataType match {
      case DoubleType => (Literal(0.0d), Literal(Double.NaN))
      case FloatType => (Literal(0.0f), Literal(Float.NaN))
      case other => throw SubstraitErrors.unwritable(at.toString, s"float normalization of a ${other.simpleString}",
          "Spark normalizes floats inside nested values element by element",
          "grouping and join keys of float or double type")
    }
    ExpressionWriter.write(CaseWhen(Seq(EqualTo(x, zero) -> zero, IsNaN(x) -> nan), x), input, at)
  }
}
