package io.sparksubstrait.read

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{OuterReference, SubqueryExpression}
import org.apache.spark.sql.catalyst.plans.logical.{CTERelationRef, LogicalPlan, WithCTE}
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * The read's two uses of Spark's analyzer, so that a plan Spark cannot run is refused while
 * reading, as the project's error, rather than when its DataFrame is built.
 */
private[sparksubstrait] object AnalyzerChecks {

  /**
   * Spark decorrelates subqueries with outer references only in some places (filters,
   * projections, …). A plan that correlates elsewhere is valid Substrait that Spark cannot
   * run: checked here, by analysing it, so the answer is the project's error rather than
   * Spark's analysis error later. Plans without correlation skip the check (no cost).
   *
   * The analysed plan is the result, so the read does not analyse it twice (Spark skips a
   * plan marked analysed) — unless it reads shared subtrees, whose definitions come only
   * when the root is wrapped.
   */
  def checkCorrelation(session: SparkSession, plan: LogicalPlan, at: PlanPath): LogicalPlan = {
    val correlated = plan.exists(_.expressions.exists(_.exists {
      case s: SubqueryExpression => s.plan.exists(_.expressions.exists(_.exists(_.isInstanceOf[OuterReference])))
      case _ => false
    }))
    if (!correlated) plan
    else {
      val analyzed = try SparkShim.analyze(session, plan)
      catch {
        case e: org.apache.spark.sql.AnalysisException =>
          throw SubstraitErrors.unsupported(at,
            s"a correlated subquery Spark cannot run here (${SparkShim.errorCondition(e)})",
            "outer references in subqueries of filters and projections")
      }
      val readsSharedSubtrees = plan.exists(_.isInstanceOf[CTERelationRef]) ||
        plan.exists(_.expressions.exists(_.exists {
          case s: SubqueryExpression => s.plan.exists(_.isInstanceOf[CTERelationRef]); case _ => false
        }))
      if (readsSharedSubtrees) plan else analyzed
    }
  }

  /**
   * A converted plan that SkippedAnalysis could not mark (windows in a projection, a relation
   * read twice, char columns, …) is analysed here rather than when its DataFrame is built:
   * the same work, done once either way (Spark skips a plan marked analysed), but a plan
   * Spark's analyzer refuses is then refused as the project's error at conversion, naming
   * Spark's reason, instead of an AnalysisException at the caller. A plan with shared subtrees
   * is left as it is: its definitions were checked one by one (SkippedAnalysis), and the
   * analyzer's own check of the whole would inline them all.
   */
  def refusedHereIfSparkWould(session: SparkSession, plan: LogicalPlan, at: PlanPath): LogicalPlan =
    if (plan.analyzed || plan.exists { case _: WithCTE | _: CTERelationRef => true; case _ => false }) plan
    else try SparkShim.analyze(session, plan)
    catch {
      case e: org.apache.spark.sql.AnalysisException =>
        val reason = Option(e.getMessage).map(_.linesIterator.next()).getOrElse(SparkShim.errorCondition(e))
        throw SubstraitErrors.unsupported(at, s"a plan Spark's analyzer refuses: $reason",
          "a plan Spark can run (the reason is Spark's own check)")
    }
}
