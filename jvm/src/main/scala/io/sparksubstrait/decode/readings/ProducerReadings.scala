package io.sparksubstrait.decode.readings

import scala.collection.mutable.ArrayBuffer

import com.google.protobuf.Descriptors.Descriptor
import io.sparksubstrait.proto.Plan
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.foundation.PlanPath

/**
 * The one place where real producers' readings live (docs/producers.md lists each with its
 * releases and the test that proves it). Each is keyed on `Plan.version.producer` and the
 * spec version its releases stamp; PlanDecoder lifts a plan through every reading that
 * applies, so converters read the spec's shape only. What applied travels with the plan
 * (DecodedPlan.readings): explain lists it, the DataFrame's plan string names it, and a
 * known producer bug is logged as a warning.
 */
private[sparksubstrait] object ProducerReadings {
  val all: Seq[Reading] = Seq(
    NamesOnlySchema,
    // Before the projects' readings (in their shared walk, each aggregate or read is lifted before the project
    // above it), which count their input's columns to make their emit.
    GroupingSetsWithoutIndex("datafusion-grouping-sets-without-index", "DataFusion 31 to 42 (spec 0.33 to 0.55)",
      _.within("datafusion", "0.0", "0.55")),
    GroupingSetsWithoutIndex("isthmus-grouping-sets-without-index",
      "isthmus 0.65 and 0.66 (spec 0.74, 0.77; 0.52 stamps no producer; 0.73, also 0.77, writes the emit itself)",
      _.within("isthmus", "0.0", "0.77")),
    VirtualTableWithoutSchema,
    ProjectWithoutEmit("datafusion-project-without-emit", "DataFusion 31 to 42 (spec 0.33 to 0.55)",
      _.within("datafusion", "0.0", "0.55")),
    ProjectWithoutEmit("duckdb-project-without-emit", Releases.DuckDb.describe, Releases.DuckDb.applies),
    PredicateOutputTypes,
    LayoutVariations,
    GroupingIdBeforeMeasures,
    SimpleCaseBase,
    FunctionSpellings.dataFusion,
    FunctionSpellings.duckDb,
    StructConstructors.duckDb,
    StructConstructors.dataFusion,
    JoinWithoutExpression,
    SortFetchDropped,
    StringAggOrderDropped,
    NotLikeAsNotEqual,
    // DuckDB 1.0 to 1.1.3; DataFusion 43 on
    TypelessNullInCast, TypelessNullByContext, DivisionByZeroNull, RoundingCast.duckDb, DatePlusDays, ConstantOrNull,
    CompoundIntervalParts,
    // ibis-substrait (2.29.1 on: the releases that stamp a producer)
    ZeroBasedSubstring,
    DateStringComparison,
    RoundingCast.ibis,
    SortNullsFirst,
    DecimalProductType,
    CorrelationAsRootReference,
    CorrelationAsLocalReference,
    FloatLiteralDecimalCast,
    MeasureOverAnotherColumn,
    // isthmus
    DecimalPrecision19,
    DecimalSumType)

  def byName(name: String): Option[Reading] = all.find(_.name == name)

  /**
   * The plan lifted through every reading that applies to its stamp, and those that changed
   * something; `holds` says which message types the plan holds (a reading needing none it
   * holds is not walked: each walk is a pass over the whole plan).
   */
  def atDecode(plan: Plan, holds: Descriptor => Boolean): (Plan, Seq[AppliedReading]) = {
    val stamp = ProducerStamp.of(plan)
    val applied = ArrayBuffer.empty[AppliedReading]
    val walked = all.filter(r => r.appliesTo(stamp) && (r.needs.isEmpty || r.needs.exists(holds)))
    def record(reading: Reading, where: ArrayBuffer[String]): Unit =
      if (where.nonEmpty) applied +=
        AppliedReading(reading.name, reading.releases, reading.meaning, reading.kind, where.toSeq)
    // The lifting readings in order, each a walk; then the bugs found as written, all in one walk of the lifted plan.
    val (finding, lifting) = walked.partition(_.isInstanceOf[FoundBug])
    val lifted = runs(lifting).foldLeft(plan) {
      case (p, Seq(reading)) =>
        val where = ArrayBuffer.empty[String]
        val next = reading.lift(p, where += _)
        record(reading, where)
        next
      case (p, together) =>
        // runs() groups only readings that lift one message at a time.
        val lifts = together.collect { case r: LiftsOneAtATime => r -> ArrayBuffer.empty[String] }
        val next = MessageRewrite.liftAll(p, lifts.flatMap { case (r, where) => r.rewrite(p, where += _) })
        lifts.foreach { case (r, where) => record(r, where) }
        next
    }
    val found = finding.collect { case r: FoundBug => r -> ArrayBuffer.empty[String] }
    MessageRewrite.findAll(lifted, found.flatMap { case (r, where) => r.finder(lifted, where += _) })
    found.foreach { case (r, where) => record(r, where) }
    (lifted, applied.sortBy(a => all.indexWhere(_.name == a.name)).toSeq)
  }

  /** The readings in order, consecutive ones that lift one message at a time grouped (they share a walk). */
  private def runs(readings: Seq[Reading]): Seq[Seq[Reading]] =
    readings.foldLeft(Vector.empty[Vector[Reading]]) {
      case (groups :+ last, r: LiftsOneAtATime) if last.head.isInstanceOf[LiftsOneAtATime] => groups :+ (last :+ r)
      case (groups, r) => groups :+ Vector(r)
    }

  /** The readings that need the catalog's tables, for a plan `atDecode` found them in. */
  def withCatalog(plan: Plan, applied: Seq[AppliedReading], schemaOf: (Seq[String], PlanPath) => StructType): Plan =
    if (applied.exists(_.name == NamesOnlySchema.name)) NamesOnlySchema.withCatalog(plan, schemaOf) else plan
}
