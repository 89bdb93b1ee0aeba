package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, SubqueryAlias, View}
import org.apache.spark.sql.execution.datasources.LogicalRelation
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.DataType

/**
 * Every call into Spark's internals, in one place. What is the same in every supported Spark
 * is here; what differs comes from [[SparkVersionShim]], [[ArithmeticShim]], [[TimeShim]],
 * [[ExchangeShim]] and [[RoundingShim]], one of each per source folder (src/main/spark-3, spark-4, spark-3.5-4.0, …).
 * It lives in Spark's package to reach `private[sql]`
 * members (the way Delta Lake and others do).
 */
object SparkShim extends SparkVersionShim with RoundingShim with TimeShim with ExchangeShim {
  /**
   * The analyzed plan of a plan, e.g. a table lookup: the session's analyzer and checks,
   * without building a DataFrame (its row encoder costs more than analysing a table lookup).
   */
  def analyze(session: SparkSession, plan: LogicalPlan): LogicalPlan =
    sessionState(session).executePlan(plan).analyzed

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
    val execution = sessionState(session).executePlan(plan)
    (execution.analyzed, execution.optimizedPlan)
  }

  /**
   * Runs Spark's CheckAnalysis on a resolved plan and marks it analyzed, as Spark does for a
   * DataFrame's plan (the analyzer's rules and checks skip marked subtrees).
   */
  def checkAndMarkAnalyzed(session: SparkSession, plan: LogicalPlan): Unit =
    sessionState(session).analyzer.checkAnalysis(plan)

  /** Spark's analyzer rules on a plan, without its checks and without marking it. */
  def analyzerRules(session: SparkSession, plan: LogicalPlan): LogicalPlan =
    sessionState(session).analyzer.execute(plan)

  def sqlConf(session: SparkSession): SQLConf = sessionState(session).conf

  def resolutionRuleNames(session: SparkSession): Seq[String] =
    sessionState(session).analyzer.extendedResolutionRules.map(_.getClass.getName)

  /** Equal types, whatever their nested nullability (array elements, map values, struct fields). */
  def sameTypeIgnoringNullability(a: DataType, b: DataType): Boolean = DataType.equalsIgnoreNullability(a, b)

  def scalarSubquery(plan: LogicalPlan, outer: Seq[Expression]): Expression = ScalarSubquery(plan, outer)
  def exists(plan: LogicalPlan, outer: Seq[Expression]): Expression = Exists(plan, outer)
  def lateralSubquery(plan: LogicalPlan, outer: Seq[Expression]): LateralSubquery = LateralSubquery(plan, outer)
  def inSubquery(values: Seq[Expression], plan: LogicalPlan, outer: Seq[Expression]): Expression =
    InSubquery(values, ListQuery(plan, outer, numCols = plan.output.size))
}
