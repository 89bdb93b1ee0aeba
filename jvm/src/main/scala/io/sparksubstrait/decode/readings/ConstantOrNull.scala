package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, Plan, SimpleExtensionDeclaration}

/**
 * DuckDB's optimizer folds a comparison whose outcome is fixed but for NULLs into its internal
 * `constant_or_null(c, x1, …, xn)`: NULL when any x is NULL, else the constant c (TPC-DS q13,
 * q15, q48 write `constant_or_null(true, ss_net_profit, 100.00)` for a BETWEEN it proved true).
 * No standard function means it; it is read as what it computes, an if_then that gives a NULL
 * of the call's declared type when `is_null(xi)` holds for some i, else c. The `is_null`
 * declaration is added to the plan the way DuckDB declares its own functions (by name).
 */
private[sparksubstrait] object ConstantOrNull extends ReadingOf(Releases.DuckDb) {
  val name = "duckdb-constant-or-null"
  val meaning = "DuckDB's internal constant_or_null(c, x...): NULL when an x is NULL, else c; read as that if_then"

  def lift(plan: Plan, found: String => Unit): Plan = {
    val calls = DeclaredFunctions.anchorsNamed(plan, Set("constant_or_null"))
    if (calls.isEmpty) return plan
    val isNull = DeclaredFunctions.freeAnchor(plan)
    // The same extension reference as DuckDB's own declaration (none: DuckDB names functions only).
    val declared = plan.getExtensionsList.asScala.find(d =>
      d.hasExtensionFunction && calls(d.getExtensionFunction.getFunctionAnchor)).get.getExtensionFunction
    var used = false
    val lifted = MessageRewrite.skippingLeaves(plan) {
      case e: Expression
          if e.hasScalarFunction && calls(e.getScalarFunction.getFunctionReference) &&
            e.getScalarFunction.getArgumentsCount >= 2 && e.getScalarFunction.hasOutputType &&
            e.getScalarFunction.getArgumentsList.asScala.forall(_.hasValue) =>
        val f = e.getScalarFunction
        found(s"constant_or_null of ${f.getArgumentsCount - 1} values")
        used = true
        val ifThen = Expression.IfThen.newBuilder()
        f.getArgumentsList.asScala.tail.foreach { a =>
          val test = Expression.ScalarFunction.newBuilder().setFunctionReference(isNull).addArguments(a)
            .setOutputType(io.sparksubstrait.proto.Type.newBuilder().setBool(
                io.sparksubstrait.proto.Type.Boolean.newBuilder()
                  .setNullability(io.sparksubstrait.proto.Type.Nullability.NULLABILITY_REQUIRED)))
          ifThen.addIfs(Expression.IfThen.IfClause.newBuilder()
              .setIf(Expression.newBuilder().setScalarFunction(test))
              .setThen(Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setNull(f.getOutputType))))
        }
        ifThen.setElse(f.getArguments(0).getValue)
        Expression.newBuilder().setIfThen(ifThen).build()
    }
    if (!used) lifted
    else lifted.toBuilder.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
        declared.toBuilder.setFunctionAnchor(isNull).setName("is_null"))).build()
  }
}
