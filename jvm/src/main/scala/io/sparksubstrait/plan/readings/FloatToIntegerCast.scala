package io.sparksubstrait.plan.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, FunctionArgument, FunctionOption, Plan, SimpleExtensionDeclaration, Type}

/**
 * ibis-substrait writes ibis' `cast("int64")` of a floating point value as a plain Cast;
 * ibis' engine (its default DuckDB backend, the one the matrix compares with) rounds to the
 * nearest integer, ties to even (1.5 and 2.5 both give 2), where Spark truncates. The cast
 * is read as a cast of `round(x, 0)` with rounding TIE_TO_EVEN, which the standard
 * `round` states exactly. Only where the input's type is known to be fp32 or fp64.
 */
object FloatToIntegerCast extends Reading {
  val name = "ibis-float-to-integer-cast"
  val releases = "ibis-substrait 2.29.1 to 4.0.1 (the releases that stamp producer \"ibis-substrait\")"
  val meaning = "a cast of a floating point value to an integer rounds it, ties to even, as ibis' engine does"

  private val Integers = Set(Type.KindCase.I8, Type.KindCase.I16, Type.KindCase.I32, Type.KindCase.I64)
  private val Floats = Set(Type.KindCase.FP32, Type.KindCase.FP64)

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("ibis-substrait", "0.0", ProducerStamp.Newest)

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchor = plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map(_.getExtensionFunction.getFunctionAnchor)
      .foldLeft(0)(math.max) + 1
    var used = Set.empty[Type.KindCase]
    val lifted = InputTypes.rewrite(plan) {
      case (e, in, at) if e.hasCast && Integers(e.getCast.getType.getKindCase) &&
          InputTypes.typeOf(e.getCast.getInput, in).exists(t => Floats(t.getKindCase)) =>
        val from = InputTypes.typeOf(e.getCast.getInput, in).get.getKindCase
        used += from
        found(s"$at: cast of ${from.name.toLowerCase} to ${e.getCast.getType.getKindCase.name.toLowerCase} rounds ties to even")
        val digits = Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setI32(0)).build()
        val round = Expression.ScalarFunction.newBuilder().setFunctionReference(anchor + (if (from == Type.KindCase.FP32) 1 else 0))
          .addArguments(FunctionArgument.newBuilder().setValue(e.getCast.getInput))
          .addArguments(FunctionArgument.newBuilder().setValue(digits))
          .addOptions(FunctionOption.newBuilder().setName("rounding").addPreference("TIE_TO_EVEN"))
        e.toBuilder.setCast(e.getCast.toBuilder.setInput(Expression.newBuilder().setScalarFunction(round))).build()
    }
    // The standard round, declared by name as ibis-substrait declares its functions.
    val b = lifted.toBuilder
    Seq(Type.KindCase.FP64 -> 0, Type.KindCase.FP32 -> 1).filter(p => used(p._1)).foreach { case (t, offset) =>
      b.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(SimpleExtensionDeclaration.ExtensionFunction
        .newBuilder().setFunctionAnchor(anchor + offset).setName(s"round:${t.name.toLowerCase}_i32")))
    }
    if (used.isEmpty) plan else b.build()
  }
}
