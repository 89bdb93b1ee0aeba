package io.sparksubstrait.explain

import scala.collection.mutable.ArrayBuffer
import scala.util.control.NonFatal

import io.sparksubstrait.proto.{Rel, Type}
import io.sparksubstrait.proto.Rel.RelTypeCase
import org.apache.spark.sql.catalyst.expressions.{Cast, Expression}
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.trees.TreeNodeTag

import io.sparksubstrait.convert.functions.{DeclaredFunction, FunctionAliases, FunctionCatalog}
import io.sparksubstrait.convert.rel.{DeclaredColumnTypes, ExtensionRelConverter}
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.decode.readings.AppliedReading
import io.sparksubstrait.read.ReadListener

/**
 * What one conversion did, recorded for `explain`: each relation with the Catalyst
 * operators it became, each function call with the mapping chosen, and the producer
 * readings that lifted the plan into the spec's shape. The converters never see it: it listens
 * to the read through [[ReadListener]] (the dispatch points notify it when a
 * [[io.sparksubstrait.convert.ConversionContext]] carries one; it is null otherwise, so a
 * plain read pays one null check per node).
 *
 * Relations and calls complete children first, so a relation claims the records not yet
 * claimed whose location lies inside its own: its inputs (and subqueries), and its calls.
 */
private[sparksubstrait] final class ExplainTrace extends ReadListener {
  import ExplainTrace._

  private val relationRecords = ArrayBuffer.empty[RelationRecord]
  private val functionRecords = ArrayBuffer.empty[FunctionRecord]
  private val unclaimedRelations = ArrayBuffer.empty[Int]
  private val unclaimedFunctions = ArrayBuffer.empty[Int]

  /** Catalyst node (by identity) to the relation that made it. */
  private val owners = new java.util.IdentityHashMap[LogicalPlan, Integer]
  private var appliedReadings: Seq[AppliedReading] = Nil
  private var producerName: String = ""

  /** Whether the plan is stamped with a spec release before 0.91 (see PostJoinFilter). */
  private var beforePostJoinFilterClarified = false

  def relations: Seq[RelationRecord] = relationRecords.toSeq
  def functions: Seq[FunctionRecord] = functionRecords.toSeq

  /** Relations no other relation contains: the root first, then shared subtrees (ReferenceRel targets). */
  def roots: Seq[Int] = unclaimedRelations.toSeq.sortBy(i => if (relationRecords(i).kind == "root") -1 else i)
  def producer: String = producerName
  def owner(node: LogicalPlan): Option[Int] = Option(owners.get(node)).map(_.intValue)

  /** The plan shapes (shape/) that rewrote the converted plan: name and meaning. */
  def shapes: Seq[(String, String)] = appliedShapes
  override def shapes(applied: Seq[(String, String)]): Unit = appliedShapes = applied
  private var appliedShapes: Seq[(String, String)] = Nil

  /**
   * The converted plan `before` after the plan shapes rewrote it into `after`: its nodes are
   * new objects, so the operators of the relations in it are found again by the tag each
   * recorded node carries (Catalyst's transforms copy a node's tags to the node replacing
   * it). A node a shape added without a tag (a join it introduced) belongs to the relation
   * of the nearest tagged node above it; a relation whose nodes a shape merged into another
   * relation's keeps no operator of its own.
   */
  override def reshaped(before: LogicalPlan, after: LogicalPlan): Unit = {
    val inBefore = scala.collection.mutable.Set.empty[Int]
    def nodes(p: LogicalPlan): Seq[LogicalPlan] = p +:
      (p.children ++ p.innerChildren.collect { case q: LogicalPlan => q }).flatMap(nodes)
    nodes(before).foreach(n => owner(n).foreach(inBefore += _))
    val found = scala.collection.mutable.Map.empty[Int, ArrayBuffer[LogicalPlan]]
    def walk(node: LogicalPlan, inherited: Option[Int]): Unit = {
      val mine = node.getTagValue(RelationTag).collect { case (trace, id) if trace eq this => id }.orElse(inherited)
      mine.foreach { id => owners.put(node, id); found.getOrElseUpdate(id, ArrayBuffer.empty) += node }
      (node.children ++ node.innerChildren.collect { case q: LogicalPlan => q }).foreach(walk(_, mine))
    }
    walk(after, None)
    inBefore.foreach(i =>
      relationRecords(i) = relationRecords(i).copy(operators = found.get(i).map(_.toSeq).getOrElse(Nil)))
  }

  /** The producer readings that applied to this plan (readings.ProducerReadings). */
  def readings: Seq[AppliedReading] = appliedReadings

  override def plan(producer: String, readings: Seq[AppliedReading], beforePostJoinFilterClarified: Boolean): Unit = {
    producerName = producer
    appliedReadings = readings
    this.beforePostJoinFilterClarified = beforePostJoinFilterClarified
  }

  /** Relation `rel` at `at` converted to `plan`. */
  override def relation(rel: Rel, at: PlanPath, plan: LogicalPlan): Unit = {
    val kind = rel.getRelTypeCase.name.toLowerCase
    record(s"$at.$kind", kind, RelationDetails.of(rel), postJoinFilterNote(rel).toSeq, plan)
  }

  /** How a join's post_join_filter was read: the spec changed its meaning in 0.91. */
  private def postJoinFilterNote(rel: Rel): Option[String] = {
    val (has, keepsBoth) = rel.getRelTypeCase match {
      case RelTypeCase.JOIN =>
        import io.sparksubstrait.proto.JoinRel.JoinType._
        (rel.getJoin.hasPostJoinFilter,
          Set(JOIN_TYPE_INNER, JOIN_TYPE_OUTER, JOIN_TYPE_LEFT, JOIN_TYPE_RIGHT, JOIN_TYPE_LEFT_SINGLE,
            JOIN_TYPE_RIGHT_SINGLE).contains(rel.getJoin.getType))
      case RelTypeCase.HASH_JOIN => (rel.getHashJoin.hasPostJoinFilter, false)
      case RelTypeCase.MERGE_JOIN => (rel.getMergeJoin.hasPostJoinFilter, false)
      case _ => (false, false)
    }
    if (!has) None
    else if (beforePostJoinFilterClarified && !keepsBoth) {
      Some("post_join_filter read as a match predicate ANDed to the join condition (a plan stamped before spec 0.91)")
    } else Some("post_join_filter read as a filter over the join's output (spec 0.91's meaning)")
  }

  /** The root relation at `at`, named `names`, became the whole `plan`. */
  override def root(at: PlanPath, names: Seq[String], plan: LogicalPlan): Unit =
    record(at.toString, "root", Seq(s"names: ${names.mkString(", ")}"), Nil, plan)

  /**
   * A call of `fn` at `at` mapped through catalog entry `entry` to `result`; `declared` is
   * the plan's output_type, when given.
   */
  override def function(fn: DeclaredFunction, entry: Any, declared: Option[Type], at: PlanPath, result: Expression)
    : Unit = {
    val (kind, catalogName) = entry match {
      case e: FunctionCatalog.ScalarEntry => ("scalar", e.name)
      case e: FunctionCatalog.AggregateEntry => ("aggregate", e.name)
      case e: FunctionCatalog.WindowEntry => ("window", e.name)
      case _ => ("function", FunctionAliases.canonicalName(fn.baseName))
    }
    val canonical = FunctionAliases.canonicalName(fn.baseName)
    val alias = if (canonical != fn.baseName) Some(s"${fn.baseName} -> $canonical") else None
    functionRecords +=
      FunctionRecord(functionRecords.size, at.toString, kind, fn.compoundName, fn.extension, catalogName,
        alias, sparkName(result), sql(result), Nil)
    unclaimedFunctions += functionRecords.size - 1
  }

  private def record(path: String, kind: String, details: Seq[String], notes: Seq[String], plan: LogicalPlan): Unit = {
    val id = relationRecords.size
    val prefix = path + "."
    val children = claim(unclaimedRelations)(relationRecords(_).path.startsWith(prefix))
    val calls = claim(unclaimedFunctions)(functionRecords(_).path.startsWith(prefix))
    val operators = own(plan)
    operators.foreach { op => owners.put(op, id); op.setTagValue(RelationTag, (this, id)) }
    // What a converter noted on its own operators: a read's columns narrowed or widened, the
    // handler that read an extension relation.
    val noted = notes ++ operators.flatMap(op =>
      op.getTagValue(DeclaredColumnTypes.Notes).getOrElse(Nil) ++
        op.getTagValue(ExtensionRelConverter.HandlerNotes).getOrElse(Nil))
    relationRecords +=
      RelationRecord(id, path, kind, details, noted, plan.output.map(_.name), operators, children, calls)
    unclaimedRelations += id
  }

  private def claim(unclaimed: ArrayBuffer[Int])(inside: Int => Boolean): Seq[Int] = {
    val (mine, others) = unclaimed.partition(inside)
    unclaimed.clear()
    unclaimed ++= others
    mine.toSeq
  }

  /**
   * The nodes of `plan` that no relation recorded earlier made: this relation's operators.
   * Subquery plans count too: what a subquery expression wraps around its relation (an
   * aggregate, a projection) was made by the relation holding the expression.
   */
  private def own(plan: LogicalPlan): Seq[LogicalPlan] =
    if (owners.containsKey(plan)) Nil
    else plan +: (plan.children ++ plan.innerChildren.collect { case q: LogicalPlan => q }).flatMap(own)
}

