package io.sparksubstrait.shape

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types._

import io.sparksubstrait.decode.readings.ProducerStamp

/**
 * Rewrites of a converted plan into the shape Spark plans best, applied once after the
 * relation tree is converted (subqueries included). A producer that writes its own
 * optimizer's output ([[ProducerStamp.writesOptimizedPlans]]) states choices made for its engine — a join
 * order, a conjunct order, a decorrelated subquery — that Spark's optimizer, fed them
 * literally, plans worse than the SQL of the same query (docs/performance.md). Each shape
 * keeps the exact rows (PlanShapesSuite runs each against the plan without it) and says
 * which plans it applies to; `spark.substrait.planShapes` turns them all off and
 * `spark.substrait.planShapes.skip` names ones to leave out (to measure one shape's effect).
 */
private[sparksubstrait] object PlanShapes {
  val EnabledKey = "spark.substrait.planShapes"
  val SkipKey = "spark.substrait.planShapes.skip"

  /** One rewrite: whether it applies to a producer's plans, and the rewrite itself. */
  trait Shape {
    def name: String

    /** What it does and why (one sentence, for explain and docs/performance.md). */
    def meaning: String
    def appliesTo(stamp: ProducerStamp): Boolean

    /** `conf`: the session's settings (a shape may follow Spark's planning choices, e.g. the broadcast threshold). */
    def apply(plan: LogicalPlan, conf: SQLConf): LogicalPlan
  }

  /** In order: joins first (conditions move into filters), then the filters' conjuncts. */
  val all: Seq[Shape] = Seq(MarkAsExists, OneRowJoinAsScalarSubquery, SemiJoinAsIn, SemiJoinOnGroupKeys,
    SemiJoinBelowAggregate,
    SemiJoinUnderGrouping, AggregateJoinEarly, InnerJoinChain, EqualitiesAsIn, ConjunctOrder)

  /**
   * Types whose `=` is exact identity of values, so that equal keys or listed values can be
   * compared another way (a join, `IN`) with the same result: no floating point (NaN, -0.0),
   * no collations.
   */
  def exactEquality(t: DataType): Boolean = t match {
    case ByteType | ShortType | IntegerType | LongType | BooleanType | DateType | TimestampType => true
    case _: DecimalType => true
    case s: StringType => s == StringType
    case _ => false
  }

  def enabled(conf: SQLConf): Boolean = conf.getConfString(EnabledKey, "true").trim.toLowerCase match {
    case "true" => true
    case "false" => false
    case other => throw io.sparksubstrait.errors.SubstraitErrors.invalidSetting(EnabledKey, other, "true or false")
  }

  /** A projection that only passes columns on (no computing, no renaming), matched as its child. */
  object PruningProject {
    def unapply(p: LogicalPlan): Option[LogicalPlan] = p match {
      case Project(list, child) if list.forall(_.isInstanceOf[Attribute]) => Some(child)
      case _ => None
    }
  }

  /** The shapes `spark.substrait.planShapes.skip` names (comma-separated names of `all`). */
  def skipped(conf: SQLConf): Set[String] = {
    val names = conf.getConfString(SkipKey, "").split(',').map(_.trim).filter(_.nonEmpty).toSet
    val unknown = names -- all.map(_.name)
    if (unknown.nonEmpty)
      throw io.sparksubstrait.errors.SubstraitErrors.invalidSetting(SkipKey, unknown.toSeq.sorted.mkString(","),
        s"comma-separated shape names among ${all.map(_.name).mkString(", ")}")
    names
  }

  /** The plan in Spark's shape, and the shapes that changed it (in order). */
  def apply(plan: LogicalPlan, stamp: ProducerStamp, conf: SQLConf): (LogicalPlan, Seq[Shape]) =
    if (!enabled(conf)) (plan, Nil)
    else {
      val skip = skipped(conf)
      all.filter(s => s.appliesTo(stamp) && !skip.contains(s.name)).foldLeft((plan, Seq.empty[Shape])) {
        case ((p, applied), shape) =>
          val shaped = shape(p, conf)
          if (shaped eq p) (p, applied) else (shaped, applied :+ shape)
      }
    }
}
