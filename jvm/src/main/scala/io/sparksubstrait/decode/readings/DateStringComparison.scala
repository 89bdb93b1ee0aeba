package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._
import scala.util.Try

import io.sparksubstrait.proto.{Expression, FunctionArgument, Plan, Type}

/**
 * ibis-substrait writes `date_column >= "2020-01-01"` as a comparison of a date with a
 * string literal (`gte(date, string)`), which no standard comparison takes. ibis compares
 * them as dates (its engines cast the literal to the column's type), so a string literal
 * that is an ISO date, compared with an expression of type date, is read as that date.
 * Any other string (or a column whose type cannot be told before conversion) is left alone,
 * and refused by the function table as before.
 */
private[sparksubstrait] object DateStringComparison extends ReadingOf(Releases.Ibis) {
  val name = "ibis-date-string-comparison"
  val meaning = "a date compared with a string literal; the literal read as the ISO date it spells"

  private val Comparisons = Set("equal", "not_equal", "lt", "lte", "gt", "gte")

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Comparisons)
    if (anchors.isEmpty) plan
    else InputTypes.rewrite(plan) {
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
