package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Expression, Plan}

/**
 * A known DuckDB bug: duckdb-extension-substrait writes `x NOT LIKE 'pattern'` as
 * `not_equal(x, 'pattern')` (measured on 1.0.3 and 1.1.3; a pattern DuckDB's optimizer turns
 * into `contains` or `prefix` is written correctly, under `not`). The plan is then the same as
 * `x <> 'pattern'`, which compares with the pattern's text: TPC-H Q13's `o_comment NOT LIKE
 * '%special%requests%'` counts other orders. Nothing in the plan tells the two apart, so it runs
 * as written, with a warning at a `not_equal` with a string literal holding `%` (a LIKE
 * wildcard that a value compared with `<>` rarely holds; `_`, common in plain values such as
 * 'IN_PROGRESS', is not taken as a sign).
 */
private[sparksubstrait] object NotLikeAsNotEqual extends FoundBug(Releases.DuckDb) {
  val name = "duckdb-not-like-as-not-equal"
  val meaning = "x NOT LIKE 'pattern' written as not_equal(x, 'pattern'), which compares with the pattern's text; " +
    "a not_equal with a string literal holding % is run as written"

  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] =
    callsOf(plan, Set("not_equal")) { (f, at) =>
      f.getArgumentsList.asScala.flatMap(a =>
        if (a.hasValue && a.getValue.hasLiteral) wildcardText(a.getValue.getLiteral) else None)
        .headOption.foreach(text => found(s"$at: not_equal with '$text' (NOT LIKE '$text' in DuckDB's SQL?)"))
    }

  /** A string literal's text when it holds a `%`. */
  private def wildcardText(l: Expression.Literal): Option[String] = {
    val text = l.getLiteralTypeCase match {
      case Expression.Literal.LiteralTypeCase.STRING => Some(l.getString)
      case Expression.Literal.LiteralTypeCase.VAR_CHAR => Some(l.getVarChar.getValue)
      case Expression.Literal.LiteralTypeCase.FIXED_CHAR => Some(l.getFixedChar)
      case _ => None
    }
    text.filter(_.contains('%'))
  }
}
