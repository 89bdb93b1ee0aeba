package io.sparksubstrait.decode.readings

import io.sparksubstrait.proto.{Expression, FunctionArgument, Plan, Type}
import io.sparksubstrait.proto.Expression.Literal.{IntervalDayToSecond, LiteralTypeCase}

/**
 * DuckDB adds an integer to a date as that many days (`d_date + 5`, TPC-DS q72) and writes it
 * as `add:date_i32` declared to return a date; the standard `add` takes a date and an
 * interval_day. A call of `add` (either argument) or `subtract` (the second) declared to
 * return a date, with an integer literal argument, is read with that literal as an
 * interval_day of as many days. An integer that is not a literal has no interval form in the
 * plan and stays as written (refused).
 */
private[sparksubstrait] object DatePlusDays extends ReadingOf(Releases.DuckDb) {
  val name = "duckdb-date-plus-integer"
  val meaning = "a date plus or minus an integer literal, meaning days; read as the date plus or minus an interval_day"

  def lift(plan: Plan, found: String => Unit): Plan = {
    val adds = DeclaredFunctions.anchorsNamed(plan, Set("add"))
    val subtracts = DeclaredFunctions.anchorsNamed(plan, Set("subtract"))
    if (adds.isEmpty && subtracts.isEmpty) plan
    else MessageRewrite.skippingLeaves(plan) {
      case f: Expression.ScalarFunction
          if f.getArgumentsCount == 2 && f.getOutputType.getKindCase == Type.KindCase.DATE &&
            (adds(f.getFunctionReference) && (days(f, 0).isDefined || days(f, 1).isDefined) ||
              subtracts(f.getFunctionReference) && days(f, 1).isDefined) =>
        val at = if (days(f, 1).isDefined) 1 else 0
        val n = days(f, at).get
        found(s"date ${if (adds(f.getFunctionReference)) "+" else "-"} $n as an interval_day of $n days")
        val interval = Expression.Literal.newBuilder().setNullable(f.getArguments(at).getValue.getLiteral.getNullable)
          .setIntervalDayToSecond(IntervalDayToSecond.newBuilder().setDays(n))
        val daysArg = FunctionArgument.newBuilder().setValue(Expression.newBuilder().setLiteral(interval)).build()
        // `5 + d_date`: the standard add takes the date first (the sum is the same).
        f.toBuilder.clearArguments().addArguments(f.getArguments(1 - at)).addArguments(daysArg).build()
    }
  }

  /** The argument's value when it is a non-null integer literal within an interval_day's days (an i32). */
  private def days(f: Expression.ScalarFunction, i: Int): Option[Int] = {
    val a = f.getArguments(i)
    if (!a.hasValue || !a.getValue.hasLiteral) return None
    val lit = a.getValue.getLiteral
    val value: Option[Long] = lit.getLiteralTypeCase match {
      case LiteralTypeCase.I8 => Some(lit.getI8.toLong)
      case LiteralTypeCase.I16 => Some(lit.getI16.toLong)
      case LiteralTypeCase.I32 => Some(lit.getI32.toLong)
      case LiteralTypeCase.I64 => Some(lit.getI64)
      case _ => None
    }
    value.filter(_.isValidInt).map(_.toInt)
  }
}
