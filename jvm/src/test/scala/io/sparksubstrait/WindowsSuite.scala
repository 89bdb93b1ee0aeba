package io.sparksubstrait

import io.sparksubstrait.proto.{AggregateFunction, AggregationPhase, ConsistentPartitionWindowRel, Expression, FunctionArgument, Rel, SortField}
import io.sparksubstrait.proto.Expression.WindowFunction.{Bound, BoundsType}
import io.sparksubstrait.proto.SortField.SortDirection._

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Window functions (ConsistentPartitionWindowRel and window-function expressions) against SQL window queries. */
class WindowsSuite extends SparkSuite with SubstraitAssertions {
  private val people = Datasets.peopleSchema

  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerPeople(spark)
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

  private def windowRel(functions: Seq[ConsistentPartitionWindowRel.WindowRelFunction], sorts: Seq[(Int, SortField.SortDirection)]) =
    Rel.newBuilder().setWindow(ConsistentPartitionWindowRel.newBuilder().setInput(readNamed(people, "people"))
      .addPartitionExpressions(field(3))
      .addAllSorts(java.util.Arrays.asList(sorts.map { case (i, d) => SortField.newBuilder().setExpr(field(i)).setDirection(d).build() }: _*))
      .addAllWindowFunctions(java.util.Arrays.asList(functions: _*))).build()

  test("ConsistentPartitionWindowRel: ranking, offset, framed and aggregate functions with ROWS and RANGE bounds") {
    val b = new PlanBuilder()
    def w(name: String) = b.fn("functions_arithmetic", name)
    val functions = Seq(
      relFunction(w("row_number"), Nil), relFunction(w("rank"), Nil), relFunction(w("dense_rank"), Nil),
      relFunction(w("percent_rank"), Nil), relFunction(w("cume_dist"), Nil), relFunction(w("ntile"), Seq(litI32(2))),
      relFunction(w("lead:any"), Seq(field(0))), relFunction(w("lag:any_i32_any"), Seq(field(0), litI32(2), litI32(-1))),
      relFunction(b.fn("functions_arithmetic", "sum:fp64"), Seq(field(2)), Some((BoundsType.BOUNDS_TYPE_ROWS, unbounded, current))),
      relFunction(w("first_value:any"), Seq(field(1))),
      relFunction(w("last_value:any"), Seq(field(1)), Some((BoundsType.BOUNDS_TYPE_ROWS, preceding(1), following(1)))),
      relFunction(b.fn("functions_aggregate_generic", "count:any"), Seq(field(0)), Some((BoundsType.BOUNDS_TYPE_RANGE, preceding(1), following(1)))),
      relFunction(w("nth_value:any_i32"), Seq(field(1), litI32(2)), Some((BoundsType.BOUNDS_TYPE_ROWS, unbounded, unbounded))))
    val df = run(b.plan(windowRel(functions, Seq(0 -> SORT_DIRECTION_ASC_NULLS_FIRST)),
      Seq("id", "name", "score", "grp") ++ functions.indices.map(i => s"f$i"): _*))
    val w0 = "PARTITION BY grp ORDER BY id ASC NULLS FIRST"
    assertSameRows(df, spark.sql(s"""SELECT *, row_number() OVER w, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w,
      cume_dist() OVER w, ntile(2) OVER w, lead(id) OVER w, lag(id, 2, -1) OVER w,
      sum(score) OVER ($w0 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
      first_value(name) OVER ($w0 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
      last_value(name) OVER ($w0 ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
      count(id) OVER ($w0 RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING),
      nth_value(name, 2) OVER ($w0 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
      FROM people WINDOW w AS ($w0)"""))
  }

  test("string_agg over a window: the frame's non-NULL values in the window's order (Spark 4.0+)") {
    val b = new PlanBuilder()
    val agg = relFunction(b.fn("functions_string", "string_agg:str_str"), Seq(field(1), litString("|")),
      Some((BoundsType.BOUNDS_TYPE_ROWS, unbounded, current)))
    def plan = b.plan(windowRel(Seq(agg), Seq(0 -> SORT_DIRECTION_ASC_NULLS_FIRST)), "id", "name", "score", "grp", "names")
    if (org.apache.spark.SPARK_VERSION.startsWith("3.")) {
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.window.window_functions[0]")(run(plan))
    } else {
      assertSameRows(run(plan), spark.sql("""SELECT *, listagg(name, '|') OVER (PARTITION BY grp ORDER BY id ASC NULLS FIRST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM people"""))
    }
  }

  test("window-function expressions in a project, each with its own partitions and order; default bounds are the whole partition") {
    val b = new PlanBuilder()
    def windowFn(anchor: Int, args: Seq[Expression], partitions: Seq[Expression], sorts: Seq[(Expression, SortField.SortDirection)]) = {
      val f = Expression.WindowFunction.newBuilder().setFunctionReference(anchor).setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
      args.foreach(a => f.addArguments(FunctionArgument.newBuilder().setValue(a)))
      partitions.foreach(f.addPartitions)
      sorts.foreach { case (e, d) => f.addSorts(SortField.newBuilder().setExpr(e).setDirection(d)) }
      Expression.newBuilder().setWindowFunction(f).build()
    }
    val sum = windowFn(b.fn("functions_arithmetic", "sum:fp64"), Seq(field(2)), Seq(field(3)), Seq(field(0) -> SORT_DIRECTION_ASC_NULLS_LAST))
    val rank = windowFn(b.fn("functions_arithmetic", "rank"), Nil, Nil, Seq(field(2) -> SORT_DIRECTION_DESC_NULLS_LAST))
    val df = run(b.plan(emit(project(readNamed(people, "people"), sum, rank), 0, 4, 5), "id", "s", "r"))
    assertSameRows(df, spark.sql("""SELECT id, sum(score) OVER (PARTITION BY grp ORDER BY id ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), rank() OVER (ORDER BY score DESC NULLS LAST) FROM people"""))
  }

  test("DISTINCT window aggregates, bounds without an offset and RANGE offsets over several keys are errors") {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:any")
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.window.window_functions[0].invocation") {
      run(b.plan(windowRel(Seq(relFunction(count, Seq(field(0)), distinct = true)), Nil), "a", "b", "c", "d", "e"))
    }
    // The deprecated int64 offset counts only when non-zero: a bound with neither it nor offset_expr is invalid.
    assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.window.window_functions[0].lower_bound.preceding") {
      run(b.plan(windowRel(Seq(relFunction(count, Seq(field(0)), Some((BoundsType.BOUNDS_TYPE_ROWS, preceding(0), current)))),
        Seq(0 -> SORT_DIRECTION_ASC_NULLS_FIRST)), "a", "b", "c", "d", "e"))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.window.window_functions[0].lower_bound.preceding") {
      run(b.plan(windowRel(Seq(relFunction(count, Seq(field(0)), Some((BoundsType.BOUNDS_TYPE_RANGE, preceding(1), current)))),
        Seq(0 -> SORT_DIRECTION_ASC_NULLS_FIRST, 2 -> SORT_DIRECTION_ASC_NULLS_FIRST)), "a", "b", "c", "d", "e"))
    }
  }
}