private[sparksubstrait] object ExplainTrace {

  /** The trace and relation that made a Catalyst node; it survives the plan shapes' rewrites. */
  private val RelationTag = TreeNodeTag[(ExplainTrace, Int)]("sparksubstrait.relation")

  final case class RelationRecord(id: Int, path: String, kind: String, details: Seq[String], notes: Seq[String],
    output: Seq[String], operators: Seq[LogicalPlan], children: Seq[Int], functions: Seq[Int])

  final case class FunctionRecord(id: Int, path: String, kind: String, name: String, extension: Option[String],
    catalogName: String, alias: Option[String], spark: String, sql: String, notes: Seq[String])

  private val MaxSql = 200

  /** The Catalyst function a call became, past the casts to the declared type and the aggregate wrapper. */
  private def sparkName(e: Expression): String = e match {
    case c: Cast => sparkName(c.child)
    case a: AggregateExpression => a.aggregateFunction.nodeName
    // An aggregate whose result a mapping finishes (an integer sum brought into i64): the aggregate.
    case other =>
      other.collectFirst { case a: AggregateExpression => a.aggregateFunction.nodeName }.getOrElse(other.nodeName)
  }

  private def sql(e: Expression): String = {
    val text = try e.sql
    catch { case NonFatal(_) => e.toString }
    if (text.length <= MaxSql) text else text.take(MaxSql - 3) + "..."
  }
}
