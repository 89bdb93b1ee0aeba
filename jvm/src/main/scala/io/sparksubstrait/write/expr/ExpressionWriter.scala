package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.optimizer.NormalizeNaNAndZero
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * Dispatch only: one Catalyst expression to its kind's writer. An expression that is a
 * column of the input record (an attribute, or above an aggregate a grouping expression or
 * aggregate call) is a field reference; anything without a writer is refused, named.
 */
private[sparksubstrait] object ExpressionWriter {
  def write(e: Expression, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val here = at / e
    input.indexOf(e) match {
      case Some(i) => FieldReferenceWriter.field(i)
      case None => e match {
          case a: Alias => write(a.child, input, at)
          case a: Attribute => FieldReferenceWriter.attribute(a, input, here)
          case OuterReference(a) => FieldReferenceWriter.outer(a, here)
          case l: Literal => LiteralWriter.write(l, here)
          case c: Cast => CastWriter.write(c, input, here)
          case c: CaseWhen => ConditionalWriter.caseWhen(c, input, here)
          case i: If => ConditionalWriter.ifExpr(i, input, here)
          case i: In => InListWriter.in(i, input, here)
          case i: InSet => InListWriter.inSet(i, input, here)
          case c: CreateNamedStruct => StructWriter.create(c, input, here)
          case g: GetStructField => StructWriter.field(g, input, here)
          case w: WindowExpression => WindowFunctionWriter.write(w, input, here)
          case s: ScalarSubquery => SubqueryWriter.scalar(s, input, here)
          case s: Exists => SubqueryWriter.exists(s, input, here)
          case s: InSubquery => SubqueryWriter.in(s, input, here)
          // A marker that its child is already normalized: no value of its own.
          case k: KnownFloatingPointNormalized => write(k.child, input, at)
          case n: NormalizeNaNAndZero => NormalizationWriter.write(n, input, here)
          case m: MakeDecimal => DecimalHelpers.makeDecimal(m, input, here)
          case u: UnscaledValue => DecimalHelpers.unscaledValue(u, input, here)
          case _ if FunctionWrites.row(e).isDefined => FunctionWriter.scalar(e, input, at)
          case _ if UserFunctionWriter.mappingOf(e).isDefined =>
            UserFunctionWriter.write(e, UserFunctionWriter.mappingOf(e).get, input, here)
          // Analyzed plans keep SQL's spellings (BETWEEN, nvl, …) that the optimizer replaces by
          // what they stand for: written as that.
          case r: RuntimeReplaceable => write(r.replacement, input, at)
          case _ if SparkShim.inlineCommonExpressions(e).isDefined =>
            write(SparkShim.inlineCommonExpressions(e).get, input, at)
          case other => throw SubstraitErrors.unwritable(here.toString, s"the expression ${other.sql}",
              s"${other.prettyName} (${other.getClass.getSimpleName}) has no Substrait form in this writer",
              "an expression docs/writing.md lists")
        }
    }
  }
}
