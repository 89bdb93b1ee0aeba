package io.sparksubstrait.explain

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.sparksubstrait.explain.Json._

/**
 * The explain document (docs/explain.md describes its fields): the Substrait relations with
 * the Catalyst operators each became, the function mappings, the converted Catalyst tree
 * with each node's relation, and Spark's analyzed and optimized plans as text. The Python
 * package renders it (text, SVG, HTML); tools read it as is.
 */
private[explain] object ExplainJson {
  val FormatVersion = 1
  private val MaxNodeText = 240
  private val MaxFields = 25

  def apply(trace: ExplainTrace, converted: LogicalPlan, analyzed: String, optimized: String,
    userFunctions: Seq[String] = Nil): String = {
    // Relations are recorded children first; the document numbers them from the root down.
    val relations = trace.relations
    val preorder = ArrayBuffer.empty[Int]
    def visit(id: Int): Unit = { preorder += id; relations(id).children.foreach(visit) }
    trace.roots.foreach(visit)
    val number = preorder.zipWithIndex.toMap
    val (catalyst, ids) = catalystNodes(converted, trace, number)
    val relationOf = relations.flatMap(r => r.functions.map(_ -> number(r.id))).toMap
    write(Obj(Seq(
          "format" -> Num(FormatVersion),
          "producer" -> Str(trace.producer),
          "readings" -> Arr(trace.readings.map { r =>
            Obj(Seq("name" -> Str(r.name), "releases" -> Str(r.releases), "meaning" -> Str(r.meaning),
                "warning" -> Bool(r.isWarning), "where" -> strs(r.where)))
          }),
          "shapes" -> Arr(trace.shapes.map { case (name, meaning) =>
            Obj(Seq("name" -> Str(name), "meaning" -> Str(meaning)))
          }),
          "userFunctions" -> strs(userFunctions),
          "roots" -> nums(trace.roots.map(number)),
          "relations" -> Arr(preorder.toSeq.map(relations).map { r =>
            Obj(Seq(
                "id" -> Num(number(r.id)),
                "path" -> Str(r.path),
                "kind" -> Str(r.kind),
                "details" -> strs(r.details),
                "output" -> strs(r.output),
                "operators" -> strs(r.operators.map(_.nodeName)),
                "catalyst" -> nums(r.operators.flatMap(o => Option(ids.get(o)).map(_.intValue))),
                "children" ->
                  Arr(r.children.map(c => Obj(Seq("id" -> Num(number(c)), "via" -> Str(via(r.path, relations(c))))))),
                "functions" -> nums(r.functions),
                "notes" -> strs(r.notes)))
          }),
          "functions" -> Arr(trace.functions.map { f =>
            Obj(Seq(
                "id" -> Num(f.id),
                "path" -> Str(f.path),
                "relation" -> relationOf.get(f.id).map(i => Num(i): Value).getOrElse(Null),
                "kind" -> Str(f.kind),
                "name" -> Str(f.name),
                "extension" -> str(f.extension),
                "catalog" -> Str(f.catalogName),
                "alias" -> str(f.alias),
                "spark" -> Str(f.spark),
                "sql" -> Str(f.sql),
                "notes" -> strs(f.notes)))
          }),
          "catalyst" -> Obj(Seq("root" -> Num(0), "nodes" -> Arr(catalyst))),
          "analyzed" -> Str(analyzed),
          "optimized" -> Str(optimized))))
  }

  /** How a child relation hangs off its parent: the location between them (`input`, `right`, `condition.subquery…`). */
  private def via(parentPath: String, child: ExplainTrace.RelationRecord): String =
    child.path.stripPrefix(parentPath + ".").stripSuffix("." + child.kind)

  /** The converted tree in pre-order (children, then subqueries), each node with its relation. */
  private def catalystNodes(root: LogicalPlan, trace: ExplainTrace, relationNumber: Map[Int, Int])
    : (Seq[Value], java.util.IdentityHashMap[LogicalPlan, Integer]) = {
    val ids = new java.util.IdentityHashMap[LogicalPlan, Integer]
    val order = ArrayBuffer.empty[LogicalPlan]
    def number(p: LogicalPlan): Unit = if (!ids.containsKey(p)) {
      ids.put(p, order.size)
      order += p
      p.children.foreach(number)
      subqueries(p).foreach(number)
    }
    number(root)
    val nodes = order.toSeq.map { p =>
      Obj(Seq(
          "id" -> Num(ids.get(p).longValue),
          "name" -> Str(p.nodeName),
          "text" -> Str(oneLine(p)),
          "children" -> nums(p.children.map(ids.get(_).intValue)),
          "subqueries" -> nums(subqueries(p).map(ids.get(_).intValue)),
          "relation" -> trace.owner(p).map(i => Num(relationNumber(i)): Value).getOrElse(Null)))
    }
    (nodes, ids)
  }

  private def subqueries(p: LogicalPlan): Seq[LogicalPlan] = p.innerChildren.collect { case q: LogicalPlan => q }

  private def oneLine(p: LogicalPlan): String = {
    val text = p.simpleString(MaxFields).replaceAll("\\s+", " ").trim
    if (text.length <= MaxNodeText) text else text.take(MaxNodeText - 3) + "..."
  }
}
