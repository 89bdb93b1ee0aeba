package io.sparksubstrait.decode.readings

import io.sparksubstrait.proto.{Expression, Plan, Type}

/**
 * DuckDB writes SQL's untyped NULL as a null literal whose type has no kind (DuckDB's own
 * type "NULL" has no Substrait name); its NULLIF and CASE write it as the input of a cast to
 * the branch's type. A cast of NULL to T is NULL of T whatever the NULL's type, so the
 * literal is read as NULL of T. A typeless NULL anywhere else (`SELECT NULL`, a folded
 * `x + NULL`) is TypelessNullByContext's where the plan fixes its type elsewhere (a set's
 * other branches, a list's other elements, a comparison's other argument), else the plan's error.
 */
private[sparksubstrait] object TypelessNullInCast extends ReadingOf(Releases.DuckDb) {
  val name = "duckdb-typeless-null-in-cast"
  val meaning = "a null literal without a type as a cast's input; read as NULL of the cast's type"
  override val needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set(Expression.Cast.getDescriptor)

  def lift(plan: Plan, found: String => Unit): Plan = MessageRewrite.skippingLeaves(plan) {
    case c: Expression.Cast
        if DeclaredTypes.isTypelessNull(c.getInput) &&
          c.getType.getKindCase != Type.KindCase.KIND_NOT_SET =>
      found(s"NULL cast to ${c.getType.getKindCase.name.toLowerCase}")
      val typed = c.getInput.getLiteral.toBuilder.setNull(c.getType)
      c.toBuilder.setInput(Expression.newBuilder().setLiteral(typed)).build()
  }
}
