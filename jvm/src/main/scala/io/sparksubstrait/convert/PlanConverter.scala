package io.sparksubstrait.convert

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.PlanRel
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{OuterReference, SubqueryExpression}
import org.apache.spark.sql.catalyst.expressions.{Alias, Cast, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{CTERelationRef, LogicalPlan, Project, WithCTE}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.rel.{
  CatalogTables, NestedNames, PostJoinFilter, RelConverter, SharedSubtrees, WriteRelConverter
}
import io.sparksubstrait.shape.{PlanShapes, SkippedAnalysis}
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.explain.ExplainTrace
import io.sparksubstrait.convert.functions.ExtensionRegistry
import io.sparksubstrait.decode.{DecodedPlan, PlanLimits, PlanPath}
import io.sparksubstrait.decode.readings.{ProducerReadings, ProducerStamp, ReadingWarnings}

/**
 * A whole plan to one Catalyst logical plan: picks the root, converts its relation tree
 * and applies the root's names (top-level columns and nested struct fields, depth first).
 */
private[sparksubstrait] object PlanConverter {

  /**
   * @param rootIndex which root to convert (0-based, counting only root relations), for
   *                  plans with several; None requires exactly one.
   * @param trace     records the conversion for `explain`; null (no recording) for reads.
   */
  def convert(session: SparkSession, plan: DecodedPlan, rootIndex: Option[Int] = None, trace: ExplainTrace = null)
    : LogicalPlan =
    converted(session, plan, rootIndex, trace, analyseUnmarked = true)

  /** The conversion as SkippedAnalysis leaves it, without analysing a plan it did not mark (SkippedAnalysisSuite). */
  private[sparksubstrait] def convertWithoutAnalysis(session: SparkSession, plan: DecodedPlan): LogicalPlan =
    converted(session, plan, None, null, analyseUnmarked = false)

  private def converted(session: SparkSession, plan: DecodedPlan, rootIndex: Option[Int], trace: ExplainTrace,
    analyseUnmarked: Boolean): LogicalPlan =
    try SubstraitErrors.located(PlanPath.root)(convertPlan(session, plan, rootIndex, trace, analyseUnmarked))
    catch {
      // A backstop only: PlanLimits' default depth converts on a 512 KB stack. Converters
      // share no state, so unwinding the whole conversion leaves nothing half-done.
      case e: StackOverflowError =>
        val limit = PlanLimits.fromConf(SparkShim.sqlConf(session)).maxDepth
        throw SubstraitErrors.planTooLarge("a plan nested too deeply for the converting thread's stack",
          s"$limit levels", s"lower ${PlanLimits.MaxDepthKey} or give the driver thread a larger stack", e)
    }

  /** How many root relations the plan has (each can be read as its own DataFrame). */
  def rootCount(plan: DecodedPlan): Int = plan.proto.getRelationsList.asScala.count(_.hasRoot)

  private def convertPlan(session: SparkSession, decoded: DecodedPlan, rootIndex: Option[Int], trace: ExplainTrace,
    analyseUnmarked: Boolean): LogicalPlan = {
    val tables = new CatalogTables(session, decoded.namedTables)
    // The readings that need the catalog's tables (the rest were lifted while decoding).
    val plan: DecodedPlan = decoded.copy(proto = ProducerReadings.withCatalog(decoded.proto, decoded.readings,
      (names: Seq[String], at: PlanPath) =>
        try tables.schemaOf(names)
        catch {
          case e: org.apache.spark.sql.AnalysisException => throw SubstraitErrors.tableNotFound(at, names, e)
        }))
    val proto = plan.proto
    val producer = Option(proto.getVersion).map(_.getProducer).getOrElse("")
    if (trace != null) trace.plan(producer, plan.readings, PostJoinFilter.writtenBefore(proto.getVersion))
    ReadingWarnings.log(plan.readings)
    val relations = proto.getRelationsList.asScala.toSeq
    val bindings = proto.getParameterBindingsList.asScala.toSeq.zipWithIndex.map { case (b, i) =>
      if (!b.hasValue)
        throw SubstraitErrors.missingField(PlanPath.root.at("parameter_bindings", i), "value", "the parameter's value")
      b.getParameterAnchor -> b.getValue
    }
    implicit val ctx: ConversionContext = new ConversionContext(session, ExtensionRegistry(plan),
      SparkShim.sqlConf(session), new SharedSubtrees(relations), tables, bindings.toMap,
      plan.parameters, trace, plan.proto.getExecutionBehavior, proto.getVersion)
    checkPlanLevelFields(plan)
    val roots = relations.zipWithIndex.filter(_._1.getRelTypeCase == PlanRel.RelTypeCase.ROOT)
    val (planRel, index) = rootIndex match {
      case None if roots.size == 1 => roots.head
      case None => throw SubstraitErrors.noSingleRoot(PlanPath.root / "relations", roots.size)
      case Some(i) if i >= 0 && i < roots.size => roots(i)
      case Some(i) => throw SubstraitErrors.invalidPlan(PlanPath.root / "relations", s"root index $i",
          s"an index from 0 to ${roots.size - 1} (the plan has ${roots.size} roots)")
    }
    val at = PlanPath.root.at("relations", index) / "root"
    val root = planRel.getRoot
    if (!root.hasInput) throw SubstraitErrors.missingField(at, "input", "the root relation")
    WriteRelConverter.convertRoot(root.getInput, at / "input").getOrElse {
      val input = RelConverter.convert(root.getInput, at / "input")
      val (shaped, shapes) = PlanShapes(input, ProducerStamp.of(proto), ctx.conf)
      if (trace != null && shapes.nonEmpty) {
        trace.shapes(shapes.map(s => s.name -> s.meaning))
        trace.reshaped(input, shaped)
      }
      val converted = checkCorrelation(session, shaped, at / "input")
      val names = root.getNamesList.asScala.toSeq
      val whole = ctx.subtrees.wrap(withNames(converted, names, at / "names"))
      if (trace != null) trace.root(at, names, whole)
      val finished = SkippedAnalysis(session, whole)
      if (trace != null && !(finished eq whole)) trace.reshaped(whole, finished)
      if (analyseUnmarked) refusedHereIfSparkWould(session, finished, at / "input") else finished
    }
  }

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
  private def checkCorrelation(session: SparkSession, plan: LogicalPlan, at: PlanPath): LogicalPlan = {
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
  private def refusedHereIfSparkWould(session: SparkSession, plan: LogicalPlan, at: PlanPath): LogicalPlan =
    if (plan.analyzed || plan.exists { case _: WithCTE | _: CTERelationRef => true; case _ => false }) plan
    else try SparkShim.analyze(session, plan)
    catch {
      case e: org.apache.spark.sql.AnalysisException =>
        val reason = Option(e.getMessage).map(_.linesIterator.next()).getOrElse(SparkShim.errorCondition(e))
        throw SubstraitErrors.unsupported(at, s"a plan Spark's analyzer refuses: $reason",
          "a plan Spark can run (the reason is Spark's own check)")
    }

  /** Renames the output columns; nested struct fields are renamed by a (free) cast. */
  private def withNames(plan: LogicalPlan, names: Seq[String], at: PlanPath): LogicalPlan = {
    val output = plan.output
    val schema = DataTypeUtils.fromAttributes(output)
    val renamed = NestedNames(schema, names, at).asInstanceOf[StructType]
    if (renamed == schema) return plan
    val columns: Seq[NamedExpression] = output.zip(renamed.fields).map { case (a, f) =>
      val value = if (f.dataType == a.dataType) a else Cast(a, f.dataType)
      if (value == a && a.name == f.name) a else Alias(value, f.name)()
    }
    Project(columns, plan)
  }

  /**
   * Plan-level fields with a meaning we would otherwise drop. Hints and optimization
   * extensions may be ignored by the spec; enhancements may not.
   */
  private def checkPlanLevelFields(plan: DecodedPlan): Unit = {
    val proto = plan.proto
    if (proto.hasAdvancedExtensions && proto.getAdvancedExtensions.hasEnhancement) {
      throw SubstraitErrors.unsupported(PlanPath.root / "advanced_extensions" / "enhancement",
        "a plan-level enhancement", "no enhancement")
    }
    if (proto.getTypeAliasesCount > 0) {
      throw SubstraitErrors.unsupported(PlanPath.root.at("type_aliases", 0), "type aliases",
        "plans without type aliases")
    }
  }
}
