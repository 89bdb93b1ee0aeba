package io.sparksubstrait
package producers

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.ObjectMapper
import io.sparksubstrait.proto.{AggregateRel, Plan, Rel, Version}
import io.sparksubstrait.proto.JoinRel.JoinType.JOIN_TYPE_INNER
import io.sparksubstrait.proto.SortField.SortDirection.SORT_DIRECTION_DESC_NULLS_LAST
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Columns a producer lays out otherwise than the spec, read where the plan and its stamp
 * leave one meaning (decode/readings): grouping sets without their index column (DataFusion
 * 31-42, isthmus 0.65-0.66: `GroupingSetsWithoutIndex`) and DuckDB 1.1's virtual table
 * without a schema (`VirtualTableWithoutSchema`). Hand-built plans in the producers' shapes
 * (tests/fixtures/producers holds the ones the producers wrote), rows against Spark SQL or
 * by hand; the same plan of another producer, or unstamped, is still refused.
 */
class ProducerLayoutsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerSales(spark)
    spark.sql("CREATE OR REPLACE TEMP VIEW sales0 AS SELECT * FROM sales WHERE false")
    spark.sql("""CREATE OR REPLACE TEMP VIEW names AS SELECT * FROM VALUES
      (1, 'one'), (1, 'uno'), (3, 'three'), (NULL, 'none'), (4, 'four') AS names(k, label)""")
  }

  private def stamped(plan: Plan, producer: String, minor: Int): Plan =
    plan.toBuilder.setVersion(Version.newBuilder().setMinorNumber(minor).setProducer(producer)).build()

  private def readingsOf(plan: Plan): Seq[String] =
    PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active).readings.map(_.name)

  private def explainedReadings(plan: Plan): Seq[String] = {
    val doc = new ObjectMapper().readTree(SubstraitPlans.explain(spark, plan.toByteArray, null, null))
    doc.get("readings").elements().asScala.map(_.get("name").asText).toSeq
  }

  private val salesRead = readNamed(schema("k1" -> i32(), "k2" -> string(), "v" -> i64()), "sales")

  /** GROUPING SETS ((k1), (k2), ()) with count(*) and sum(v), over `table`; the spec's output adds the set's index. */
  private def groupingSets(b: PlanBuilder, table: String = "sales"): Rel = {
    val read = readNamed(schema("k1" -> i32(), "k2" -> string(), "v" -> i64()), table)
    val agg = AggregateRel.newBuilder().setInput(read)
      .addGroupingExpressions(field(0)).addGroupingExpressions(field(1))
      .addGroupings(groupingOf(0)).addGroupings(groupingOf(1)).addGroupings(groupingOf())
      .addMeasures(b.measure(b.fn("functions_aggregate_generic", "count:"), Nil))
      .addMeasures(b.measure(b.fn("functions_arithmetic", "sum:i64"), Seq(field(2))))
    Rel.newBuilder().setAggregate(agg).build()
  }

  private val GroupingSetsSql = "SELECT k1, k2, count(*), sum(v) FROM sales GROUP BY GROUPING SETS ((k1), (k2), ())"

  test(
    "grouping sets without their index: the root names the keys and measures (DataFusion 31-42, isthmus 0.65-0.66)") {
    // SELECT k1, k2, COUNT(*), SUM(v) … GROUP BY GROUPING SETS: the aggregate at the root, four names for five columns.
    val b = new PlanBuilder()
    val plan = b.plan(groupingSets(b), "k1", "k2", "n", "s")
    for ((producer, minor, reading) <- Seq(("datafusion", 33, "datafusion-grouping-sets-without-index"),
        ("datafusion", 51, "datafusion-grouping-sets-without-index"),
        ("datafusion", 55, "datafusion-grouping-sets-without-index"),
        ("isthmus", 74, "isthmus-grouping-sets-without-index"),
        ("isthmus", 77, "isthmus-grouping-sets-without-index"))) {
      val p = stamped(plan, producer, minor)
      assert(readingsOf(p) == Seq(reading), s"$producer $minor")
      assert(explainedReadings(p) == Seq(reading))
      val df = run(p)
      assert(df.columns.toSeq == Seq("k1", "k2", "n", "s"))
      // NULL keys, duplicate rows, a NULL measure input: three sets, each its own rows (three rows of NULL keys).
      assertSameRows(df, spark.sql(GroupingSetsSql))
    }
    // By hand: three rows of NULL keys, each a set's own: k1 NULL in (k1), k2 NULL in (k2), and the empty set's.
    assert(run(stamped(plan, "isthmus", 74)).collect().filter(r => r.isNullAt(0) && r.isNullAt(1)).map(_.getLong(2))
      .sorted.toSeq == Seq(1L, 1L, 6L))
  }

  test("grouping sets without their index over no rows: the empty set's one row, by hand") {
    val b = new PlanBuilder()
    val plan = stamped(b.plan(groupingSets(b, "sales0"), "k1", "k2", "n", "s"), "datafusion", 51)
    // As DuckDB, DataFusion and the SQL standard: the grand total of no rows (Spark SQL gives none).
    assertRows(run(plan), Seq(Row(null, null, 0L, null)))
  }

  test("grouping sets without their index under a sort and a fetch, and under a join that numbers without it") {
    val b = new PlanBuilder()
    // ORDER BY n DESC LIMIT 3 (isthmus 0.65's g3): the root's input a fetch over a sort over the aggregate.
    val top = fetch(sort(groupingSets(b), field(2) -> SORT_DIRECTION_DESC_NULLS_LAST), 0, 3)
    val limited = stamped(b.plan(top, "k1", "k2", "n", "s"), "isthmus", 74)
    assert(readingsOf(limited) == Seq("isthmus-grouping-sets-without-index"))
    val rows = run(limited).collect().toSeq
    // By hand: all 6 rows in the empty set (n 6), then the sets' largest groups: k1 = 1 and k2 = 'a' (3 each).
    assert(rows.map(_.getLong(2)) == Seq(6L, 3L, 3L), rows)
    assert(rows.head == Row(null, null, 6L, 33L))

    // SELECT label, n FROM names JOIN (SELECT k1, COUNT(*) AS n FROM sales GROUP BY ROLLUP (k1)) t ON t.k1 = names.k
    // as isthmus 0.65 writes it (its g4): the join's columns numbered without the index (names 0-1, t 2-3), the
    // project's expressions after those four.
    val rollup = AggregateRel.newBuilder().setInput(salesRead).addGroupingExpressions(field(0))
      .addGroupings(groupingOf(0)).addGroupings(groupingOf())
      .addMeasures(b.measure(b.fn("functions_aggregate_generic", "count:"), Nil))
    val eq = b.fn("functions_comparison", "equal:any_any")
    val joined = join(readNamed(schema("k" -> i32(), "label" -> string()), "names"),
      Rel.newBuilder().setAggregate(rollup).build(), JOIN_TYPE_INNER, Some(b.call(eq, field(2), field(0))))
    val plan = stamped(b.plan(emit(project(joined, field(1), field(3)), 4, 5), "label", "n"), "isthmus", 74)
    assert(readingsOf(plan) == Seq("isthmus-grouping-sets-without-index"))
    assertSameRows(run(plan),
      spark.sql("SELECT label, n FROM names JOIN (SELECT k1, COUNT(*) AS n FROM sales GROUP BY ROLLUP (k1)) t " +
        "ON t.k1 = names.k"))
  }

  test("grouping sets of another producer, unstamped, or with an emit keep the spec's index") {
    val b = new PlanBuilder()
    val plan = b.plan(groupingSets(b), "k1", "k2", "n", "s")
    // isthmus 0.52 stamps no producer; DuckDB writes one grouping; isthmus 0.89.1 (spec 0.87) writes the emit itself.
    for ((producer, minor) <- Seq(("", 74), ("DuckDB", 53), ("isthmus", 87), ("ibis-substrait", 52), ("someone", 51))) {
      val p = stamped(plan, producer, minor)
      assert(!readingsOf(p).exists(_.contains("grouping-sets")), producer)
      assertPlanError("SUBSTRAIT_ROOT_NAMES_MISMATCH", "relations[0].root.names")(run(p))
    }
    // Five names for five columns: the index is the plan's, named (every producer).
    assertSameRows(run(stamped(b.plan(groupingSets(b), "k1", "k2", "n", "s", "set"), "", 74)).drop("set"),
      spark.sql(GroupingSetsSql))
    // isthmus 0.73's own emit of the keys and measures: nothing to read.
    val emitted = stamped(b.plan(emit(groupingSets(b), 0, 1, 2, 3), "k1", "k2", "n", "s"), "isthmus", 77)
    assert(readingsOf(emitted).isEmpty)
    assertSameRows(run(emitted), spark.sql(GroupingSetsSql))
  }

  /** DuckDB 1.1's dummy scan: a virtual table of one row {i32: 42}, no base_schema (in its legacy `values`). */
  private def dummyRow(rows: Seq[Seq[io.sparksubstrait.proto.Expression]] = Seq(Seq(litI32(42)))): Rel = {
    val read = readVirtualLegacy(schema(), rows).toBuilder
    read.getReadBuilder.clearBaseSchema()
    read.build()
  }

  test("DuckDB 1.1: SELECT without FROM reads a virtual table without schema by its literals") {
    val b = new PlanBuilder()
    // SELECT 1 AS one, 'x' AS s, 2.5 AS d, CAST(NULL AS INTEGER) AS n as DuckDB 1.1.3 writes it.
    val top = project(dummyRow(), litI32(1), litString("x"), litDecimal(new java.math.BigDecimal("2.5"), 2, 1),
      litNull(i32()))
    val plan = stamped(b.plan(top, "one", "s", "d", "n"), "DuckDB", 53)
    assert(readingsOf(plan) == Seq("duckdb-virtual-table-without-schema", "duckdb-project-without-emit"))
    assert(explainedReadings(plan) == readingsOf(plan))
    assertSameRows(run(plan), spark.sql("SELECT 1 AS one, 'x' AS s, 2.5 AS d, CAST(NULL AS INT) AS n"))
    // DuckDB 1.0 (spec 0.48) writes no such plan (its DUMMY_SCAN is an internal error); another producer's plan and an
    // unstamped one state no schema.
    for ((producer, minor) <- Seq(("DuckDB", 48), ("", 53), ("datafusion", 53), ("isthmus", 53))) {
      val p = stamped(plan, producer, minor)
      assert(!readingsOf(p).contains("duckdb-virtual-table-without-schema"), producer)
      assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.project.input.read")(run(p))
    }
  }

  test(
    "DuckDB 1.1: a virtual table's schema from rows of literals, NULLs and duplicates; rows that state none refused") {
    val b = new PlanBuilder()
    // The rows' columns read through a project (what a virtual table without schema of more rows would mean).
    val rows = Seq(Seq(litI32(1), litNull(i64())), Seq(litI32(2), litI64(5)), Seq(litI32(2), litI64(5)))
    val plan = stamped(b.plan(emit(project(dummyRow(rows), field(0), field(1)), 2, 3), "a", "b"), "DuckDB", 53)
    val df = run(plan)
    assertRows(df, Seq(Row(1, null), Row(2, 5L), Row(2, 5L)))
    assert(df.schema.map(_.nullable) == Seq(false, true))
    // No row, a typeless NULL, or a column of two types: no schema the literals state.
    val typeless = io.sparksubstrait.proto.Type.getDefaultInstance
    for (bad <- Seq(Seq(Seq(litI32(1)), Seq(litI64(1))), Seq(Seq(litNull(typeless))), Seq.empty)) {
      val p = stamped(b.plan(emit(project(dummyRow(bad), litI32(1)), 1), "one"), "DuckDB", 53)
      assert(!readingsOf(p).contains("duckdb-virtual-table-without-schema"))
      assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.project.input.read")(run(p))
    }
  }
}
