package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{
  AggregateFunction, AggregationPhase, ConsistentPartitionWindowRel, Expression, FunctionArgument, Rel, SortField
}
import io.sparksubstrait.proto.Expression.WindowFunction.{Bound, BoundsType}
import io.sparksubstrait.proto.SortField.SortDirection._

import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Window functions (ConsistentPartitionWindowRel and window-function expressions) against SQL window queries. */
class WindowsSuite extends SparkSuite with SubstraitAssertions {
  private val people = Datasets.peopleSchema

  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerPeople(spark)
    spark.sql("CREATE OR REPLACE TEMP VIEW people0 AS SELECT * FROM people WHERE false")
  }

  private val unbounded = Bound.newBuilder().setUnbounded(Bound.Unbounded.getDefaultInstance).build()
  private val current = Bound.newBuilder().setCurrentRow(Bound.CurrentRow.getDefaultInstance).build()
  private def preceding(n: Long) = Bound.newBuilder().setPreceding(Bound.Preceding.newBuilder().setOffset(n)).build()
  private def following(n: Long) = Bound.newBuilder().setFollowing(Bound.Following.newBuilder().setOffset(n)).build()

  private def relFunction(anchor: Int, args: Seq[Expression], bounds: Option[(BoundsType, Bound, Bound)] = None,
    distinct: Boolean = false) = {
    val f = ConsistentPartitionWindowRel.WindowRelFunction.newBuilder().setFunctionReference(anchor)
      .setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
    if (distinct) f.setInvocation(AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_DISTINCT)
    args.foreach(a => f.addArguments(FunctionArgument.newBuilder().setValue(a)))
    bounds.foreach { case (t, lo, hi) => f.setBoundsType(t).setLowerBound(lo).setUpperBound(hi) }
    f.build()
  }

  /** A window-function expression. */
  private def windowFn(anchor: Int, args: Seq[Expression], partitions: Seq[Expression],
    sorts: Seq[(Expression, SortField.SortDirection)]) = {
    val f = Expression.WindowFunction.newBuilder().setFunctionReference(anchor).setPhase(
      AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
    args.foreach(a => f.addArguments(FunctionArgument.newBuilder().setValue(a)))
    partitions.foreach(f.addPartitions)
    sorts.foreach { case (e, d) => f.addSorts(SortField.newBuilder().setExpr(e).setDirection(d)) }
    Expression.newBuilder().setWindowFunction(f).build()
  }

  private def windowRel(functions: Seq[ConsistentPartitionWindowRel.WindowRelFunction],
    sorts: Seq[(Int, SortField.SortDirection)]) =
    Rel.newBuilder().setWindow(ConsistentPartitionWindowRel.newBuilder().setInput(readNamed(people, "people"))
        .addPartitionExpressions(field(3))
        .addAllSorts(java.util.Arrays.asList(sorts.map { case (i, d) =>
          SortField.newBuilder().setExpr(field(i)).setDirection(d).build()
        }: _*))
        .addAllWindowFunctions(java.util.Arrays.asList(functions: _*))).build()

  for (table <- Seq("people", "people0")) {
    test(s"grouping sets with the empty set over a window's result: the union's branches share the input ($table)") {
      // SELECT grp, sum(r), count(*) FROM (SELECT grp, rank() OVER (ORDER BY id) r FROM t) GROUP BY ROLLUP (grp):
      // the ROLLUP is a UNION of two aggregates over the window's result (TPC-DS q70 as DataFusion writes it), which
      // Spark's analyzer could not de-duplicate as two copies (MISSING_ATTRIBUTES); one shared reference it can.
      val b = new PlanBuilder()
      val ranked = emit(project(readNamed(people, table), field(3),
          windowFn(b.fn("functions_arithmetic", "rank"), Nil, Nil, Seq(field(0) -> SORT_DIRECTION_ASC_NULLS_FIRST))),
        4, 5)
      val sets = io.sparksubstrait.proto.AggregateRel.newBuilder().setInput(ranked).addGroupingExpressions(field(0))
        .addGroupings(io.sparksubstrait.proto.AggregateRel.Grouping.newBuilder().addExpressionReferences(0))
        .addGroupings(io.sparksubstrait.proto.AggregateRel.Grouping.newBuilder())
        .addMeasures(b.measure(b.fn("functions_arithmetic", "sum:i64"), Seq(field(1))))
        .addMeasures(b.measure(b.fn("functions_aggregate_generic", "count:"), Nil))
      val df = run(b.plan(Rel.newBuilder().setAggregate(sets).build(), "grp", "s", "n", "set"))
      val sql = spark.sql(s"""SELECT grp, CAST(sum(r) AS BIGINT), count(*), CAST(grouping_id() AS INT)
        FROM (SELECT grp, rank() OVER (ORDER BY id ASC NULLS FIRST) r FROM $table) GROUP BY ROLLUP (grp)""")
      // Over no rows the empty set still has its row (SQL's, DuckDB's); Spark SQL's ROLLUP gives none.
      if (table == "people") assertSameRows(df, sql)
      else assertRows(df, Seq(org.apache.spark.sql.Row(null, null, 0L, 1)))
      // The shared input is inlined into each branch again: the plan that runs reads the table twice, as before.
      if (table == "people")
        assert(df.queryExecution.optimizedPlan.collectLeaves().size == 2, df.queryExecution.optimizedPlan)
    }
  }

  test("ConsistentPartitionWindowRel: ranking, offset, framed and aggregate functions with ROWS and RANGE bounds") {
    val b = new PlanBuilder()
    def w(name: String) = b.fn("functions_arithmetic", name)
    val functions = Seq(
      relFunction(w("row_number"), Nil), relFunction(w("rank"), Nil), relFunction(w("dense_rank"), Nil),
      relFunction(w("percent_rank"), Nil), relFunction(w("cume_dist"), Nil), relFunction(w("ntile"), Seq(litI32(2))),
      relFunction(w("lead:any"), Seq(field(0))),
      relFunction(w("lag:any_i32_any"), Seq(field(0), litI32(2), litI32(-1))),
      relFunction(b.fn("functions_arithmetic", "sum:fp64"), Seq(field(2)),
        Some((BoundsType.BOUNDS_TYPE_ROWS, unbounded, current))),
      relFunction(w("first_value:any"), Seq(field(1))),
      relFunction(w("last_value:any"), Seq(field(1)), Some((BoundsType.BOUNDS_TYPE_ROWS, preceding(1), following(1)))),
      relFunction(b.fn("functions_aggregate_generic", "count:any"), Seq(field(0)),
        Some((BoundsType.BOUNDS_TYPE_RANGE, preceding(1), following(1)))),
      relFunction(w("nth_value:any_i32"), Seq(field(1), litI32(2)),
        Some((BoundsType.BOUNDS_TYPE_ROWS, unbounded, unbounded))))
    val df = run(b.plan(windowRel(functions, Seq(0 -> SORT_DIRECTION_ASC_NULLS_FIRST)),
        Seq("id", "name", "score", "grp") ++ functions.indices.map(i => s"f$i"): _*))
    val w0 = "PARTITION BY grp ORDER BY id ASC NULLS FIRST"
    assertSameRows(df,
      spark.sql(s"""SELECT *, row_number() OVER w, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w,
      cume_dist() OVER w, ntile(2) OVER w, lead(id) OVER w, lag(id, 2, -1) OVER w,
      sum(score) OVER ($w0 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
      first_value(name) OVER ($w0 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
      last_value(name) OVER ($w0 ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
      count(id) OVER ($w0 RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING),
      nth_value(name, 2) OVER ($w0 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
      FROM people WINDOW w AS ($w0)"""))
  }

  test("string_agg over a window: the frame's non-NULL values in the window's order, NULL for none") {
    val b = new PlanBuilder()
    val agg = relFunction(b.fn("functions_string", "string_agg:str_str"), Seq(field(1), litString("|")),
      Some((BoundsType.BOUNDS_TYPE_ROWS, unbounded, current)))
    // A frame of the row alone: its name, NULL when it has none (no values).
    val own = relFunction(b.fn("functions_string", "string_agg:str_str"), Seq(field(1), litString("|")),
      Some((BoundsType.BOUNDS_TYPE_ROWS, current, current)))
    val df = run(b.plan(windowRel(Seq(agg, own), Seq(0 -> SORT_DIRECTION_ASC_NULLS_FIRST)), "id", "name", "score",
        "grp", "names", "own"))
    // Each frame's names, by hand (Spark 3.5 has no listagg: collect_list joined there).
    val expected = Seq(Row(1, "ann", 3.5, "a", "ann", "ann"), Row(3, null, 1.0, "a", "ann", null),
      Row(3, null, 1.0, "a", "ann", null), Row(5, "cat", 2.0, "a", "ann|cat", "cat"),
      Row(null, "eve", 0.0, "b", "eve", "eve"), Row(2, "bob", null, "b", "eve|bob", "bob"),
      Row(4, "dan", -2.0, null, "dan", "dan"))
    assertRows(df, expected)
    if (!org.apache.spark.SPARK_VERSION.startsWith("3.")) {
      assertSameRows(df,
        spark.sql("""SELECT *, listagg(name, '|') OVER (PARTITION BY grp ORDER BY id ASC NULLS FIRST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), listagg(name, '|') OVER (PARTITION BY grp
        ORDER BY id ASC NULLS FIRST ROWS BETWEEN CURRENT ROW AND CURRENT ROW) FROM people"""))
    }
  }

  test(
    "window-function expressions in a project, each with its own partitions and order; default bounds are the whole partition") {
    val b = new PlanBuilder()
    val sum = windowFn(b.fn("functions_arithmetic", "sum:fp64"), Seq(field(2)), Seq(field(3)),
      Seq(field(0) -> SORT_DIRECTION_ASC_NULLS_LAST))
    val rank = windowFn(b.fn("functions_arithmetic", "rank"), Nil, Nil, Seq(field(2) -> SORT_DIRECTION_DESC_NULLS_LAST))
    val df = run(b.plan(emit(project(readNamed(people, "people"), sum, rank), 0, 4, 5), "id", "s", "r"))
    assertSameRows(df,
      spark.sql("""SELECT id, sum(score) OVER (PARTITION BY grp ORDER BY id ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), rank() OVER (ORDER BY score DESC NULLS LAST) FROM people"""))
  }

  test("DISTINCT window aggregates, bounds without an offset and RANGE offsets over several keys are errors") {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:any")
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.window.window_functions[0].invocation") {
      run(b.plan(windowRel(Seq(relFunction(count, Seq(field(0)), distinct = true)), Nil), "a", "b", "c", "d", "e"))
    }
    // The deprecated int64 offset counts only when non-zero: a bound with neither it nor offset_expr is invalid.
    assertPlanError("SUBSTRAIT_MISSING_FIELD",
      "relations[0].root.input.window.window_functions[0].lower_bound.preceding") {
      run(b.plan(windowRel(Seq(relFunction(count, Seq(field(0)),
                Some((BoundsType.BOUNDS_TYPE_ROWS, preceding(0), current)))),
            Seq(0 -> SORT_DIRECTION_ASC_NULLS_FIRST)), "a", "b", "c", "d", "e"))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.window.window_functions[0].lower_bound.preceding") {
      run(b.plan(windowRel(Seq(relFunction(count, Seq(field(0)),
                Some((BoundsType.BOUNDS_TYPE_RANGE, preceding(1), current)))),
            Seq(0 -> SORT_DIRECTION_ASC_NULLS_FIRST, 2 -> SORT_DIRECTION_ASC_NULLS_FIRST)), "a", "b", "c", "d", "e"))
    }
  }

  test(
    "bounds as offset expressions (spec 0.106+): ROWS, RANGE over numbers, decimals, dates and timestamps, zero as the current row") {
    spark.sql("""CREATE OR REPLACE TEMP VIEW events AS SELECT grp, CAST(d AS DATE) d, CAST(ts AS TIMESTAMP) ts,
      CAST(amt AS DECIMAL(10,2)) amt, CAST(n AS INT) n FROM VALUES
      ('a', '2024-01-01', '2024-01-01 10:00:00', 1.00, 1), ('a', '2024-01-02', '2024-01-01 10:30:00', 2.50, 2),
      ('a', '2024-01-02', '2024-01-01 12:00:00', 2.50, 2), ('a', '2024-01-05', '2024-01-02 10:00:00', 4.00, 5),
      ('a', NULL, NULL, NULL, NULL), ('b', '2024-03-01', '2024-03-01 00:00:00', 10.00, 7), ('b', '2024-03-03', '2024-03-01 00:59:59', 11.50, 9)
      AS t(grp, d, ts, amt, n)""")
    val events =
      schema("grp" -> string(), "d" -> date(), "ts" -> precisionTimestampTz(6), "amt" -> decimal(10, 2), "n" -> i32())
    def by(e: Expression) = Bound.newBuilder().setPreceding(Bound.Preceding.newBuilder().setOffsetExpr(e)).build()
    def ahead(e: Expression) = Bound.newBuilder().setFollowing(Bound.Following.newBuilder().setOffsetExpr(e)).build()
    val b = new PlanBuilder()
    val sum = b.fn("functions_arithmetic", "sum:i32")
    val count = b.fn("functions_aggregate_generic", "count:any")
    def over(key: Int, fn: Int, bounds: (BoundsType, Bound, Bound)) =
      Rel.newBuilder().setWindow(ConsistentPartitionWindowRel.newBuilder().setInput(readNamed(events, "events"))
          .addPartitionExpressions(field(0)).addSorts(
            SortField.newBuilder().setExpr(field(key)).setDirection(SORT_DIRECTION_ASC_NULLS_FIRST))
          .addWindowFunctions(relFunction(fn, Seq(field(4)), Some(bounds)))).build()
    def check(key: Int, fn: Int, bounds: (BoundsType, Bound, Bound), sql: String) =
      assertSameRows(run(b.plan(over(key, fn, bounds), "grp", "d", "ts", "amt", "n", "w")),
        spark.sql(s"SELECT *, $sql FROM events"))
    val w = "PARTITION BY grp ORDER BY"
    check(4, sum, (BoundsType.BOUNDS_TYPE_ROWS, by(litI64(2)), ahead(litI64(1))),
      s"sum(n) OVER ($w n ASC NULLS FIRST ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING)")
    check(4, sum, (BoundsType.BOUNDS_TYPE_ROWS, by(litI64(0)), ahead(litI64(0))),
      s"sum(n) OVER ($w n ASC NULLS FIRST ROWS BETWEEN CURRENT ROW AND CURRENT ROW)")
    check(4, sum, (BoundsType.BOUNDS_TYPE_RANGE, by(litI32(2)), current),
      s"sum(n) OVER ($w n ASC NULLS FIRST RANGE BETWEEN 2 PRECEDING AND CURRENT ROW)")
    check(3, count, (BoundsType.BOUNDS_TYPE_RANGE, by(litDecimal(new java.math.BigDecimal("1.50"), 10, 2)), current),
      s"count(n) OVER ($w amt ASC NULLS FIRST RANGE BETWEEN 1.50 PRECEDING AND CURRENT ROW)")
    check(1, count, (BoundsType.BOUNDS_TYPE_RANGE, by(litIntervalDay(1, 0)), ahead(litIntervalDay(2, 0))),
      // Over a date, Spark counts days as an integer (3.5 refuses day intervals there).
      s"count(n) OVER ($w d ASC NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING)")
    check(2, count, (BoundsType.BOUNDS_TYPE_RANGE, by(litIntervalDay(0, 3600)), current),
      s"count(n) OVER ($w ts ASC NULLS FIRST RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)")
    // NULL, negative, per-row and mistyped offsets are errors.
    val at = "relations[0].root.input.window.window_functions[0].lower_bound.preceding.offset_expr"
    assertPlanError("SUBSTRAIT_INVALID_PLAN", at)(run(b.plan(over(4, sum,
            (BoundsType.BOUNDS_TYPE_ROWS, by(litNull(i64())), current)), "a", "b", "c", "d", "e", "f")))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", at)(run(b.plan(over(4, sum,
            (BoundsType.BOUNDS_TYPE_ROWS, by(litI64(-1)), current)), "a", "b", "c", "d", "e", "f")))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", at)(run(b.plan(over(4, sum,
            (BoundsType.BOUNDS_TYPE_ROWS, by(field(4)), current)), "a", "b", "c", "d", "e", "f")))
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", at)(run(b.plan(over(4, sum,
            (BoundsType.BOUNDS_TYPE_ROWS, by(litFp64(1.5)), current)), "a", "b", "c", "d", "e", "f")))
  }

  test(
    "window functions where Spark takes none (a filter's condition, a sort key, an aggregate's argument and key) are computed over the relation's input") {
    val b = new PlanBuilder()
    val rank = windowFn(b.fn("functions_arithmetic", "rank"), Nil, Seq(field(3)),
      Seq(field(2) -> SORT_DIRECTION_DESC_NULLS_LAST))
    val rowNumber = windowFn(b.fn("functions_arithmetic", "row_number"), Nil, Nil,
      Seq(field(0) -> SORT_DIRECTION_ASC_NULLS_LAST, field(1) -> SORT_DIRECTION_ASC_NULLS_LAST))
    val lte = b.fn("functions_comparison", "lte:any_any")
    val max = b.fn("functions_arithmetic", "max:i64")
    val rankSql = "rank() OVER (PARTITION BY grp ORDER BY score DESC NULLS LAST)"
    val rowNumberSql = "row_number() OVER (ORDER BY id ASC NULLS LAST, name ASC NULLS LAST)"
    for (table <- Seq("people", "people0")) {
      // QUALIFY: each group's best scores (ties kept, a NULL group is a group).
      val qualify =
        run(b.plan(filter(readNamed(people, table), b.call(lte, rank, litI64(1))), "id", "name", "score", "grp"))
      assertSameRows(qualify,
        spark.sql(s"SELECT id, name, score, grp FROM (SELECT *, $rankSql r FROM $table) WHERE r <= 1"))
      // A sort by a window: the rows in reverse row-number order.
      val sorted = run(b.plan(sort(readNamed(people, table), rowNumber -> SORT_DIRECTION_DESC_NULLS_LAST), "id", "name",
          "score", "grp"))
      assert(sorted.collect().toSeq == spark.sql(
        s"SELECT id, name, score, grp FROM (SELECT *, $rowNumberSql n FROM $table) ORDER BY n DESC").collect().toSeq)
      // An aggregate of a window, grouped by a window: per rank, the highest row number.
      val grouped =
        run(b.plan(aggregate(readNamed(people, table), Seq(rank), Seq(b.measure(max, Seq(rowNumber)))), "r", "m"))
      assertSameRows(grouped,
        spark.sql(s"SELECT r, max(n) FROM (SELECT $rankSql r, $rowNumberSql n FROM $table) GROUP BY r"))
    }
    // A join's condition has no single input to compute a window over: Spark refuses it, and so do we, at conversion.
    val joined = b.plan(join(readNamed(people, "people"), readNamed(people, "people"),
        io.sparksubstrait.proto.JoinRel.JoinType.JOIN_TYPE_INNER,
        Some(b.call(lte, rank, litI64(1)))), (1 to 8).map(i => s"c$i"): _*)
    val e = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input")(run(joined))
    assert(e.getMessage.contains("Spark's analyzer refuses"), e.getMessage)
  }
}
