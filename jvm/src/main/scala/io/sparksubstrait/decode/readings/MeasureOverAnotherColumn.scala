package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Plan, Rel, Type}

/**
 * A known ibis-substrait bug: a select list under a filter is not written, yet the
 * relations above number their references by its columns. TPC-H Q9 (ibis' own expression)
 * groups by the select's (nation, o_year) and sums its `amount` (columns 2, 1, 0), which the
 * plan applies to the join below: group by l_suppkey, l_partkey, `sum:dec(l_orderkey)`.
 * ibis-substrait declares each aggregate by the type ibis gave its argument, so such a measure
 * is declared for one type (`dec`) over a column the plan types otherwise (i64): that
 * disagreement is recognised, and the plan runs as written, with a warning. Which columns
 * were meant is not in the plan. Where the column's type is one the function cannot take
 * (Q7's `sum` over a string) the conversion refuses it as before.
 */
private[sparksubstrait] object MeasureOverAnotherColumn extends FoundBug(Releases.Ibis) {
  val name = "ibis-measure-over-another-column"
  val meaning = "an aggregate declared for one argument type over a column of another (its references numbered by a " +
    "select list the plan does not write); run as written"

  // The signature tokens ibis-substrait writes for argument types, by the kind each names.
  private val kinds: Map[String, Type.KindCase] = Map("i8" -> Type.KindCase.I8, "i16" -> Type.KindCase.I16,
    "i32" -> Type.KindCase.I32, "i64" -> Type.KindCase.I64, "fp32" -> Type.KindCase.FP32, "fp64" -> Type.KindCase.FP64,
    "dec" -> Type.KindCase.DECIMAL, "str" -> Type.KindCase.STRING, "date" -> Type.KindCase.DATE,
    "bool" -> Type.KindCase.BOOL)

  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] = {
    val signatures = plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map(_.getExtensionFunction)
      .map(f => f.getFunctionAnchor -> f.getName).toMap
    Some {
      case (rel: Rel, at) if rel.hasAggregate =>
        val agg = rel.getAggregate
        DeclaredTypes.of(agg.getInput).foreach { input =>
          agg.getMeasuresList.asScala.zipWithIndex.foreach { case (m, i) =>
            val declared = signatures.getOrElse(m.getMeasure.getFunctionReference, "")
            val tokens = declared.dropWhile(_ != ':').drop(1).split('_').toSeq.filter(_.nonEmpty)
            val args = m.getMeasure.getArgumentsList.asScala.toSeq
            if (tokens.size == args.size) tokens.zip(args).foreach { case (token, arg) =>
              (kinds.get(token), if (arg.hasValue) DeclaredTypes.of(arg.getValue, input) else None) match {
                case (Some(expected), Some(t)) if t.getKindCase != expected =>
                  found(
                    s"${at / "aggregate" at ("measures", i)}.measure: $declared over ${t.getKindCase.name.toLowerCase}")
                case _ =>
              }
            }
          }
        }
    }
  }
}
