package io.sparksubstrait.shape

import scala.util.control.NonFatal

import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.TimeZoneAwareExpression
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Command, Filter, LogicalPlan, Project, UnaryNode}
import org.apache.spark.sql.catalyst.trees.TreePattern.TIME_ZONE_AWARE_EXPRESSION
import org.apache.spark.sql.catalyst.util.CharVarcharUtils
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.foundation.IntroducedAttributes

/**
 * A converted plan is resolved as it comes out of the converter, yet Spark analyses it again
 * with the query that reads it: each of the analyzer's rules walks each operator, which for
 * a producer's optimised plan (DuckDB's has a projection under most operators) was about two
 * fifths of a read. Spark analyses a DataFrame's plan once and marks it analyzed, and its
 * rules and checks skip marked subtrees; a converted plan that already is what the analyzer
 * would make of it is marked the same way here, after the check Spark would run on it.
 *
 * What Spark's analyzer still changes in a resolved plan, and how each is met:
 *  - a time-zone-aware expression (a cast) without a zone gets the session's (ResolveTimeZone):
 *    set here, in subqueries too;
 *  - a projection's window expressions become Window operators (ExtractWindowExpressions):
 *    that rule alone runs here (grouping sets are left to the analyzer: its Expand takes more);
 *  - an attribute id that two operators introduce (a relation instance read twice) is
 *    renumbered (DeduplicateRelations): such a plan is left to the analyzer (the plan shapes
 *    that place a subtree twice place a copy with ids of its own, shape/FreshIds);
 *  - a nondeterministic grouping key, or one in a unary operator other than a projection or
 *    a filter, is pulled out into a projection (PullOutNondeterministic): left to it;
 *  - a comparison of char/varchar columns may be padded (ApplyCharTypePadding): left to it;
 *  - a write is a command the analyzer plans with rules of its own: only queries are marked.
 * The rest (nullability, aliases, types, …) the converter writes as the analyzer would. The
 * test sessions set [[VerifyKey]], which runs the analyzer's rules on every plan marked here
 * and fails when they change it: the whole test suite and every producer fixture, on the
 * oldest and the newest Spark, are the proof that nothing else is left.
 */
private[sparksubstrait] object SkippedAnalysis {

  /** Test sessions only: analyse every marked plan again and fail if the analyzer changes it. */
  val VerifyKey = "spark.substrait.test.verifySkippedAnalysis"

  def apply(session: SparkSession, plan: LogicalPlan): LogicalPlan = {
    val conf = SparkShim.sqlConf(session)
    // Windows as the analyzer makes them, by its own rule alone (Spark resolves a Project
    // holding a window only so); the zones after it.
    val zoned = withSessionZone(try SparkShim.windowOperators(session, plan)
      catch { case NonFatal(_) => plan },
      conf.sessionLocalTimeZone)
    if (zoned.analyzed || !zoned.resolved || !leftNothingToTheAnalyzer(zoned)) return zoned
    if (conf.getConfString(VerifyKey, "false").toBoolean) verify(session, zoned)
    // An AnalysisException here is Spark's own check failing on the converted plan: left
    // unmarked, the read (ReadPipeline) analyses it and refuses it with the project's error, naming Spark's reason.
    try SparkShim.checkAndMarkAnalyzed(session, zoned)
    catch { case _: AnalysisException => }
    zoned
  }

  private def withSessionZone(plan: LogicalPlan, zone: String): LogicalPlan =
    plan.transformUpWithSubqueries { case p =>
      p.transformExpressionsWithPruning(_.containsPattern(TIME_ZONE_AWARE_EXPRESSION)) {
        case e: TimeZoneAwareExpression if e.timeZoneId.isEmpty => e.withTimeZone(zone)
      }
    }

  /** No command, no attribute introduced twice, nothing nondeterministic to pull out, no char columns. */
  private def leftNothingToTheAnalyzer(plan: LogicalPlan): Boolean = {
    val introduced = new java.util.HashSet[java.lang.Long]()
    def ok(p: LogicalPlan): Boolean = !p.isInstanceOf[Command] && p.children.forall(ok) &&
      IntroducedAttributes.of(p).forall { a =>
        introduced.add(a.exprId.id) && !CharVarcharUtils.hasCharVarchar(a.dataType) &&
        CharVarcharUtils.getRawType(a.metadata).isEmpty
      } &&
      (p match {
        // Where PullOutNondeterministic looks: an aggregate's grouping keys and a unary
        // operator's expressions but a projection's or a filter's (first() and the like in an
        // aggregate's results stay where they are). Elsewhere Spark's check refuses them.
        case a: Aggregate => a.groupingExpressions.forall(_.deterministic)
        case _: Project | _: Filter => true
        case u: UnaryNode => u.expressions.forall(_.deterministic)
        case _ => true
      }) && p.subqueries.forall(ok)
    ok(plan)
  }

  private def verify(session: SparkSession, plan: LogicalPlan): Unit = {
    val analyzed = SparkShim.analyzerRules(session, plan)
    // A failed assertion of the test sessions, not an error a user meets.
    if (!(analyzed fastEquals plan)) throw new IllegalStateException(
      s"Spark's analyzer changed a converted plan marked analyzed:\n${plan.treeString}\n---\n${analyzed.treeString}")
  }
}
