package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.plans.logical.{
  CTERelationRef, LocalRelation, LogicalPlan, SubqueryAlias, View, WithCTE
}
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
   * A temporary view's resolved plan, looked up by the analyzer's own relation rule alone; None
   * for anything else (a catalog table, whose read other analyzer rules finish, a view stored as
   * SQL text, a missing name): those take a whole analyzer run. A temp view made from a
   * DataFrame holds its analyzed plan already, and a run of every rule over it cost a
   * conversion more than the rest of it (TPC-DS reads five to ten tables per plan).
   */
  def resolvedTempView(session: SparkSession, names: Seq[String]): Option[LogicalPlan] =
    try {
      sessionState(session).analyzer.ResolveRelations(
        org.apache.spark.sql.catalyst.analysis.UnresolvedRelation(names)) match {
        case read @ SubqueryAlias(_, v: View) if v.isTempView && read.resolved => Some(read)
        case _ => None
      }
    } catch { case scala.util.control.NonFatal(_) => None }

  /**
   * The analyzer's own rule that turns a resolved plan's window expressions into Window
   * operators, and nothing else; in subqueries too. Where it leaves the plan resolved it needs
   * no whole analyzer run (shape/SkippedAnalysis). (Grouping sets are not: the analyzer's
   * Expand takes other rules after its own, CleanupAliases among them.)
   */
  def windowOperators(session: SparkSession, plan: LogicalPlan): LogicalPlan = {
    val analyzer = sessionState(session).analyzer
    def rules(p: LogicalPlan): LogicalPlan = {
      val inner = p.transformUp { case node =>
        node.transformExpressionsUp { case s: SubqueryExpression => s.withNewPlan(rules(s.plan)) }
      }
      analyzer.ExtractWindowExpressions(inner)
    }
    rules(plan)
  }

  /** Distinct attribute ids for reads of one relation, as the analyzer gives `FROM t a, t b` (its own rule). */
  def deduplicateRelations(plan: LogicalPlan): LogicalPlan =
    org.apache.spark.sql.catalyst.analysis.DeduplicateRelations(plan)

  /**
   * A table name the analyzer can only look up in a catalog. Spark's analyzer reads a two-part
   * name whose first part names a data source (`[json, /some/path]`, or any class name) as
   * SQL on files, and lists, opens and infers the schema of that path before anything else
   * happens (ResolveSQLOnFile, which looks only at two-part names). Qualified with the current
   * catalog the same name means the same table when it is one, and never a file. A first part
   * that is a catalog (or the global temporary views' database) keeps its own meaning.
   */
  def catalogOnlyName(session: SparkSession, names: Seq[String]): Seq[String] = {
    val state = sessionState(session)
    val manager = state.catalogManager
    val globalTemp = state.conf.getConf(org.apache.spark.sql.internal.StaticSQLConf.GLOBAL_TEMP_DATABASE)
    if (names.size != 2 || manager.isCatalogRegistered(names.head) || names.head.equalsIgnoreCase(globalTemp)) names
    else manager.currentCatalog.name() +: names
  }

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
  def checkAndMarkAnalyzed(session: SparkSession, plan: LogicalPlan): Unit = plan match {
    // Spark's check first inlines every CTE (InlineCTE(alwaysInline = true)): a DAG of shared
    // subtrees, each using the one before twice, would be checked as a tree of 2^n copies.
    // Each definition and the query are checked on their own instead, a reference standing for
    // its definition as a leaf with the same output (what the checks look at: a relation's
    // columns), which keeps the check linear in the plan; then the whole is marked.
    case WithCTE(query, definitions) =>
      val checker = sessionState(session).analyzer
      (definitions.map(_.child) :+ query).foreach(part => checker.checkAnalysis(referencesAsLeaves(part)))
      org.apache.spark.sql.catalyst.sparksubstrait.AnalyzedMark.set(plan)
    case _ => sessionState(session).analyzer.checkAnalysis(plan)
  }

  private def referencesAsLeaves(plan: LogicalPlan): LogicalPlan = plan.transformUpWithSubqueries {
    case ref: CTERelationRef => LocalRelation(ref.output)
  }

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
