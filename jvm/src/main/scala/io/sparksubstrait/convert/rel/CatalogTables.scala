package io.sparksubstrait.convert.rel

import scala.collection.mutable
import scala.util.control.NonFatal

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation
import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{Join, JoinHint, LogicalPlan}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.StructType

/**
 * The catalog lookups of one conversion. Resolving a table name costs a run of Spark's
 * analyzer; Spark SQL resolves all of a query's tables in one run, so this does too: on the
 * first lookup, every table read the plan holds (found while decoding) is resolved in one
 * run, as the leaves of a join without a condition. A table read twice is two leaves, which
 * the analyzer gives distinct attribute ids, as it does for `FROM nation n1, nation n2`.
 * Should that run fail (a missing table, no access), or a read come that was not counted,
 * the name is resolved on its own, so an error names its table. Every name is looked up in a
 * catalog only, never read as a data source and a path.
 */
private[sparksubstrait] final class CatalogTables(session: SparkSession, planTables: Seq[Seq[String]]) {

  /**
   * Resolved reads not yet handed out, per name. When every name is a temporary view (the
   * common case of a DataFrame registered by name), only the analyzer's relation rule and its
   * deduplication of reads run ([[SparkShim.resolvedTempView]]): the same reads, without a
   * whole analyzer run.
   */
  private lazy val resolvedTogether: Map[Seq[String], mutable.Queue[LogicalPlan]] = {
    val names = planTables.distinct
    val views = names.flatMap(n => SparkShim.resolvedTempView(session, catalogOnly(n)).map(n -> _)).toMap
    val together =
      try {
        if (planTables.nonEmpty && views.size == names.size)
          Some(SparkShim.deduplicateRelations(planTables.map(views).reduceLeft(join)))
        else if (planTables.size >= 2)
          Some(SparkShim.analyze(session,
              planTables.map(n => UnresolvedRelation(catalogOnly(n)): LogicalPlan)
                .reduceLeft(join)))
        else None
      } catch { case NonFatal(_) => None }
    together.fold(Map.empty[Seq[String], mutable.Queue[LogicalPlan]]) { analyzed =>
      planTables.zip(leaves(analyzed, planTables.size)).groupBy(_._1).map { case (n, reads) =>
        n -> mutable.Queue(reads.map(_._2): _*)
      }
    }
  }

  private def join(l: LogicalPlan, r: LogicalPlan): LogicalPlan = Join(l, r, Inner, None, JoinHint.NONE)

  /** The resolved table (the analyzer's exceptions when looked up on its own). */
  def resolve(names: Seq[String]): LogicalPlan =
    resolvedTogether.get(names).filter(_.nonEmpty).map(_.dequeue())
      .getOrElse(SparkShim.analyze(session, UnresolvedRelation(catalogOnly(names))))

  /** A table's schema without handing out its read (a producer reading needs the types first). */
  def schemaOf(names: Seq[String]): StructType =
    resolvedTogether.get(names).flatMap(_.headOption).map(_.schema)
      .getOrElse(SparkShim.analyze(session, UnresolvedRelation(catalogOnly(names))).schema)

  /** Never SQL on files: no file is listed or opened for a name ([[SparkShim.catalogOnlyName]]). */
  private def catalogOnly(names: Seq[String]): Seq[String] = SparkShim.catalogOnlyName(session, names)

  /** The `count` sides of the left-deep join built above, left to right. */
  private def leaves(plan: LogicalPlan, count: Int): Seq[LogicalPlan] =
    if (count == 1) Seq(plan)
    else plan match {
      case Join(left, right, _, _, _) => leaves(left, count - 1) :+ right
      case other => throw new IllegalStateException(s"the analyzer changed the lookup join: ${other.nodeName}")
    }
}
