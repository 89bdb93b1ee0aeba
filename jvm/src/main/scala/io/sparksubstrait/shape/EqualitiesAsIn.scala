package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.decode.readings.ProducerStamp
import io.sparksubstrait.util.Options

/**
 * Equalities of one column, or one deterministic expression of columns, with literals among a
 * disjunction's terms, `a = l1 OR b > 0 OR a = l2 OR …`, as `a IN (l1, l2) OR b > 0 OR …`: what
 * the query wrote before its producer lowered the list (isthmus, DataFusion and ibis write a
 * short `IN` list so, and isthmus lowers TPC-DS Q15's `substr(ca_zip, 1, 5) IN (…) OR ca_state
 * IN (…) OR cs_sales_price > 500` into one disjunction of twelve equalities and a comparison).
 * On an expression the disjunction also computes it once per literal (TPC-H Q22's
 * `substring(c_phone, 1, 2) IN ('13', '31', …)`, seven substrings a row as isthmus writes it).
 * Spark SQL reads an `IN` list as `In`, which it pushes into Parquet as one filter and places
 * among the cheaper conjuncts ([[ConjunctOrder]] and Spark's own ordering); the disjunction it
 * keeps as written (TPC-H Q19's `l_shipmode IN ('AIR', 'AIR REG')` ran after the string
 * comparison DataFusion lists first).
 *
 * The same rows: `OR` is commutative and associative in SQL's three-valued logic, so equalities
 * of one operand may be gathered at the first one's place; and `a IN (l1, l2)` is `a = l1 OR
 * a = l2`: NULL for a NULL operand, true when it equals a literal, otherwise NULL if a literal
 * is NULL, else false; a deterministic expression has one value however often it is computed.
 * Only on types whose `=` and `IN` compare alike ([[PlanShapes.exactEquality]]); an operand
 * with a single equality keeps it as written.
 *
 * Each disjunction is flattened once at its top `OR`, so a long one costs time linear in its
 * length (a hostile plan's chain of ten thousand terms included).
 */
private[sparksubstrait] object EqualitiesAsIn extends PlanShapes.Shape with PredicateHelper {
  val name = "equalities-as-in"
  val meaning =
    "equalities of one column (or deterministic expression) with literals among a disjunction's terms as that column IN the literals, as the query wrote it"

  def appliesTo(stamp: ProducerStamp): Boolean = true

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = plan.transformUpWithSubqueries {
    case p => p.mapExpressions(rewrite)
  }

  /** `e` with every disjunction in it rewritten; `e` itself when nothing changes. */
  private def rewrite(e: Expression): Expression = e match {
    case or: Or =>
      val terms = splitDisjunctivePredicates(or)
      val rewritten = terms.map(rewrite)
      gathered(rewritten).getOrElse {
        if (rewritten.zip(terms).forall { case (a, b) => a eq b }) or else withTerms(or, rewritten.iterator)
      }
    case other => other.mapChildren(rewrite)
  }

  /** The disjunction `terms`, with its equalities on one operand gathered as one `IN`, if any operand has two. */
  private[shape] def gathered(terms: Seq[Expression]): Option[Expression] = {
    // Each term's equality once, keyed by its operand's canonical form.
    val equalities = terms.map(equality(_).map { case (operand, literal) => (operand.canonicalized, operand, literal) })
    val groups = equalities.flatten.groupBy(_._1).filter(_._2.size > 1)
    Options.when(groups.nonEmpty) {
      val placed = scala.collection.mutable.Set.empty[Expression]
      terms.zip(equalities).flatMap {
        case (_, Some((key, operand, _))) if groups.contains(key) =>
          if (placed.add(key)) Some(In(operand, groups(key).map(_._3))) else None
        case (term, _) => Some(term)
      }.reduceLeft(Or(_, _))
    }
  }

  /** `term` as (operand, literal) when it is an equality this shape may gather. */
  private def equality(term: Expression): Option[(Expression, Literal)] = {
    // A column, or an expression of columns computed the same every time.
    def isOperand(e: Expression) = !e.isInstanceOf[Literal] && e.deterministic && e.references.nonEmpty &&
      !SubqueryExpression.hasSubquery(e) && PlanShapes.exactEquality(e.dataType)
    term match {
      case EqualTo(a, l: Literal) if isOperand(a) && l.dataType == a.dataType => Some((a, l))
      case EqualTo(l: Literal, a) if isOperand(a) && l.dataType == a.dataType => Some((a, l))
      case _ => None
    }
  }

  /** The `OR` tree of `or` with its terms, left to right, replaced from `terms`. */
  private def withTerms(or: Expression, terms: Iterator[Expression]): Expression = or match {
    case Or(l, r) =>
      val left = withTerms(l, terms)
      Or(left, withTerms(r, terms))
    case _ => terms.next()
  }
}
