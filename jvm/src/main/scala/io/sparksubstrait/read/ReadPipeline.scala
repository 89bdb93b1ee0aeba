package io.sparksubstrait.read

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.{ConversionContext, PlanConverter}
import io.sparksubstrait.convert.rel.{CatalogTables, PostJoinFilter}
import io.sparksubstrait.decode.{DecodedPlan, PlanLimits}
import io.sparksubstrait.decode.readings.{ProducerReadings, ProducerStamp, ReadingWarnings}
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.{PlanPath, SpecRelease}
import io.sparksubstrait.shape.{PlanShapes, SkippedAnalysis}

/**
 * A read, stage by stage: a decoded plan (decode/) becomes one Catalyst logical plan. The
 * producer readings that need the catalog, the conversion (convert/), the plan shapes
 * (shape/), the analysis Spark would do, the output names, SkippedAnalysis. Each stage's
 * door is called here and nowhere else, so this file is the pipeline.
 */
private[sparksubstrait] object ReadPipeline {

  /**
   * @param rootIndex which root to read (0-based, counting only root relations), for plans
   *                  with several; None requires exactly one.
   * @param listener  records the read for `explain`; null (no recording) for reads.
   */
  def read(session: SparkSession, plan: DecodedPlan, rootIndex: Option[Int] = None, listener: ReadListener = null)
    : LogicalPlan =
    guarded(session)(stages(session, plan, rootIndex, listener, analyseUnmarked = true))

  /** The read as SkippedAnalysis leaves it, without analysing a plan it did not mark (SkippedAnalysisSuite). */
  def readWithoutAnalysis(session: SparkSession, plan: DecodedPlan): LogicalPlan =
    guarded(session)(stages(session, plan, None, null, analyseUnmarked = false))

  private def guarded(session: SparkSession)(read: => LogicalPlan): LogicalPlan =
    try SubstraitErrors.located(PlanPath.root)(read)
    catch {
      // A backstop only: PlanLimits' default depth converts on a 512 KB stack. Converters
      // share no state, so unwinding the whole conversion leaves nothing half-done.
      case e: StackOverflowError =>
        val limit = PlanLimits.fromConf(SparkShim.sqlConf(session)).maxDepth
        throw SubstraitErrors.planTooLarge("a plan nested too deeply for the converting thread's stack",
          s"$limit levels", s"lower ${PlanLimits.MaxDepthKey} or give the driver thread a larger stack", e)
    }

  private def stages(session: SparkSession, decoded: DecodedPlan, rootIndex: Option[Int], listener: ReadListener,
    analyseUnmarked: Boolean): LogicalPlan = {
    // Decode, finished: the readings that need the catalog's tables (the rest were lifted while decoding).
    val tables = new CatalogTables(session, decoded.namedTables)
    val plan: DecodedPlan = decoded.copy(proto = ProducerReadings.withCatalog(decoded.proto, decoded.readings,
      (names: Seq[String], at: PlanPath) =>
        try tables.schemaOf(names)
        catch {
          case e: org.apache.spark.sql.AnalysisException => throw SubstraitErrors.tableNotFound(at, names, e)
        }))
    val proto = plan.proto
    val producer = Option(proto.getVersion).map(_.getProducer).getOrElse("")
    if (listener != null)
      listener.plan(producer, plan.readings, PostJoinFilter.writtenBefore(SpecRelease.of(proto.getVersion)))
    ReadingWarnings.log(plan.readings)

    // Convert.
    implicit val ctx: ConversionContext = PlanConverter.context(session, plan, tables, listener)
    val (root, at) = PlanConverter.root(plan, rootIndex)
    PlanConverter.command(root, at).getOrElse {
      val input = PlanConverter.relationTree(root, at)

      // Shape.
      val (shaped, shapes) = PlanShapes(input, ProducerStamp.of(proto), ctx.conf)
      if (listener != null && shapes.nonEmpty) {
        listener.shapes(shapes.map(s => s.name -> s.meaning))
        listener.reshaped(input, shaped)
      }
      val converted = AnalyzerChecks.checkCorrelation(session, shaped, at / "input")

      // Output names.
      val whole = PlanConverter.named(converted, root, at)
      if (listener != null) listener.root(at, PlanConverter.names(root), whole)

      // Skipped analysis, or Spark's analysis now.
      val finished = SkippedAnalysis(session, whole)
      if (listener != null && !(finished eq whole)) listener.reshaped(whole, finished)
      if (analyseUnmarked) AnalyzerChecks.refusedHereIfSparkWould(session, finished, at / "input") else finished
    }
  }
}
