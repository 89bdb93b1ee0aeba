package io.sparksubstrait
package producers

import io.sparksubstrait.proto.{AggregateRel, Plan, Rel, Version}
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Producer readings (decode/readings/ProducerReadings) on hand-built plans in the producers'
 * shapes: each applies only to the releases it is keyed on (the spec version they stamp),
 * gives Spark SQL's rows for the query the producer meant, and is named on the plan. The
 * plans the producers really wrote run in tests/test_producer_fixtures.py.
 */
class ProducerReadingsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerSales(spark)
  }

  private def stamped(plan: Plan, producer: String, minor: Int): Plan =
    plan.toBuilder.setVersion(Version.newBuilder().setMinorNumber(minor).setProducer(producer)).build()

  private def readingsOf(plan: Plan): Seq[String] =
    PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active).readings.map(_.name)

  /** DataFusion 31-41's read: base_schema names without types. */
  private def namesOnlyRead(names: String*): Rel = {
    val read = readNamed(schema(names.map(_ -> i32()): _*), "sales").getRead.toBuilder
    read.getBaseSchemaBuilder.clearStruct()
    Rel.newBuilder().setRead(read).build()
  }

  test("DataFusion 31-42: names-only schemas take the table's types; a project outputs only its expressions") {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:i64_i64")
    // SELECT k2, v + 1 FROM sales WHERE v > 4, as DataFusion 41 (spec 0.51) writes it.
    val add = b.fn("functions_arithmetic", "add:i64_i64")
    val filtered = filter(namesOnlyRead("k1", "k2", "v"), b.call(gt, field(2), litI64(4)))
    val plan =
      stamped(b.plan(project(filtered, field(1), b.call(add, field(2), litI64(1))), "k2", "v1"), "datafusion", 51)
    assert(readingsOf(plan) == Seq("datafusion-names-only-schema", "datafusion-project-without-emit"))
    assertSameRows(run(plan), spark.sql("SELECT k2, v + 1 FROM sales WHERE v > 4"))
    // The same plan stamped by DataFusion 43 (spec 0.58) is read by the spec: a schema needs its types.
    assert(readingsOf(stamped(plan, "datafusion", 58)).isEmpty)
    assertPlanError("SUBSTRAIT_ROOT_NAMES_MISMATCH",
      "relations[0].root.input.project.input.filter.input.read.base_schema.names") {
      run(stamped(plan, "datafusion", 58))
    }
  }

  test("DataFusion names-only schema: a name the table does not have is the plan's error") {
    val plan = stamped(new PlanBuilder().plan(project(namesOnlyRead("k1", "nope"), field(0)), "k1"), "datafusion", 33)
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.input.read.base_schema.names[1]") {
      run(plan)
    }
  }

  test("DataFusion: an unsigned literal (variation 1) keeps its value in a wider type") {
    val u8 = litI8(200).toBuilder
    u8.getLiteralBuilder.setTypeVariationReference(1)
    val plan =
      stamped(new PlanBuilder().plan(project(readNamed(schema("k1" -> i32()), "sales"), u8.build()), "k1", "x"),
        "datafusion", 85)
    assert(readingsOf(plan) == Seq("datafusion-layout-variations"))
    assertRows(run(plan).select("x").distinct(), Seq(Row(200.toShort)))
  }

  test("DataFusion 43-55: the grouping id between keys and measures, as DataFusion's projections read it") {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:")
    val agg =
      AggregateRel.newBuilder().setInput(readNamed(schema("k1" -> i32(), "k2" -> string(), "v" -> i64()), "sales"))
        .addGroupingExpressions(field(0)).addGroupingExpressions(field(1)).addGroupingExpressions(field(0))
        .addGroupings(AggregateRel.Grouping.newBuilder().addExpressionReferences(0).addExpressionReferences(1))
        .addGroupings(AggregateRel.Grouping.newBuilder().addExpressionReferences(2))
        .addGroupings(AggregateRel.Grouping.newBuilder())
        .addMeasures(b.measure(count, Nil))
    // DataFusion's order: k1, k2, grouping id (bit mask), count; the project reads k1, k2, id, count.
    val top = project(Rel.newBuilder().setAggregate(agg).build(), field(0), field(1), field(2), field(3))
    val emitted = top.toBuilder
    emitted.getProjectBuilder.getCommonBuilder.getEmitBuilder.addOutputMapping(4).addOutputMapping(5)
      .addOutputMapping(6).addOutputMapping(7)
    val plan = stamped(b.plan(emitted.build(), "k1", "k2", "gid", "n"), "datafusion", 85)
    assert(readingsOf(plan) == Seq("datafusion-grouping-id-before-measures"))
    assertSameRows(run(plan),
      spark.sql(
        "SELECT k1, k2, CAST(grouping_id(k1, k2) AS SMALLINT), count(*) FROM sales GROUP BY ROLLUP (k1, k2)"))
  }

  /** A DataFusion u8 (its unsigned integers are variation 1): a type, or a literal. */
  private val u8: io.sparksubstrait.proto.Type = {
    val t = i8(nullable = false).toBuilder
    t.getI8Builder.setTypeVariationReference(1)
    t.build()
  }
  private def litU8(v: Int) = {
    val l = litI8(v).toBuilder
    l.getLiteralBuilder.setTypeVariationReference(1)
    l.build()
  }

  /**
   * SELECT k1, k2, GROUPING(k1), GROUPING(k2), count(*) FROM `table` GROUP BY ROLLUP (k1, k2) as DataFusion 55
   * writes it (TPC-DS q70, q86): GROUPING(k1) is CAST((id & 2) >> 1 AS INT) over its u8 grouping id, `>>` its
   * own `bitwise_shift_right`, each call declared u8.
   */
  private def groupingByShifts(producer: String, table: String = "sales"): Plan = {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:")
    val and = b.fn("functions_arithmetic", "bitwise_and")
    val shift = b.fn("functions_arithmetic", "bitwise_shift_right")
    val agg =
      AggregateRel.newBuilder().setInput(readNamed(schema("k1" -> i32(), "k2" -> string(), "v" -> i64()), table))
        .addGroupingExpressions(field(0)).addGroupingExpressions(field(1))
        .addGroupings(AggregateRel.Grouping.newBuilder().addExpressionReferences(0).addExpressionReferences(1))
        .addGroupings(AggregateRel.Grouping.newBuilder().addExpressionReferences(0))
        .addGroupings(AggregateRel.Grouping.newBuilder())
        .addMeasures(b.measure(count, Nil))
    def grouping(
      bit: Int) = cast(b.callWith(shift, Nil, Some(u8), b.callWith(and, Nil, Some(u8), field(2), litU8(1 << bit)),
        litU8(bit)), i32())
    // DataFusion's order: k1, k2, grouping id, count.
    val top = emit(project(Rel.newBuilder().setAggregate(agg).build(), field(0), field(1), grouping(1), grouping(0),
        field(3)), 4, 5, 6, 7, 8)
    stamped(b.plan(top, "k1", "k2", "g1", "g2", "n"), producer, 85)
  }

  test(
    "DataFusion: GROUPING() as shifts of its u8 grouping id gives Spark SQL's grouping(), NULL keys and an empty input") {
    val plan = groupingByShifts("datafusion")
    assert(readingsOf(plan).toSet == Set("datafusion-grouping-id-before-measures", "datafusion-layout-variations",
      "datafusion-function-spellings"))
    val sql = "SELECT k1, k2, grouping(k1), grouping(k2), count(*) FROM %s GROUP BY ROLLUP (k1, k2)"
    assertSameRows(run(plan), spark.sql(sql.format("sales")))
    // By hand: the grand total row is (NULL, NULL, 1, 1, 6); a NULL k1 grouped is (NULL, _, 0, _).
    assert(run(plan).collect().contains(Row(null, null, 1, 1, 6L)))
    spark.sql("CREATE OR REPLACE TEMP VIEW sales0 AS SELECT * FROM sales WHERE false")
    // Over no rows the empty grouping set still has its row, as in DuckDB, DataFusion and the SQL standard (Spark SQL
    // gives none).
    assertRows(run(groupingByShifts("datafusion", "sales0")), Seq(Row(null, null, 1, 1, 0L)))
    // bitwise_shift_right is DataFusion's name only (another producer's plan is refused: its first variation 1 already).
    val other = intercept[io.sparksubstrait.errors.SubstraitException](
      run(stamped(groupingByShifts("datafusion"), "someone", 85)))
    assert(Set("SUBSTRAIT_UNKNOWN_FUNCTION", "SUBSTRAIT_UNSUPPORTED_FEATURE")(other.getCondition), other.getMessage)
  }

  test("DataFusion: an unsigned integer type (variation 1) is the next wider signed type, holding u8 values over 127") {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add")
    // 100 + 100 declared u8 is 200: an i16, not an i8's overflow.
    val plan = stamped(b.plan(project(readNamed(schema("k1" -> i32()), "sales"),
          b.callWith(add, Nil, Some(u8),
            litU8(100), litU8(100))), "k1", "x"), "datafusion", 85)
    assert(readingsOf(plan) == Seq("datafusion-layout-variations"))
    val rows = run(plan).select("x")
    assert(rows.schema.head.dataType == org.apache.spark.sql.types.ShortType)
    assertRows(rows.distinct(), Seq(Row(200.toShort)))
  }

  test("a plan no producer reading is keyed on is read by the spec alone") {
    val b = new PlanBuilder()
    val plan =
      stamped(b.plan(project(readNamed(schema("k1" -> i32()), "sales"), litI32(1)), "k1", "one"), "someone", 53)
    assert(readingsOf(plan).isEmpty)
    assertSameRows(run(plan), spark.sql("SELECT k1, 1 FROM sales"))
  }

  test("the DataFrame's plan string names the readings a plan was read with") {
    val b = new PlanBuilder()
    val plan = stamped(b.plan(project(readNamed(schema("k1" -> i32()), "sales"), litI32(1)), "one"), "DuckDB", 53)
    val parsed = run(plan).queryExecution.logical.toString
    assert(parsed.contains("readings=[duckdb-project-without-emit]"), parsed)
  }
}
