package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, FunctionArgument, Plan}

import io.sparksubstrait.errors.SubstraitErrors

/**
 * ibis-substrait passes ibis' `Substring(arg, start, length)` through unchanged, and ibis
 * counts `start` from 0 (its engines add 1 when they compile it); the spec's `substring`
 * counts from 1. A constant start n >= 0 is therefore read as n + 1. Anything else is
 * refused rather than guessed: a start computed at run time would need ibis' own rule for
 * negative starts, which no plan states.
 */
private[sparksubstrait] object ZeroBasedSubstring extends ReadingOf(Releases.Ibis) {
  val name = "ibis-zero-based-substring"
  val meaning = "substring's start written 0-based (ibis' position); a constant start n read as n + 1"

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Set("substring"))
    if (anchors.isEmpty) plan
    else MessageRewrite.located(plan) {
      case (f: Expression.ScalarFunction, at) if anchors(f.getFunctionReference) && f.getArgumentsCount >= 2 =>
        val startAt = at.at("arguments", 1) / "value"
        val start = f.getArguments(1)
        val shifted = plusOne(start.getValue).getOrElse(throw SubstraitErrors.unsupported(startAt,
            "a substring start that is not a non-negative integer constant, written 0-based by ibis-substrait",
            "a constant start n >= 0 (read as the 1-based position n + 1)"))
        found(s"$startAt: substring start ${describe(start.getValue)} read as ${describe(shifted)}")
        f.toBuilder.setArguments(1, FunctionArgument.newBuilder(start).setValue(shifted)).build()
    }
  }

  /** The constant one further on, in the same shape (a literal, or a cast of one), if it is one. */
  private def plusOne(e: Expression): Option[Expression] = e.getRexTypeCase match {
    case Expression.RexTypeCase.LITERAL => plusOne(e.getLiteral).map(l => e.toBuilder.setLiteral(l).build())
    case Expression.RexTypeCase.CAST =>
      plusOne(e.getCast.getInput).map(i => e.toBuilder.setCast(e.getCast.toBuilder.setInput(i)).build())
    case _ => None
  }

  private def plusOne(l: Expression.Literal): Option[Expression.Literal] = {
    import Expression.Literal.LiteralTypeCase._
    val b = l.toBuilder
    // A NULL start stays NULL: the result is NULL whichever base it is counted from.
    l.getLiteralTypeCase match {
      case NULL => Some(l)
      case I8 if l.getI8 >= 0 =>
        Some(if (l.getI8 < Byte.MaxValue) b.setI8(l.getI8 + 1).build() else b.setI16(l.getI8 + 1).build())
      case I16 if l.getI16 >= 0 =>
        Some(if (l.getI16 < Short.MaxValue) b.setI16(l.getI16 + 1).build() else b.setI32(l.getI16 + 1).build())
      case I32 if l.getI32 >= 0 =>
        Some(if (l.getI32 < Int.MaxValue) b.setI32(l.getI32 + 1).build() else b.setI64(l.getI32 + 1L).build())
      case I64 if l.getI64 >= 0 && l.getI64 < Long.MaxValue => Some(b.setI64(l.getI64 + 1).build())
      case _ => None
    }
  }

  private def describe(e: Expression): String =
    if (e.hasCast) s"cast(${describe(e.getCast.getInput)})"
    else e.getLiteral.getAllFields.asScala.collectFirst {
      case (fd, v) if fd.getName != "nullable" => v.toString
    }.getOrElse("?")
}
