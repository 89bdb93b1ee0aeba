package io.sparksubstrait.write

import scala.util.control.NonFatal

import com.google.protobuf.InvalidProtocolBufferException
import com.google.protobuf.util.JsonFormat

import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.sparksubstrait.errors.{SubstraitErrors, SubstraitException}
import io.sparksubstrait.foundation.SpecRelease
import io.sparksubstrait.proto.{Plan, PlanRel, RelRoot, Version}
import io.sparksubstrait.write.rel.RelWriter
import io.sparksubstrait.write.types.TypeWriter

/**
 * Catalyst to Substrait: a DataFrame's optimized logical plan (or its analyzed plan, by
 * option) as one `substrait.Plan` at the pinned spec release, stamped with producer
 * `spark-substrait`. The root's names are the DataFrame's columns (and nested struct fields,
 * depth first). Anything without an exact Substrait form raises SUBSTRAIT_UNWRITABLE_PLAN
 * naming the Catalyst node and where it is.
 */
private[sparksubstrait] object PlanWriter {
  val Producer = "spark-substrait"

  def write(df: DataFrame, optimized: Boolean = true, target: WriteTarget = WriteTarget.Current): Plan = {
    val qe = df.queryExecution
    write(df.sparkSession, if (optimized) qe.optimizedPlan else qe.analyzed, target)
  }

  def write(session: SparkSession, plan: LogicalPlan, target: WriteTarget): Plan = {
    implicit val ctx: WriteContext = new WriteContext(session, target)
    val input = try RelWriter.write(DecimalSums(TypedNulls(plan)), CatalystPath.root)
    catch {
      case e: SubstraitException => throw e
      case e: StackOverflowError => throw e
      case NonFatal(e) => throw SubstraitErrors.unwritable(CatalystPath.root.toString, "the plan",
          s"an unexpected ${e.getClass.getSimpleName}: ${Option(e.getMessage).map(_.linesIterator.next()).getOrElse("")}",
          "a plan the writer handles (please report this plan)")
    }
    val root = RelRoot.newBuilder().setInput(input)
    TypeWriter.nestedNames(plan.schema).foreach(root.addNames)
    val b = Plan.newBuilder()
      .setVersion(
        // The pinned spec release (build/substrait-spec.version), the one the message classes come from.
        Version.newBuilder().setMajorNumber(SpecRelease.Pinned.major).setMinorNumber(SpecRelease.Pinned.minor)
          .setPatchNumber(SpecRelease.Pinned.patch).setProducer(Producer))
      .addRelations(PlanRel.newBuilder().setRoot(root))
    ctx.declare(b)
    b.build()
  }

  /**
   * A written plan in protobuf's JSON encoding. That encoding spells out an `Any`'s message
   * by its type, which only a session's extension handler knows (docs/extending.md): a plan
   * holding an extension relation is written in the binary encoding only.
   */
  def json(plan: Plan): String =
    try JsonFormat.printer().print(plan)
    catch {
      case e: InvalidProtocolBufferException => throw SubstraitErrors.unwritable(CatalystPath.root.toString,
          "an extension relation's detail", s"protobuf's JSON encoding cannot spell its payload (${e.getMessage})",
          "the binary encoding for a plan with extension relations (docs/extending.md)")
    }
}
