package org.apache.spark.sql.sparksubstrait

import org.apache.spark.SparkThrowable
import org.apache.spark.sql.{DataFrame, DataFrameReader, Dataset, SparkSession}
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction
import org.apache.spark.sql.catalyst.plans.logical.{JoinHint, LogicalPlan, Window}
import org.apache.spark.sql.internal.SessionState
import org.apache.spark.sql.types.DataType

/**
 * The Spark 3.5 side of [[SparkShim]] (arithmetic is in [[ArithmeticShim]]). In 3.5 the
 * session is one class, errors name their condition "error class", and there is no single join
 * (a grouped outer join with a check instead) and no listagg (collect_list sorted and joined).
 */
private[sparksubstrait] trait SparkVersionShim extends ArithmeticShim {

  /** Writing: Spark 3.5 has no common-expression `With`. */
  def inlineCommonExpressions(e: Expression): Option[Expression] = None

  /**
   * Whether a correlated subquery's projection may hold an outer reference, which is how an
   * outer reference several queries out is carried in (convert/expr/NestedOuterReferences):
   * Spark 3.5 refuses an outer reference outside a subquery's WHERE / HAVING (`CORRELATED_REFERENCE`).
   */
  val outerReferencesInSubqueryProjections: Boolean = false

  def sessionState(session: SparkSession): SessionState = session.sessionState

  /**
   * Spark 3.5 builds a row encoder for a user-defined type only when its user class is
   * annotated or registered; registers `userClass` (once) with `udtClass`. Spark 4 needs none.
   */
  def registerUserType(userClass: String, udtClass: String): Unit = synchronized {
    if (!org.apache.spark.sql.types.UDTRegistration.exists(userClass)) {
      org.apache.spark.sql.types.UDTRegistration.register(userClass, udtClass)
    }
  }

  def sessionOf(reader: DataFrameReader): SparkSession = {
    val f = classOf[DataFrameReader].getDeclaredField("sparkSession")
    f.setAccessible(true)
    f.get(reader).asInstanceOf[SparkSession]
  }

  /** A DataFrame of rows Spark's readers produced (internal rows of `schema`). */
  def internalCreateDataFrame(session: SparkSession,
    rows: org.apache.spark.rdd.RDD[org.apache.spark.sql.catalyst.InternalRow],
    schema: org.apache.spark.sql.types.StructType): DataFrame = session.internalCreateDataFrame(rows, schema)

  /** A DataFrame for an (unresolved or resolved) logical plan; analysis happens here. */
  def ofRows(session: SparkSession, plan: LogicalPlan): DataFrame = Dataset.ofRows(session, plan)

  def errorCondition(e: SparkThrowable): String = e.getErrorClass

  /** An expression of type `dataType` that fails the query with `message` when evaluated. */
  def raiseError(message: String, dataType: DataType): Expression = RaiseError(Literal(message), dataType)

  def window(expressions: Seq[NamedExpression], partition: Seq[Expression], order: Seq[SortOrder],
    child: LogicalPlan): LogicalPlan =
    Window(expressions, partition, order, child)

  /**
   * A single join: Spark 3.5 has none, so a grouped left outer join with a check
   * ([[SingleJoinRewrite]]); Left(what it can express) for a condition it cannot.
   */
  def singleJoin(preserved: LogicalPlan, single: LogicalPlan, condition: Option[Expression], hint: JoinHint)
    : Either[String, LogicalPlan] = SingleJoinRewrite.plan(preserved, single, condition, hint)

  /** string_agg's aggregate: Spark 3.5 has no listagg, so collect_list ([[OrderedStringAgg]]). */
  def stringAgg(value: Expression, separator: Expression, order: Seq[SortOrder]): AggregateFunction =
    OrderedStringAgg.function(value, order)

  /** string_agg's string from its aggregate's result (`aggregated`): the collected values sorted and joined. */
  def stringAggResult(aggregated: Expression, value: Expression, separator: Expression, order: Seq[SortOrder])
    : Expression = OrderedStringAgg.result(aggregated, value, separator, order)
}
