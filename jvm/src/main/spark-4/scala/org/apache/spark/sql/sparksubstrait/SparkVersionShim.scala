package org.apache.spark.sql.sparksubstrait

import org.apache.spark.SparkThrowable
import org.apache.spark.sql.{DataFrame, DataFrameReader, SparkSession}
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateFunction, ListAgg}
import org.apache.spark.sql.catalyst.plans.LeftSingle
import org.apache.spark.sql.catalyst.plans.logical.{Join, JoinHint, LogicalPlan, Window}
import org.apache.spark.sql.classic
import org.apache.spark.sql.internal.SessionState
import org.apache.spark.sql.types.DataType

/**
 * The Spark 4 side of [[SparkShim]]: the calls whose shape differs from Spark 3.5 (arithmetic
 * is in [[ArithmeticShim]]). Spark 4 splits the API (`sql.SparkSession`) from the classic
 * implementation that has a session state.
 */
private[sparksubstrait] trait SparkVersionShim extends ArithmeticShim {
  private def classicSession(session: SparkSession): classic.SparkSession = session match {
    case c: classic.SparkSession => c
    case other => throw new IllegalArgumentException(
        s"spark-substrait needs a classic (non-Connect) SparkSession here, got ${other.getClass.getName}")
  }

  /**
   * Writing: Spark 4's common-expression `With` (BETWEEN, NULLIF, … in analyzed plans) with
   * each reference replaced by the expression it names; None for anything else, or when a
   * named expression is not deterministic (evaluating it at each reference would differ).
   */
  def inlineCommonExpressions(e: Expression): Option[Expression] = e match {
    case w: With if w.defs.forall(_.child.deterministic) =>
      val byId = w.defs.map(d => d.id -> d.child).toMap
      Some(w.child.transformUp { case r: CommonExpressionRef if byId.contains(r.id) => byId(r.id) })
    case _ => None
  }

  /** Spark 4 encodes a user-defined type by its own class: nothing to register. */
  def registerUserType(userClass: String, udtClass: String): Unit = ()

  /**
   * Whether a correlated subquery's projection may hold an outer reference, which is how an
   * outer reference several queries out is carried in (convert/expr/NestedOuterReferences):
   * Spark 4 decorrelates an outer reference in a subquery's projection.
   */
  val outerReferencesInSubqueryProjections: Boolean = true

  def sessionState(session: SparkSession): SessionState = classicSession(session).sessionState

  def sessionOf(reader: DataFrameReader): SparkSession = reader match {
    case c: classic.DataFrameReader =>
      val f = classOf[classic.DataFrameReader].getDeclaredField("sparkSession")
      f.setAccessible(true)
      f.get(c).asInstanceOf[SparkSession]
    case _ => SparkSession.active
  }

  /** A DataFrame for an (unresolved or resolved) logical plan; analysis happens here. */
  /** A DataFrame of rows Spark's readers produced (internal rows of `schema`). */
  def internalCreateDataFrame(session: SparkSession,
    rows: org.apache.spark.rdd.RDD[org.apache.spark.sql.catalyst.InternalRow],
    schema: org.apache.spark.sql.types.StructType): DataFrame =
    classicSession(session).internalCreateDataFrame(rows, schema)

  def ofRows(session: SparkSession, plan: LogicalPlan): DataFrame =
    classic.Dataset.ofRows(classicSession(session), plan)

  def errorCondition(e: SparkThrowable): String = e.getCondition

  /** An expression of type `dataType` that fails the query with `message` when evaluated. */
  def raiseError(message: String, dataType: DataType): Expression =
    RaiseError(Literal("USER_RAISED_EXCEPTION"), CreateMap(Seq(Literal("errorMessage"), Literal(message))), dataType)

  def window(expressions: Seq[NamedExpression], partition: Seq[Expression], order: Seq[SortOrder],
    child: LogicalPlan): LogicalPlan =
    Window(expressions, partition, order, child, None)

  /** Spark's single join (at most one match per left row, else a runtime error): Spark 4 has one. */
  def singleJoin(preserved: LogicalPlan, single: LogicalPlan, condition: Option[Expression], hint: JoinHint)
    : Either[String, LogicalPlan] = scala.util.Right(Join(preserved, single, LeftSingle, condition, hint))

  /** string_agg's aggregate: Spark's listagg, the non-NULL values joined by the separator in the given order. */
  def stringAgg(value: Expression, separator: Expression, order: Seq[SortOrder]): AggregateFunction =
    ListAgg(value, separator, order, 0, 0)

  /** listagg's result is string_agg's. */
  def stringAggResult(aggregated: Expression, value: Expression, separator: Expression, order: Seq[SortOrder])
    : Expression = aggregated
}
