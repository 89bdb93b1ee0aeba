package io.sparksubstrait
package session

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import io.sparksubstrait.proto.{Plan, Rel}
import io.sparksubstrait.proto.JoinRel.JoinType.JOIN_TYPE_INNER
import io.sparksubstrait.proto.SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST
import org.apache.spark.sql.Row
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.explain.ExplainTrace
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions, TpchSchema}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * The plan explorer's record of a conversion: every relation with the Catalyst operators it
 * became, function mappings and producer spellings, the converted tree; the same plan and
 * rows as a read; an invalid plan fails as a read fails.
 */
class ExplainSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    TpchSchema.createEmptyTables(spark)
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW er AS SELECT * FROM VALUES (1, 'a'), (2, 'b'), (2, 'c'), (NULL, 'n') AS t(k, w)")
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW el AS SELECT * FROM VALUES (1, 10L), (2, 20L), (2, 20L), (NULL, 5L), (3, NULL) AS t(k, v)")
  }

  private val mapper = new ObjectMapper()

  private def explain(plan: Plan): JsonNode =
    mapper.readTree(SubstraitPlans.explain(spark, plan.toByteArray, null, null))

  private def elements(n: JsonNode): Seq[JsonNode] = n.elements().asScala.toSeq
  private def texts(n: JsonNode): Seq[String] = elements(n).map(_.asText)

  /** join, filter, aggregate (count_star: an alias), sort, fetch, project over a virtual and a named table. */
  private def everyKind(producer: String = "spark-substrait-tests"): Plan = {
    val b = new PlanBuilder(producer)
    val left = readVirtual(schema("k" -> i32(), "v" -> i64()),
      Seq(Seq(litI32(1), litI64(10)), Seq(litI32(2), litI64(20)), Seq(litI32(2), litI64(20)),
        Seq(litNull(i32()), litI64(5)), Seq(litI32(3), litNull(i64()))))
    val right = readNamed(schema("k" -> i32(), "w" -> string()), "er")
    val joined =
      join(left, right, JOIN_TYPE_INNER, Some(b.call(b.fn("functions_comparison", "=:any_any"), field(0), field(2))))
    val filtered = filter(joined, b.call(b.fn("functions_comparison", "gt:i64_i64"), field(1), litI64(5)))
    val aggregated = aggregate(filtered, Seq(field(3)),
      Seq(
        b.measure(b.fn("functions_aggregate_generic", "count_star:"), Nil),
        b.measure(b.fn("functions_arithmetic", "sum:i64"), Seq(field(1)))))
    val sorted = sort(aggregated, field(0) -> SORT_DIRECTION_ASC_NULLS_FIRST)
    val fetched = fetchLegacy(sorted, 0, 10)
    val projected = project(fetched, b.call(b.fn("functions_arithmetic", "add:i64_i64"), field(2), litI64(1)))
    // DuckDB's project without emit outputs only its expression.
    if (producer == "DuckDB") b.plan(projected, "s1") else b.plan(projected, "w", "cnt", "s", "s1")
  }

  private val everyKindSql =
    "SELECT w, count(*) AS cnt, sum(v) AS s, sum(v) + 1 AS s1 FROM el JOIN er ON el.k = er.k WHERE v > 5 GROUP BY w ORDER BY w LIMIT 10"

  /** The relation of each kind (one each, but two reads) by kind. */
  private def byKind(doc: JsonNode): Map[String, Seq[JsonNode]] =
    elements(doc.get("relations")).groupBy(_.get("kind").asText)

  test("each relation maps to the Catalyst operators it became") {
    val doc = explain(everyKind())
    val kinds = byKind(doc)
    def operators(kind: String, i: Int = 0): Seq[String] = texts(kinds(kind)(i).get("operators"))
    assert(kinds.keySet == Set("root", "project", "fetch", "sort", "aggregate", "filter", "join", "read"), kinds.keySet)
    assert(operators("project") == Seq("Project"))
    assert(operators("fetch").contains("GlobalLimit"), operators("fetch"))
    assert(operators("sort") == Seq("Sort"))
    assert(operators("aggregate").head == "Aggregate", operators("aggregate"))
    assert(operators("filter") == Seq("Filter"))
    assert(operators("join").head == "Join", operators("join"))
    val reads = kinds("read").map(r => texts(r.get("details")).head -> texts(r.get("operators")).head).toMap
    assert(reads == Map("virtual table, 5 rows" -> "LocalRelation", "table er" -> "SubqueryAlias"), reads)

    // The tree: root -> project -> fetch -> sort -> aggregate -> filter -> join -> (read, read).
    val relations = elements(doc.get("relations"))
    def child(r: JsonNode): Seq[(String, JsonNode)] =
      elements(r.get("children")).map(c => c.get("via").asText -> relations(c.get("id").asInt))
    val root = relations(texts(doc.get("roots")).head.toInt)
    assert(root.get("kind").asText == "root" && root.get("path").asText == "relations[0].root")
    var chain = Seq.empty[String]
    var at = child(root)
    while (at.size == 1) { chain :+= at.head._2.get("kind").asText; at = child(at.head._2) }
    assert(chain == Seq("project", "fetch", "sort", "aggregate", "filter", "join"))
    assert(at.map(_._1) == Seq("left", "right"))
    assert(kinds("filter").head.get("path").asText ==
      "relations[0].root.input.project.input.fetch.input.sort.input.aggregate.input.filter")

    // Every converted Catalyst node names the relation that made it, and agrees with the relation's list.
    val nodes = elements(doc.get("catalyst").get("nodes"))
    for (r <- relations; id <- elements(r.get("catalyst")).map(_.asInt)) {
      assert(nodes(id).get("relation").asInt == r.get("id").asInt)
    }
    assert(nodes.filter(_.get("name").asText == "Filter").map(_.get("relation").asInt) ==
      Seq(kinds("filter").head.get("id").asInt))
    assert(doc.get("analyzed").asText.contains("Aggregate") && doc.get("optimized").asText.contains("Join"))
  }

  test("function mappings and producer spellings (aliases) are recorded at their relation") {
    val doc = explain(everyKind())
    val functions = elements(doc.get("functions")).map(f => f.get("name").asText -> f).toMap
    def field(name: String, key: String): String = functions(name).get(key).asText
    assert(functions.keySet == Set("=:any_any", "gt:i64_i64", "count_star:", "sum:i64", "add:i64_i64"))
    assert(field("count_star:", "alias") == "count_star -> count")
    assert(field("count_star:", "catalog") == "count" && field("count_star:", "kind") == "aggregate" &&
      field("count_star:", "spark") == "Count")
    assert(field("=:any_any", "alias") == "= -> equal" && field("=:any_any", "spark") == "EqualTo")
    assert(functions("gt:i64_i64").get("alias").isNull && field("gt:i64_i64", "spark") == "GreaterThan")
    assert(field("gt:i64_i64", "extension") == "functions_comparison")
    // An i64 sum is exact in 128 bits (IntegerSum) until its end.
    assert(field("sum:i64", "spark") == "IntegerSum" && field("add:i64_i64", "spark") == "Add" &&
      field("add:i64_i64", "kind") == "scalar")
    assert(field("gt:i64_i64", "path") ==
      "relations[0].root.input.project.input.fetch.input.sort.input.aggregate.input.filter.condition.scalar_function")
    // Each call belongs to the relation it is in.
    val relations = elements(doc.get("relations"))
    def kindOf(name: String) = relations(functions(name).get("relation").asInt).get("kind").asText
    assert(Seq("=:any_any", "gt:i64_i64", "count_star:", "sum:i64", "add:i64_i64").map(kindOf) ==
      Seq("join", "filter", "aggregate", "aggregate", "project"))
    assert(doc.get("producer").asText == "spark-substrait-tests" && doc.get("readings").isEmpty)
  }

  test("a producer's reading (ProducerReadings) is named where it applies") {
    val doc = explain(everyKind(producer = "DuckDB"))
    val readings = elements(doc.get("readings"))
    assert(readings.map(_.get("name").asText).toSet == Set("duckdb-project-without-emit"))
    assert(texts(readings.head.get("where")).exists(_.contains("ProjectRel of 1 expressions")), readings)
    val project = byKind(doc)("project").head
    assert(texts(project.get("output")).size == 1, project)
  }

  test("explaining converts to the plan a read gives: same rows as a read and as Spark SQL") {
    val plan = everyKind()
    val decoded = PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active)
    val traced = SparkShim.ofRows(spark, ReadPipeline.read(spark, decoded, None, new ExplainTrace))
    val expected = Seq(Row("a", 1L, 10L, 11L), Row("b", 2L, 40L, 41L), Row("c", 2L, 40L, 41L))
    assertRows(traced, expected, ordered = true)
    assertRows(run(plan), expected, ordered = true)
    assertRows(spark.sql(everyKindSql), expected, ordered = true)
    assert(traced.schema == run(plan).schema)
  }

  test("a shared subtree (ReferenceRel) is a tree of its own, its reference a CTE reference") {
    val b = new PlanBuilder()
    val ref =
      Rel.newBuilder().setReference(io.sparksubstrait.proto.ReferenceRel.newBuilder().setSubtreeOrdinal(0)).build()
    val plan = b.plan(emit(project(ref, field(0)), 2), "k").toBuilder
      .addRelations(0,
        io.sparksubstrait.proto.PlanRel.newBuilder().setRel(readNamed(schema("k" -> i32(), "w" -> string()), "er")))
      .build()
    val doc = explain(plan)
    val relations = elements(doc.get("relations"))
    val roots = texts(doc.get("roots")).map(_.toInt).map(relations)
    assert(roots.map(_.get("path").asText) == Seq("relations[1].root", "relations[0].rel.read"), roots)
    // The reference reads the CTE and leaves out the column that keeps it shared (SharedSubtrees).
    assert(texts(byKind(doc)("reference").head.get("operators")) == Seq("Project", "CTERelationRef"))
    assert(texts(byKind(doc)("reference").head.get("details")) == Seq("relations[0]"))
    assert(texts(roots.head.get("operators")).contains("WithCTE"), roots.head)
    assertRows(run(plan), Seq(Row(1), Row(2), Row(2), Row(null)))
  }

  test("a relation that passes its input on has no operator of its own") {
    val b = new PlanBuilder()
    val rows = Seq(Seq(litI32(2)), Seq(litI32(1)), Seq(litI32(1)), Seq(litNull(i32())))
    // (A sort of no fields passed its input on too: it is refused now, SpecRequirementsSuite.)
    val plan = b.plan(fetchLegacy(readVirtual(schema("k" -> i32()), rows), 0, -1), "k")
    val kinds = byKind(explain(plan))
    assert(texts(kinds("fetch").head.get("operators")).isEmpty)
    assert(texts(kinds("read").head.get("operators")) == Seq("LocalRelation"))
    assertRows(run(plan), Seq(Row(2), Row(1), Row(1), Row(null)))
  }

  test("the 22 TPC-H plans from isthmus: every converted node has its relation, Spark's plans are a read's") {
    val withoutIds = (s: String) => s.replaceAll("#\\d+L?", "#")
    var explained = 0
    var subqueries = 0
    for (n <- TpchSchema.QueryNumbers; plan <- TpchSchema.isthmus(TpchSchema.query(n)).toOption) {
      val read = try Right(SubstraitPlans.read(spark, plan.toByteArray))
      catch { case e: SubstraitException => Left(e) }
      read match {
        case Left(error) =>
          val e = intercept[SubstraitException](explain(plan))
          assert((e.getCondition, e.getLocation) == (error.getCondition, error.getLocation), s"q$n")
        case Right(df) =>
          explained += 1
          val doc = explain(plan)
          val relations = elements(doc.get("relations"))
          val nodes = elements(doc.get("catalyst").get("nodes"))
          nodes.foreach(node =>
            assert(!node.get("relation").isNull, s"q$n: ${node.get("text").asText} has no relation"))
          assert(relations.map(r => elements(r.get("catalyst")).size).sum == nodes.size, s"q$n")
          assert(relations.count(_.get("kind").asText == "read") ==
              nodes.count(n => n.get("name").asText == "SubqueryAlias"), s"q$n: one table lookup per read")
          // A subquery's relation hangs off the relation whose expression holds it, as its plan off the node.
          val viaSubquery =
            relations.flatMap(r => elements(r.get("children"))).count(_.get("via").asText.contains("subquery"))
          assert(viaSubquery == nodes.map(_.get("subqueries").size).sum, s"q$n")
          subqueries += viaSubquery
          assert(withoutIds(doc.get("optimized").asText) == withoutIds(df.queryExecution.optimizedPlan.treeString),
            s"q$n")
      }
    }
    assert(explained >= 15, s"only $explained TPC-H plans converted")
    assert(subqueries >= 5, s"only $subqueries subqueries in the TPC-H plans")
  }

  test("explaining an invalid plan raises the error reading it raises") {
    val b = new PlanBuilder()
    val bad = b.plan(filter(readNamed(schema("k" -> i32(), "w" -> string()), "er"),
        b.call(b.fn("functions_comparison", "no_such_function:i32"), field(0))), "k", "w")
    val location = "relations[0].root.input.filter.condition.scalar_function"
    val read = assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", location)(run(bad).collect())
    val explained = assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", location)(explain(bad))
    assert(explained.getMessage == read.getMessage)
    assertPlanError("SUBSTRAIT_MALFORMED_PLAN", "plan")(SubstraitPlans.explainJson(spark, "{\"relations\": 3}", null,
        null))
  }
}
