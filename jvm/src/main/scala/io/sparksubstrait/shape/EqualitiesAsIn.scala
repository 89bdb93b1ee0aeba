package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * A disjunction of equalities of one column, or one deterministic expression of columns, with
 * literals, `a = l1 OR a = l2 OR …`, as `a IN (l1, l2, …)`: what the query wrote before its
 * producer lowered the list (isthmus, DataFusion and ibis write a short `IN` list so). On an
 * expression the disjunction also computes it once per literal (TPC-H Q22's
 * `substring(c_phone, 1, 2) IN ('13', '31', …)`, seven substrings a row as isthmus writes it).
 * Spark SQL reads an `IN` list as `In`, which it pushes into Parquet as one filter and places
 * among the cheaper conjuncts ([[ConjunctOrder]] and Spark's own ordering); the disjunction it keeps as written (TPC-H Q19's
 * `l_shipmode IN ('AIR', 'AIR REG')` ran after the string comparison DataFusion lists first).
 *
 * The same rows: both are NULL for a NULL column, true when it equals a literal, and
 * otherwise NULL if a literal is NULL, else false; a deterministic expression has one value
 * however often it is computed. Only on types whose `=` and `IN` compare alike
 * ([[PlanShapes.exactEquality]]).
 */
private[sparksubstrait] object EqualitiesAsIn extends PlanShapes.Shape with PredicateHelper {
  val name = "equalities-as-in"
  val meaning =
    "a disjunction of equalities of one column (or deterministic expression) with literals as that column IN the literals, as the query wrote it"

  def appliesTo(stamp: ProducerStamp): Boolean = true

  def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan = plan.transformUpWithSubqueries {
    case p => p.transformExpressionsDown {
        case or: Or => asIn(or).getOrElse(or)
      }
  }

  private[shape] def asIn(or: Or): Option[Expression] = {
    val disjuncts = splitDisjunctivePredicates(or)
    // A column, or an expression of columns computed the same every time.
    def isOperand(e: Expression) = !e.isInstanceOf[Literal] && e.deterministic && e.references.nonEmpty &&
      !SubqueryExpression.hasSubquery(e)
    val equalities = disjuncts.collect {
      case EqualTo(a, l: Literal) if isOperand(a) => (a, l)
      case EqualTo(l: Literal, a) if isOperand(a) => (a, l)
    }
    equalities.headOption.map(_._1).filter { operand =>
      equalities.size == disjuncts.size && PlanShapes.exactEquality(operand.dataType) &&
      equalities.forall { case (a, l) => a.semanticEquals(operand) && l.dataType == operand.dataType }
    }.map(operand => In(operand, equalities.map(_._2)))
  }
}
