package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression
import org.apache.spark.sql.types.DataType

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{
  AggregateFunction => SAggregateFunction, AggregationPhase, FunctionArgument, FunctionOption
}
import io.sparksubstrait.proto.{Expression => SExpression}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.FunctionWrites.{Call, Enum, Nested, Value}
import io.sparksubstrait.write.types.TypeWriter

/**
 * Scalar and aggregate function calls, through the one reverse table [[FunctionWrites]]:
 * arguments, options, and the declared output type (Spark's, which the reader keeps; for
 * decimals it is the contract, as Substrait producers' decimal rules differ).
 */
private[sparksubstrait] object FunctionWriter {
  def scalar(e: Expression, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val row = FunctionWrites.row(e).filter(_.kind == FunctionWrites.Scalar).getOrElse(throw noForm(e, at,
        "it has no entry in the function table", "a function docs/writing.md lists"))
    val call = forTarget(row.write(e).getOrElse(throw noForm(e, at,
          s"Spark's ${row.name} semantics here have no exact Substrait form", row.why)))
    if (!ctx.target.readsRounding && truncates(call)) {
      throw noForm(e, at,
        s"its exact form rounds with TRUNCATE, an option the ${ctx.target.name} target's consumer ignores",
        "a plan for another target (the default reads it)")
    }
    written(call, e.dataType, e.nullable, input, at)
  }

  /**
   * `call` as a scalar function of type `as`: its own `result` type when it declares one, cast
   * back to `as` (every value fits), or NULL-as-false for a predicate.
   */
  private def written(call: Call, as: DataType, nullable: Boolean, input: InputRecord, at: CatalystPath)(
    implicit ctx: WriteContext): SExpression = {
    val out = call.result.getOrElse(as)
    val b = SExpression.ScalarFunction.newBuilder()
      .setFunctionReference(ctx.functionAnchor(call.extension, compoundName(call)))
      .setOutputType(TypeWriter.write(out, nullable, at))
    arguments(call, input, at).foreach(b.addArguments)
    options(call).foreach(b.addOptions)
    val fn = SExpression.newBuilder().setScalarFunction(b).build()
    if (call.nullIsFalse) nullAsFalse(fn, at)
    else if (out == as) fn else castBack(fn, as, nullable, at)
  }

  /** coalesce(predicate, false): a predicate Spark never makes NULL. */
  private def nullAsFalse(predicate: SExpression, at: CatalystPath)(implicit ctx: WriteContext): SExpression = {
    val b = SExpression.ScalarFunction.newBuilder()
      .setFunctionReference(ctx.functionAnchor("functions_comparison", "coalesce:bool_bool"))
      .setOutputType(TypeWriter.write(org.apache.spark.sql.types.BooleanType, nullable = false, at))
      .addArguments(FunctionArgument.newBuilder().setValue(predicate))
      .addArguments(FunctionArgument.newBuilder().setValue(
          LiteralWriter.write(org.apache.spark.sql.catalyst.expressions.Literal.FalseLiteral, at)))
    SExpression.newBuilder().setScalarFunction(b).build()
  }

  /** An aggregate call (a measure): DISTINCT and the phase; the filter is the measure's. */
  def aggregate(a: AggregateExpression, input: InputRecord, at: CatalystPath)(
    implicit ctx: WriteContext): SAggregateFunction = {
    val fn = a.aggregateFunction
    val row = FunctionWrites.aggregateRow(fn).getOrElse(throw noForm(fn, at, "it has no entry in the function table",
        "an aggregate function docs/writing.md lists"))
    val call = row.write(fn).getOrElse(throw noForm(fn, at,
        s"Spark's ${row.name} semantics here have no exact Substrait form", row.why))
    val b = SAggregateFunction.newBuilder()
      .setFunctionReference(ctx.functionAnchor(call.extension, compoundName(call)))
      .setOutputType(TypeWriter.write(fn.dataType, fn.nullable, at))
      .setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
      .setInvocation(if (a.isDistinct) SAggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_DISTINCT
        else SAggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL)
    arguments(call, input, at).foreach(b.addArguments)
    options(call).foreach(b.addOptions)
    b.build()
  }

  /** A window-only function (ranking, offsets) as the call parts a WindowFunction takes. */
  def window(f: Expression, input: InputRecord, at: CatalystPath)(implicit ctx: WriteContext): SAggregateFunction = {
    val row = FunctionWrites.windowRow(f).getOrElse(throw noForm(f, at, "it has no entry in the function table",
        "a window function docs/writing.md lists"))
    val call = row.write(f).getOrElse(throw noForm(f, at,
        s"Spark's ${row.name} semantics here have no exact Substrait form", row.why))
    val b = SAggregateFunction.newBuilder().setFunctionReference(ctx.functionAnchor(call.extension, compoundName(call)))
    arguments(call, input, at).foreach(b.addArguments)
    options(call).foreach(b.addOptions)
    b.build()
  }

  /** Whether the call, or one nested in it, rounds with TRUNCATE. */
  private def truncates(call: Call): Boolean =
    call.options.contains("rounding" -> "TRUNCATE") || call.args.exists {
      case Nested(inner, _, _) => truncates(inner)
      case _ => false
    }

  /** A target's own spelling of a call (DataFusion's date_part for extract). */
  private def forTarget(call: Call)(implicit ctx: WriteContext): Call =
    if (ctx.target.dateParts && call.name == "extract") {
      call.copy(extension = "", name = "date_part",
        args = call.args.map {
          case Enum(part) => Value(org.apache.spark.sql.catalyst.expressions.Literal(part))
          case other => other
        })
    } else call

  /** `name:arg1_arg2`, the compound name the YAMLs give (enumerations are `req`). */
  private def compoundName(call: Call): String =
    if (call.args.isEmpty) call.name
    else call.name + ":" + call.args.map {
      case Value(e) => TypeWriter.signature(e.dataType)
      case Nested(_, as, _) => TypeWriter.signature(as)
      case Enum(_) => "req"
    }.mkString("_")

  private def arguments(call: Call, input: InputRecord, at: CatalystPath)(
    implicit ctx: WriteContext): Seq[FunctionArgument] =
    call.args.zipWithIndex.map {
      case (Value(e), i) =>
        FunctionArgument.newBuilder().setValue(ExpressionWriter.write(e, input, at / s"argument $i")).build()
      case (Nested(c, as, nullable), i) =>
        FunctionArgument.newBuilder().setValue(written(c, as, nullable, input, at / s"argument $i")).build()
      case (Enum(v), _) => FunctionArgument.newBuilder().setEnum(v).build()
    }

  private def options(call: Call): Seq[FunctionOption] =
    call.options.map { case (k, v) => FunctionOption.newBuilder().setName(k).addPreference(v).build() }

  /** The Substrait result in Spark's type (an i64 date part back to int): every value fits. */
  private def castBack(written: SExpression, as: DataType, nullable: Boolean, at: CatalystPath): SExpression =
    SExpression.newBuilder().setCast(SExpression.Cast.newBuilder().setInput(written)
        .setType(TypeWriter.write(as, nullable, at))
        .setFailureBehavior(SExpression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION)).build()

  private def noForm(e: Expression, at: CatalystPath, reason: String, expected: String) =
    SubstraitErrors.unwritable((at / e).toString, s"${e.prettyName} (${e.getClass.getSimpleName})", reason,
      if (expected.isEmpty) "a function docs/writing.md lists" else expected)
}
