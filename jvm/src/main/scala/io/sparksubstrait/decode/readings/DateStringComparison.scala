package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._
import scala.util.Try

import io.sparksubstrait.proto.{Expression, FunctionArgument, Plan, Type}

/**
 * ibis-substrait writes `date_column >= "2020-01-01"` as a comparison of a date with a
 * string literal (`gte(date, string)`), which no standard comparison takes. ibis compares
 * them as dates (its engines cast the literal to the column's type), so a string literal
 * that is an ISO date, compared with an expression of type date, is read as that date.
 * `between(date, '1995-01-01', '1996-12-31')` (ibis-substrait 4.0.1 on TPC-H Q7, Q8) is read
 * the same way: its bounds as dates when the first argument is a date and every string bound
 * spells an ISO date. Any other string (or a column whose type cannot be told before
 * conversion) is left alone, and refused by the function table as before.
 */
private[sparksubstrait] object DateStringComparison extends ReadingOf(Releases.Ibis) {
  val name = "ibis-date-string-comparison"
  val meaning = "a date compared with a string literal (or between two); the literal read as the ISO date it spells"

  private val Comparisons = Set("equal", "not_equal", "lt", "lte", "gt", "gte")
  private val Between = "between"

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Comparisons)
    val betweens = DeclaredFunctions.anchorsNamed(plan, Set(Between))
    if (anchors.isEmpty && betweens.isEmpty) plan
    else InputTypes.rewrite(plan) {
      case (e, in, at)
          if e.hasScalarFunction && betweens(e.getScalarFunction.getFunctionReference) &&
            e.getScalarFunction.getArgumentsCount == 3 =>
        val f = e.getScalarFunction
        val args = f.getArgumentsList.asScala.toSeq.map(a => if (a.hasValue) Some(a.getValue) else None)
        val isDate = args.head.flatMap(InputTypes.typeOf(_, in)).exists(_.getKindCase == Type.KindCase.DATE)
        val strings = (1 to 2).filter(i => args(i).exists(a => a.hasLiteral && a.getLiteral.hasString))
        val days = strings.map(i => i -> args(i).flatMap(isoDate))
        // Every string bound an ISO date, or none read: a bound half read is no plainer than the plan.
        if (!isDate || strings.isEmpty || days.exists(_._2.isEmpty)) e
        else {
          val b = f.toBuilder
          for ((i, d) <- days; day <- d) {
            found(s"$at: '${args(i).get.getLiteral.getString}' read as a date")
            val literal = Expression.Literal.newBuilder().setDate(day).setNullable(args(i).get.getLiteral.getNullable)
            b.setArguments(i, FunctionArgument.newBuilder().setValue(Expression.newBuilder().setLiteral(literal)))
          }
          e.toBuilder.setScalarFunction(b).build()
        }
      case (e, in, at)
          if e.hasScalarFunction && anchors(e.getScalarFunction.getFunctionReference) &&
            e.getScalarFunction.getArgumentsCount == 2 =>
        val f = e.getScalarFunction
        val args = f.getArgumentsList.asScala.toSeq.map(a => if (a.hasValue) Some(a.getValue) else None)
        val isDate = args.map(_.flatMap(InputTypes.typeOf(_, in)).exists(_.getKindCase == Type.KindCase.DATE))
        val b = f.toBuilder
        for (i <- 0 to 1; day <- args(i).flatMap(isoDate) if isDate(1 - i)) {
          found(s"$at: '${args(i).get.getLiteral.getString}' read as a date")
          val literal = Expression.Literal.newBuilder().setDate(day).setNullable(args(i).get.getLiteral.getNullable)
          b.setArguments(i, FunctionArgument.newBuilder().setValue(Expression.newBuilder().setLiteral(literal)))
        }
        e.toBuilder.setScalarFunction(b).build()
    }
  }

  /** Days since 1970-01-01 of a string literal spelling an ISO date (yyyy-mm-dd). */
  private def isoDate(e: Expression): Option[Int] =
    if (!e.hasLiteral || !e.getLiteral.hasString) None
    else Try(java.time.LocalDate.parse(e.getLiteral.getString).toEpochDay.toInt).toOption
}
