package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.{DataFrame, DataFrameReader, SparkSession}
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateFunction, Average, Sum}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, SubqueryAlias, View}
import org.apache.spark.sql.execution.datasources.LogicalRelation
import org.apache.spark.sql.classic
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.DataType

/**
 * Every call whose shape differs between Spark versions, in one place, so that builds for
 * other Spark versions replace only this file. It lives in Spark's package to reach
 * `private[sql]` members (the way Delta Lake and others do).
 */
object SparkShim {
  def classicSession(session: SparkSession): classic.SparkSession = session match {
    case c: classic.SparkSession => c
    case other => throw new IllegalArgumentException(
      s"spark-substrait needs a classic (non-Connect) SparkSession here, got ${other.getClass.getName}")
  }

  def sessionOf(reader: DataFrameReader): SparkSession = reader match {
    case c: classic.DataFrameReader =>
      val f = classOf[classic.DataFrameReader].getDeclaredField("sparkSession")
      f.setAccessible(true)
      f.get(c).asInstanceOf[SparkSession]
    case _ => SparkSession.active
  }

  /** A DataFrame for an (unresolved or resolved) logical plan; analysis happens here. */
  def ofRows(session: SparkSession, plan: LogicalPlan): DataFrame =
    classic.Dataset.ofRows(classicSession(session), plan)

  /**
   * The analyzed plan of a plan, e.g. a table lookup: the session's analyzer and checks,
   * without building a DataFrame (its row encoder costs more than analysing a table lookup).
   */
  def analyze(session: SparkSession, plan: LogicalPlan): LogicalPlan =
    classicSession(session).sessionState.executePlan(plan).analyzed

  /**
   * Whether an analyzed table lookup read files directly (Spark's SQL on files: a name like
   * [parquet, /some/path]) rather than a catalog table or a view: a file relation without a
   * catalog table that no view wraps.
   */
  def readsFilesDirectly(analyzed: LogicalPlan): Boolean = {
    def strip(p: LogicalPlan): LogicalPlan = p match {
      case SubqueryAlias(_, child) => strip(child)
      case other => other
    }
    strip(analyzed) match {
      case _: View => false
      case p => p.exists {
        case l: LogicalRelation => l.catalogTable.isEmpty
        case _ => false
      }
    }
  }

  /** The analyzed and optimized forms of a plan (one query execution; nothing runs). */
  def analyzedAndOptimized(session: SparkSession, plan: LogicalPlan): (LogicalPlan, LogicalPlan) = {
    val execution = classicSession(session).sessionState.executePlan(plan)
    (execution.analyzed, execution.optimizedPlan)
  }

  def sqlConf(session: SparkSession): SQLConf = classicSession(session).sessionState.conf

  def resolutionRuleNames(session: SparkSession): Seq[String] =
    classicSession(session).sessionState.analyzer.extendedResolutionRules.map(_.getClass.getName)

  def numericContext(mode: EvalMode.Value, conf: SQLConf): NumericEvalContext = ctx(mode, conf)

  private def ctx(mode: EvalMode.Value, conf: SQLConf): NumericEvalContext =
    NumericEvalContext(mode, conf.decimalOperationsAllowPrecisionLoss)

  def add(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Add(l, r, ctx(mode, conf))
  def subtract(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Subtract(l, r, ctx(mode, conf))
  def multiply(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Multiply(l, r, ctx(mode, conf))
  def divide(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Divide(l, r, ctx(mode, conf))
  def integralDivide(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression =
    IntegralDivide(l, r, ctx(mode, conf))
  def remainder(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Remainder(l, r, ctx(mode, conf))
  def pmod(l: Expression, r: Expression, mode: EvalMode.Value, conf: SQLConf): Expression = Pmod(l, r, ctx(mode, conf))
  def sum(child: Expression, mode: EvalMode.Value, conf: SQLConf): AggregateFunction = Sum(child, ctx(mode, conf))
  def average(child: Expression, mode: EvalMode.Value): AggregateFunction = Average(child, mode)

  /** Equal types, whatever their nested nullability (array elements, map values, struct fields). */
  def sameTypeIgnoringNullability(a: DataType, b: DataType): Boolean = DataType.equalsIgnoreNullability(a, b)

  /** An expression of type `dataType` that fails the query with `message` when evaluated. */
  def raiseError(message: String, dataType: DataType): Expression =
    RaiseError(Literal("USER_RAISED_EXCEPTION"), CreateMap(Seq(Literal("errorMessage"), Literal(message))), dataType)

  def scalarSubquery(plan: LogicalPlan, outer: Seq[Expression]): Expression = ScalarSubquery(plan, outer)
  def exists(plan: LogicalPlan, outer: Seq[Expression]): Expression = Exists(plan, outer)
  def inSubquery(values: Seq[Expression], plan: LogicalPlan, outer: Seq[Expression]): Expression =
    InSubquery(values, ListQuery(plan, outer, numCols = plan.output.size))

  def window(expressions: Seq[NamedExpression], partition: Seq[Expression], order: Seq[SortOrder],
      child: LogicalPlan): LogicalPlan =
    org.apache.spark.sql.catalyst.plans.logical.Window(expressions, partition, order, child, None)
}
