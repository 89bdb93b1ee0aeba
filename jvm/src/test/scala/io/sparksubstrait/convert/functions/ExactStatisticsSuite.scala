package io.sparksubstrait
package convert.functions

import java.math.{BigDecimal => JBigDecimal}

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Literal
import org.apache.spark.sql.catalyst.expressions.codegen.GenerateMutableProjection
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, TypedImperativeAggregate}
import org.apache.spark.sql.execution.WholeStageCodegenExec
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanHelper
import org.apache.spark.sql.execution.aggregate.{HashAggregateExec, ObjectHashAggregateExec, SortAggregateExec}
import org.apache.spark.sql.types.{DoubleType, LongType}

import io.sparksubstrait.errors.SubstraitFunctionException
import io.sparksubstrait.proto.{
  AggregateFunction, AggregateRel, AggregationPhase, Expression, FunctionArgument, FunctionOption, Plan, SortField, Type
}
import io.sparksubstrait.proto.Expression.WindowFunction.{Bound, BoundsType}
import io.sparksubstrait.runtime.{CorrectlyRounded, ExactMoments, ExactRatio, IntegerMoments, IntegerMomentsResult}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * variance, std_dev, corr, median and product exactly, in every rounding mode, with rows worked
 * out by hand (exact fractions rounded once): the differential run found Spark's own aggregates
 * (rounded at every update, squares overflowing, percentile interpolating in double) wrong.
 */
class ExactStatisticsSuite extends SparkSuite with SubstraitAssertions {
  private val Arithmetic = "functions_arithmetic"
  private val Max = Double.MaxValue

  /**
   * `fn` over groups of rows of column(s) `types` (group g: the rows of groups(g)), plus a group
   * of NULLs and, separately, the empty input; the result per group, the NULL group as key -1,
   * the empty input as key -2.
   */
  private def perGroup(fn: String, types: Seq[Type], groups: Seq[Seq[Seq[Expression]]], enums: Seq[String] = Nil,
    options: Seq[(String, Seq[String])] = Nil): Map[Int, Any] = {
    def planOver(rows: Seq[Seq[Expression]], keep: Boolean): Plan = {
      val pb = new PlanBuilder()
      val table = readVirtual(schema(("g" -> i32()) +: types.zipWithIndex.map { case (t, i) => s"c$i" -> t }: _*), rows)
      val m = pb.measure(pb.fn(Arithmetic, fn), types.indices.map(i => field(i + 1)), enums = enums, options = options)
      pb.plan(aggregate(if (keep) table else filter(table, litBool(false)), Seq(field(0)), Seq(m)), "g", "r")
    }
    val rows = groups.zipWithIndex.flatMap { case (g, i) => g.map(litI32(i) +: _) } :+
      (litI32(-1) +: types.map(litNull))
    val grouped = run(planOver(rows, keep = true)).collect().map(r => r.getInt(0) -> r.get(1)).toMap
    // The empty input, without grouping keys: one row.
    val pb = new PlanBuilder()
    val table = readVirtual(schema(types.zipWithIndex.map { case (t, i) => s"c$i" -> t }: _*), Seq(types.map(litNull)))
    val m = pb.measure(pb.fn(Arithmetic, fn), types.indices.map(field), enums = enums, options = options)
    val empty = run(pb.plan(aggregate(filter(table, litBool(false)), Nil, Seq(m)), "r")).collect().head.get(0)
    grouped + (-2 -> empty)
  }

  private def fp64s(vs: Double*): Seq[Seq[Expression]] = vs.map(v => Seq(litFp64(v)))
  private def modes(all: String*): Seq[(String, Seq[String])] = Seq("rounding" -> all)

  test(
    "variance and std_dev: the exact value rounded once in the mode; NULLs skipped; NULL for no values or a sample of one") {
    // x = 1e8 + (1, 2, 4): Σ(x - mean)² = 14/3; the sample variance 7/3, its root 1.52752523165194...
    val hard = fp64s(100000001.0, 100000002.0, 100000004.0)
    val groups = Seq(hard, fp64s(5.0, 5.0, 5.0, 5.0), fp64s(42.0), fp64s(1.0, Double.NaN), fp64s(-Max, Max))
    val expected = Map(
      "TIE_TO_EVEN" -> (2.3333333333333335, 1.5275252316519468),
      "TRUNCATE" -> (2.333333333333333, 1.5275252316519465),
      "CEILING" -> (2.3333333333333335, 1.5275252316519468),
      "FLOOR" -> (2.333333333333333, 1.5275252316519465),
      "TIE_AWAY_FROM_ZERO" -> (2.3333333333333335, 1.5275252316519468))
    for ((mode, (variance, stdDev)) <- expected) {
      val v = perGroup("variance:fp64", Seq(fp64()), groups, Seq("SAMPLE"), modes(mode))
      assert(v(0) == variance && v(1) == 0.0 && v(2) == null && v(3).asInstanceOf[Double].isNaN && v(-1) == null &&
          v(-2) == null, s"$mode: $v")
      // (-MAX, MAX): the sample variance 2·MAX² overflows: ∞ to nearest, MAX toward zero.
      assert(v(4) == (if (mode == "TRUNCATE" || mode == "FLOOR") Max else Double.PositiveInfinity), s"$mode: $v")
      val s = perGroup("std_dev:fp64", Seq(fp64()), groups, Seq("SAMPLE"), modes(mode))
      assert(s(0) == stdDev && s(1) == 0.0 && s(2) == null && s(-2) == null, s"$mode: $s")
    }
    // POPULATION: one value has variance 0; (-MAX, MAX) has standard deviation MAX exactly (Spark's squares overflow).
    val pop = perGroup("std_dev:fp64", Seq(fp64()), groups, Nil, Seq("distribution" -> Seq("POPULATION")))
    assert(pop(2) == 0.0 && pop(4) == Max, pop)
    // fp32 values: rounded once to binary32 (7/3 -> 2.3333333f nearest, 2.3333335f up), not via a double.
    val floats = Seq(Seq(1.0f, 2.0f, 4.0f).map(v => Seq(litFp32(v))))
    assert(perGroup("variance:fp32", Seq(fp32()), floats, Seq("SAMPLE"))(0) == 2.3333333f)
    assert(perGroup("variance:fp32", Seq(fp32()), floats, Seq("SAMPLE"), modes("CEILING"))(0) == 2.3333335f)
  }

  test("corr: Pearson's r exactly, without squares overflowing; NaN when a column does not vary") {
    val hard = Seq((100000001.0, 1.0), (100000002.0, 2.0), (100000004.0, 3.0)).map { case (x, y) =>
      Seq(litFp64(x), litFp64(y))
    }
    // r = sqrt(27/28) = 0.98198050606196571…; Spark's Corr gives 0.9819805047554792.
    val big = Seq((1e200, 3.0), (2e200, 2.0), (4e200, 1.0)).map { case (x, y) => Seq(litFp64(x), litFp64(y)) }
    val constant = Seq((1.0, 5.0), (2.0, 5.0)).map { case (x, y) => Seq(litFp64(x), litFp64(y)) }
    val withNulls =
      Seq(Seq(litFp64(1.0), litNull(fp64())), Seq(litFp64(2.0), litFp64(4.0)), Seq(litFp64(3.0), litFp64(6.0)),
        Seq(litNull(fp64()), litFp64(1.0)))
    val two = Seq(fp64(), fp64())
    val nearest = perGroup("corr:fp64_fp64", two, Seq(hard, big, constant, withNulls))
    assert(nearest(0) == 0.9819805060619657 && nearest(1) == -0.9819805060619657 && nearest(3) == 1.0, nearest)
    assert(nearest(2).asInstanceOf[Double].isNaN && nearest(-1) == null && nearest(-2) == null, nearest)
    val down = perGroup("corr:fp64_fp64", two, Seq(hard, big), options = modes("FLOOR"))
    assert(down(0) == 0.9819805060619656 && down(1) == -0.9819805060619657, down)
    val up = perGroup("corr:fp64_fp64", two, Seq(hard, big), options = modes("CEILING"))
    assert(up(0) == 0.9819805060619657 && up(1) == -0.9819805060619656, up)
  }

  test("median: exact middle values, their mean rounded in the mode; i64 beyond 2^53; no overflow") {
    val m = perGroup("median:fp64", Seq(fp64()),
      Seq(fp64s(-Max, Max), fp64s(1.0, math.pow(2, -60)), fp64s(3.0, 1.0, 2.0),
        fp64s(-0.0, -0.0), fp64s(1.0, Double.NaN)), Seq("EXACT"))
    assert(m(0) == 0.0 && m(1) == 0.5 && m(2) == 2.0 && m(-2) == null && m(-1) == null, m)
    assert(1 / m(3).asInstanceOf[Double] < 0 && m(4).asInstanceOf[Double].isNaN, m)
    // (1 + 2^-60) / 2 = 0.5 + 2^-61: up to the next double above 0.5.
    assert(perGroup("median:fp64", Seq(fp64()), Seq(fp64s(1.0, math.pow(2, -60))), Seq("EXACT"), modes("CEILING"))(0) ==
      Math.nextUp(0.5))
    // i64: the middle of MAX - 1 and MAX is …806.5 (MAX - 0.5): TIE_TO_EVEN keeps MAX - 1 (even), CEILING gives MAX.
    val longs = Seq(Seq(Long.MaxValue - 1, Long.MaxValue), Seq(Long.MinValue, Long.MaxValue),
      Seq(4611686018427387905L, 4611686018427387907L))
      .map(_.map(v => Seq(litI64(v))))
    for ((mode, first, second) <- Seq(("TIE_TO_EVEN", Long.MaxValue - 1, 0L), ("CEILING", Long.MaxValue, 0L),
        ("FLOOR", Long.MaxValue - 1, -1L), ("TRUNCATE", Long.MaxValue - 1, 0L),
        ("TIE_AWAY_FROM_ZERO", Long.MaxValue, -1L))) {
      for (precision <- Seq("EXACT", "APPROXIMATE")) {
        val got = perGroup("median:i64", Seq(i64()), longs, Seq(precision), modes(mode))
        // APPROXIMATE of i64 takes the exact path (Spark's percentile_approx rounds i64 to double).
        assert(got(0) == first && got(1) == second && got(2) == 4611686018427387906L && got(-2) == null,
          s"$mode $precision: $got")
      }
    }
  }

  test("product: integers exact with every overflow option, floating point rounded once; 1 for no values") {
    val ints =
      Seq(Seq(65536, 65536), Seq(65536, -65536), Seq(65536, 65536, 0), Seq(-3, 7, -2)).map(_.map(v => Seq(litI32(v))))
    val saturated = perGroup("product:i32", Seq(i32()), ints, options = Seq("overflow" -> Seq("SATURATE")))
    assert(saturated == Map(0 -> Int.MaxValue, 1 -> Int.MinValue, 2 -> 0, 3 -> 42, -1 -> 1, -2 -> 1), saturated)
    val e =
      intercept[Exception](perGroup("product:i32", Seq(i32()), ints.take(1), options = Seq("overflow" -> Seq("ERROR"))))
    val error = causes(e).collectFirst {
      case f: SubstraitFunctionException => f
    }
    assert(error.exists(_.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW"), e)
    assert(perGroup("product:i32", Seq(i32()), ints.drop(2), options = Seq("overflow" -> Seq("ERROR"))) ==
      Map(0 -> 0, 1 -> 42, -1 -> 1, -2 -> 1))
    val longs = Seq(Seq(Long.MinValue, 1L), Seq(Long.MinValue, -1L)).map(_.map(v => Seq(litI64(v))))
    assert(perGroup("product:i64", Seq(i64()), longs, options = Seq("overflow" -> Seq("SATURATE"))).filter(_._1 >= 0) ==
      Map(0 -> Long.MinValue, 1 -> Long.MaxValue))
    // 0.1³ exactly is 0.001000000000000000062…: 0.0010000000000000002 to nearest, 0.001 toward zero.
    // 1e200 · 1e200 · 1e-200 exactly: 1e200 (a product in double overflows first).
    val doubles =
      Seq(fp64s(0.1, 0.1, 0.1), fp64s(1e200, 1e200, 1e-200), fp64s(Double.PositiveInfinity, 0.0), fp64s(-0.0, 2.0))
    val nearest = perGroup("product:fp64", Seq(fp64()), doubles, options = modes("TIE_TO_EVEN"))
    assert(nearest(0) == 0.0010000000000000002 && nearest(1) == 1e200 && nearest(2).asInstanceOf[Double].isNaN, nearest)
    assert(1 / nearest(3).asInstanceOf[Double] < 0 && nearest(-1) == 1.0 && nearest(-2) == 1.0, nearest)
    val down = perGroup("product:fp64", Seq(fp64()), doubles.take(2), options = modes("TRUNCATE"))
    assert(down(0) == 0.001 && down(1) == 9.999999999999998e199, down)
  }

  // ---- integers: IntegerMoments ---------------------------------------------------------------------------------------
  private val Modes = Seq("TIE_TO_EVEN", "TIE_AWAY_FROM_ZERO", "TRUNCATE", "CEILING", "FLOOR")
  private val Statistics = Seq("std_dev" -> "stddev", "variance" -> "var")

  /**
   * Whether `got` is `statistic` ("stddev_samp", "var_pop", …) of values with n, Σx and Σx² rounded
   * in `mode`, checked on the exact rational (Σx² n - (Σx)²) / (n(n-1) or n²) with exact decimal
   * arithmetic: an oracle independent of ExactRatio and both accumulations.
   */
  private def correctlyRounded(n: BigInt, sum: BigInt, squares: BigInt, statistic: String, mode: String,
    got: Any): Boolean = {
    val sample = statistic.endsWith("samp")
    if (n == 0 || (sample && n == 1)) return got == null
    if (got == null) return false
    val d = got.asInstanceOf[Double]
    val p = new JBigDecimal((n * squares - sum * sum).bigInteger)
    val q = new JBigDecimal((if (sample) n * (n - 1) else n * n).bigInteger)
    if (p.signum == 0) return d == 0.0 && 1 / d > 0
    if (!(d > 0) || d.isInfinite) return false
    val root = statistic.startsWith("stddev")
    // The sign of g(a) - p/q, g the identity or the square.
    def cmp(a: JBigDecimal): Int = (if (root) a.multiply(a) else a).multiply(q).compareTo(p)
    def exact(x: Double) = new JBigDecimal(x)
    def mid(a: Double, b: Double) = exact(a).add(exact(b)).divide(JBigDecimal.valueOf(2))
    val (below, above) = (cmp(mid(Math.nextDown(d), d)), cmp(mid(d, Math.nextUp(d))))
    mode match {
      case "FLOOR" | "TRUNCATE" => cmp(exact(d)) <= 0 && cmp(exact(Math.nextUp(d))) > 0
      case "CEILING" => cmp(exact(d)) >= 0 && cmp(exact(Math.nextDown(d))) < 0
      case "TIE_TO_EVEN" =>
        below <= 0 && above >= 0 && (below != 0 && above != 0 || (java.lang.Double.doubleToLongBits(d) & 1) == 0)
      case "TIE_AWAY_FROM_ZERO" => below <= 0 && above > 0
    }
  }

  private def correctlyRounded(xs: Seq[Long], statistic: String, mode: String, got: Any): Boolean =
    correctlyRounded(BigInt(xs.size), xs.map(BigInt(_)).sum, xs.map(x => BigInt(x) * x).sum, statistic, mode, got)

  /**
   * One AggregateRel over rows (g, x) with x of type `t`, grouped by g, and again over no rows (key
   * -2): each key's measure values. `measures` builds them over field 1 (x).
   */
  private def aggregated(t: Type, rows: Seq[(Int, Option[Long])], lit: Long => Expression,
    measures: PlanBuilder => Seq[AggregateRel.Measure], projected: Boolean = false): (Map[Int, Seq[Any]], DataFrame) = {
    def planOver(keep: Boolean): (Plan, Int) = {
      val pb = new PlanBuilder()
      val table = readVirtual(schema("g" -> i32(), "x" -> t),
        rows.map { case (g, x) => Seq(litI32(g), x.map(lit).getOrElse(litNull(t))) })
      val ms = measures(pb)
      val kept = if (keep) table else filter(table, litBool(false))
      // `projected`: the input appends x cast to fp64 (field 2), as DataFusion's plans do below an aggregate.
      val input = if (projected) project(kept, cast(field(1), fp64())) else kept
      val names = ms.indices.map(i => s"m$i")
      (pb.plan(aggregate(input, if (keep) Seq(field(0)) else Nil, ms), (if (keep) "g" +: names else names): _*),
        ms.size)
    }
    val (plan, size) = planOver(keep = true)
    val df = run(plan)
    val grouped = df.collect().map(r => r.getInt(0) -> (1 to size).map(r.get)).toMap
    val (emptyPlan, _) = planOver(keep = false)
    val empty = run(emptyPlan).collect().head.toSeq
    (grouped + (-2 -> empty), df)
  }

  /** std_dev or variance (`fn`, e.g. "std_dev:fp64") in each distribution and rounding mode over `arg`. */
  private def grid(pb: PlanBuilder, types: String, arg: Expression, distinct: Boolean = false,
    filter: Option[Expression] = None): Seq[AggregateRel.Measure] =
    for ((fn, _) <- Statistics; dist <- Seq("SAMPLE", "POPULATION"); mode <- Modes)
      yield pb.measure(pb.fn(Arithmetic, s"$fn:$types"), Seq(arg), distinct = distinct, filter = filter,
        enums = Seq(dist), options = modes(mode))

  private def gridNames: Seq[(String, String)] =
    for ((_, stat) <- Statistics; dist <- Seq("samp", "pop"); mode <- Modes) yield (s"${stat}_$dist", mode)

  private val random = new scala.util.Random(20261127L)
  // Groups: whole-range values, extremes (apart and repeated), one value, a constant, small
  // negatives, NULLs among values, many duplicates; the all-NULL group -1.
  private val intGroups: Seq[Seq[Option[Long]]] = Seq(
    Seq.fill(200)(Some(random.nextInt().toLong)),
    Seq(Some(Int.MinValue.toLong), Some(Int.MaxValue.toLong)),
    Seq(Int.MinValue, Int.MinValue, Int.MaxValue, Int.MinValue, Int.MaxValue).map(v => Some(v.toLong)),
    Seq(Some(Int.MinValue.toLong)),
    Seq(Some(7L)),
    Seq.fill(4)(Some(5L)),
    Seq(-3L, -1L, -1L, 4L, 10L).map(Some(_)),
    Seq(Some(1L), None, Some(2L), None, Some(4L)),
    Seq.fill(1000)(Some(random.nextInt(201) - 100L)),
    Seq(Some(-32768L), Some(32767L), Some(-1L)))
  private val intRows: Seq[(Int, Option[Long])] =
    intGroups.zipWithIndex.flatMap { case (g, i) => g.map(i -> _) } ++ Seq.fill(3)(-1 -> None)
  private def valuesOf(rows: Seq[(Int, Option[Long])]): Map[Int, Seq[Long]] =
    rows.groupBy(_._1).map { case (g, rs) => g -> rs.flatMap(_._2) } + (-2 -> Nil)

  /** Every measure of `got` (in [[gridNames]] order) against the oracle over each group's values. */
  private def assertGrid(got: Map[Int, Seq[Any]], values: Map[Int, Seq[Long]], what: String): Unit = {
    assert(got.keySet == values.keySet, what)
    for ((g, row) <- got; ((stat, mode), v) <- gridNames.zip(row)) {
      assert(correctlyRounded(values(g), stat, mode, v), s"$what: group $g $stat $mode: $v of ${values(g).take(8)}")
    }
  }

  test("std_dev and variance of integers (i8, i16, i32, and doubles cast from them): exact, in every mode, as fp64's") {
    val values = valuesOf(intRows)
    // ExactMoments over the same values as doubles: the other exact implementation.
    val (reference, referencePlan) =
      aggregated(fp64(), intRows, v => litFp64(v.toDouble), pb => grid(pb, "fp64", field(1)))
    assert(referencePlan.queryExecution.optimizedPlan.exists(_.expressions.exists(_.exists {
      case a: AggregateExpression => a.aggregateFunction.isInstanceOf[ExactMoments]
      case _ => false
    })))
    assertGrid(reference, values, "fp64")
    val small = intRows.filter { case (_, x) => x.forall(v => v.isValidShort) }
    val tiny = intRows.filter { case (_, x) => x.forall(v => v.isValidByte) }
    val shapes = Seq(
      ("i32, cast to fp64", i32(), intRows, (v: Long) => litI32(v.toInt), "fp64", (e: Expression) => cast(e, fp64())),
      ("i32", i32(), intRows, (v: Long) => litI32(v.toInt), "i32", (e: Expression) => e),
      ("i16, cast to fp64", i16(), small, (v: Long) => litI16(v.toInt), "fp64", (e: Expression) => cast(e, fp64())),
      ("i8", i8(), tiny, (v: Long) => litI8(v.toInt), "i8", (e: Expression) => e))
    for ((what, t, rows, lit, types, arg) <- shapes) {
      val (got, df) = aggregated(t, rows, lit, pb => grid(pb, types, arg(field(1))))
      assertFastPath(df)
      assertGrid(got, valuesOf(rows), what)
      val same = if (rows == intRows) reference
      else aggregated(fp64(), rows, v => litFp64(v.toDouble), pb => grid(pb, "fp64", field(1)))._1
      for ((g, row) <- got) assert(row == same(g), s"$what: group $g: $row, ExactMoments ${same(g)}")
    }
    // Hand-worked: (MIN, MAX) has mean -1/2 and sample variance 2(2^31 - 1/2)² = 2^63 - 2^32 + 1/2,
    // between doubles 2^10 apart: 2^63 - 2^32 in every mode but CEILING, which gives the next one.
    val low = Math.pow(2, 63) - Math.pow(2, 32)
    assert(reference(1).slice(2 * Modes.size, 3 * Modes.size) == Seq(low, low, low, low + 1024, low), reference(1))
  }

  /** The integer path: IntegerMoments, no TypedImperativeAggregate, a generated HashAggregate. */
  private def assertFastPath(df: DataFrame): Unit = {
    val functions = df.queryExecution.optimizedPlan.flatMap(_.expressions.flatMap(_.collect {
      case a: AggregateExpression => a.aggregateFunction
    }))
    assert(functions.nonEmpty && functions.forall(_.isInstanceOf[IntegerMoments]), functions)
    assert(!functions.exists(_.isInstanceOf[TypedImperativeAggregate[_]]))
    df.collect()
    val helper = new AdaptiveSparkPlanHelper {}
    val plan = df.queryExecution.executedPlan
    assert(helper.collect(plan) { case a @ (_: ObjectHashAggregateExec | _: SortAggregateExec) => a }.isEmpty, plan)
    val generated = helper.collect(plan) { case w: WholeStageCodegenExec => w }
    assert(generated.exists(_.child.exists(_.isInstanceOf[HashAggregateExec])), plan)
  }

  test("the integer path takes Spark's generated HashAggregate; doubles, fp32 and i64 keep ExactMoments") {
    def functionsOf(t: Type, lit: Long => Expression, types: String, arg: Expression) = {
      val (_, df) = aggregated(t, intRows.filter(_._1 == 6), lit,
        pb =>
          Seq(pb.measure(pb.fn(Arithmetic, s"std_dev:$types"), Seq(arg), enums = Seq("SAMPLE"))))
      df.queryExecution.optimizedPlan.flatMap(_.expressions.flatMap(_.collect {
        case a: AggregateExpression => a.aggregateFunction
      }))
    }
    val (_, df) = aggregated(i32(), intRows, v => litI32(v.toInt),
      pb =>
        Seq(pb.measure(pb.fn(Arithmetic, "std_dev:fp64"), Seq(cast(field(1), fp64())), enums = Seq("SAMPLE"))))
    assertFastPath(df)
    assert(functionsOf(fp64(), v => litFp64(v.toDouble), "fp64", field(1)).forall(_.isInstanceOf[ExactMoments]))
    assert(functionsOf(fp32(), v => litFp32(v.toFloat), "fp32", field(1)).forall(_.isInstanceOf[ExactMoments]))
    assert(functionsOf(i64(), litI64, "fp64", cast(field(1), fp64())).forall(_.isInstanceOf[ExactMoments]))
    // An i32 cast to fp32 first is rounded there: not the integer path.
    assert(functionsOf(i32(), v => litI32(v.toInt), "fp64", cast(cast(field(1), fp32()), fp64()))
        .forall(_.isInstanceOf[ExactMoments]))
  }

  test("the integer path over a column the input casts to fp64 from an integer (DataFusion's q39)") {
    val (got, df) = aggregated(i32(), intRows, v => litI32(v.toInt), pb => grid(pb, "fp64", field(2)), projected = true)
    assertFastPath(df)
    assertGrid(got, valuesOf(intRows), "a projected cast")
    // A projected double that is no integer's cast keeps ExactMoments.
    val (_, doubles) = aggregated(fp64(), intRows.filter(_._1 == 6), v => litFp64(v + 0.5),
      pb => Seq(pb.measure(pb.fn(Arithmetic, "std_dev:fp64"), Seq(field(2)), enums = Seq("SAMPLE"))), projected = true)
    assert(doubles.queryExecution.optimizedPlan.exists(_.expressions.exists(_.exists {
      case a: AggregateExpression => a.aggregateFunction.isInstanceOf[ExactMoments]
      case _ => false
    })))
  }

  test("the integer path with DISTINCT and a measure filter: over the distinct, filtered values") {
    def positive(pb: PlanBuilder) = pb.call(pb.fn("functions_comparison", "gt:any_any"), field(1), litI32(0))
    val lit = (v: Long) => litI32(v.toInt)
    val values = valuesOf(intRows)
    // Not named `distinct`: Scala 2.12 reads `distinct = true` below as an assignment to it.
    val (distinctOnly, df) =
      aggregated(i32(), intRows, lit, pb => grid(pb, "fp64", cast(field(1), fp64()), distinct = true))
    assertGrid(distinctOnly, values.map { case (g, xs) => g -> xs.distinct }, "DISTINCT")
    assertFastPath(df)
    val (filtered, _) =
      aggregated(i32(), intRows, lit, pb => grid(pb, "fp64", cast(field(1), fp64()), filter = Some(positive(pb))))
    assertGrid(filtered, values.map { case (g, xs) => g -> xs.filter(_ > 0) }, "filter x > 0")
    val (both, _) = aggregated(i32(), intRows, lit,
      pb => grid(pb, "i32", field(1), distinct = true, filter = Some(positive(pb))))
    assertGrid(both, values.map { case (g, xs) => g -> xs.filter(_ > 0).distinct }, "DISTINCT, filter x > 0")
  }

  test("the integer path as a window aggregate: whole partitions and sliding rows frames") {
    val rows = intRows.zipWithIndex.map { case ((g, x), id) => (id, g, x) }
    def over(fn: String, dist: String, mode: String, bounds: Option[(Bound, Bound)]): Seq[(Int, Any)] = {
      val pb = new PlanBuilder()
      val f = Expression.WindowFunction.newBuilder().setFunctionReference(pb.fn(Arithmetic, s"$fn:fp64"))
        .setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
        .setInvocation(AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL)
        .addArguments(FunctionArgument.newBuilder().setEnum(dist))
        .addArguments(FunctionArgument.newBuilder().setValue(cast(field(2), fp64())))
        .addOptions(FunctionOption.newBuilder().setName("rounding").addPreference(mode))
        .addPartitions(field(1))
        .addSorts(
          SortField.newBuilder().setExpr(field(0)).setDirection(SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST))
      bounds.foreach { case (lo, hi) =>
        f.setBoundsType(BoundsType.BOUNDS_TYPE_ROWS).setLowerBound(lo).setUpperBound(hi)
      }
      val table = readVirtual(schema("id" -> i32(), "g" -> i32(), "x" -> i32()),
        rows.map { case (id, g, x) =>
          Seq(litI32(id), litI32(g), x.map(v => litI32(v.toInt)).getOrElse(litNull(i32())))
        })
      val plan = pb.plan(emit(project(table, Expression.newBuilder().setWindowFunction(f).build()), 0, 3), "id", "r")
      run(plan).collect().map(r => r.getInt(0) -> r.get(1)).sortBy(_._1).toSeq
    }
    val preceding2 = Bound.newBuilder().setPreceding(Bound.Preceding.newBuilder().setOffset(2)).build()
    val current = Bound.newBuilder().setCurrentRow(Bound.CurrentRow.getDefaultInstance).build()
    val byGroup = rows.groupBy(_._2).map { case (g, rs) => g -> rs.sortBy(_._1) }
    for (((fn, stat), dist, mode) <-
        Seq((Statistics(0), "SAMPLE", "TIE_TO_EVEN"), (Statistics(1), "POPULATION", "CEILING"),
          (Statistics(0), "POPULATION", "FLOOR"))) {
      val statistic = s"${stat}_${if (dist == "SAMPLE") "samp" else "pop"}"
      for ((id, v) <- over(fn, dist, mode, None)) {
        val g = rows(id)._2
        assert(correctlyRounded(byGroup(g).flatMap(_._3), statistic, mode, v), s"$fn $dist $mode row $id: $v")
      }
      for ((id, v) <- over(fn, dist, mode, Some(preceding2 -> current))) {
        val partition = byGroup(rows(id)._2)
        val at = partition.indexWhere(_._1 == id)
        val frame = partition.slice(math.max(0, at - 2), at + 1).flatMap(_._3)
        assert(correctlyRounded(frame, statistic, mode, v), s"$fn $dist $mode rows frame, row $id: $v of $frame")
      }
    }
  }

  test("IntegerMomentsResult: exact up to 2^32 - 1 rows of extremes; 2^32 rows or more is an overflow error") {
    val max = IntegerMoments.MaxRows
    // Interpreted and generated: both must agree.
    def result(n: Long, sx: Long, hi: Long, lo: Long, statistic: String, mode: Int = CorrectlyRounded.TieToEven) = {
      val e = IntegerMomentsResult(Literal(n), Literal(sx), Literal(hi), Literal(lo), statistic, mode, "root")
      val interpreted = e.eval(null)
      val generated = GenerateMutableProjection.generate(Seq(e)).apply(InternalRow.empty).get(0, DoubleType)
      assert(interpreted == generated, s"$statistic of ($n, $sx, $hi, $lo): $interpreted, generated $generated")
      interpreted
    }
    // The largest group of the largest values: every sum at its bound, still within a long.
    assert(result(max, max * Int.MinValue, max << 31, 0L, "var_samp") == 0.0)
    // 2^31 values MIN and 2^31 - 1 values MAX: the oracle over the same n, Σx, Σx².
    val (a, b) = (BigInt(1) << 31, (BigInt(1) << 31) - 1)
    val sum = a * Int.MinValue + b * Int.MaxValue
    val squares = a * BigInt(Int.MinValue).pow(2) + b * BigInt(Int.MaxValue).pow(2)
    val (hiSum, loSum) = (a * (BigInt(Int.MinValue).pow(2) >> 31) + b * (BigInt(Int.MaxValue).pow(2) >> 31),
      a * (BigInt(Int.MinValue).pow(2) & ((1L << 31) - 1)) + b * (BigInt(Int.MaxValue).pow(2) & ((1L << 31) - 1)))
    assert(hiSum.isValidLong && loSum.isValidLong && (hiSum << 31) + loSum == squares)
    for (stat <- Seq("var_samp", "var_pop", "stddev_samp", "stddev_pop")) {
      val got = result(max, sum.toLong, hiSum.toLong, loSum.toLong, stat)
      assert(correctlyRounded(BigInt(max), sum, squares, stat, "TIE_TO_EVEN", got), s"$stat: $got")
    }
    // NULL sums (no rows) are zero; no rows or a sample of one: NULL.
    assert(IntegerMomentsResult(Literal(null, LongType), Literal(0L), Literal(0L),
      Literal(0L), "var_pop", CorrectlyRounded.TieToEven, "root").eval(null) == null)
    assert(result(1L, 5L, 0L, 25L, "stddev_samp") == null && result(1L, 5L, 0L, 25L, "stddev_pop") == 0.0)
    for (n <- Seq(max + 1, Long.MaxValue)) {
      val e = IntegerMomentsResult(Literal(n), Literal(0L), Literal(0L), Literal(0L), "stddev_samp",
        CorrectlyRounded.TieToEven, "root")
      for (run <- Seq(() => e.eval(null), () => GenerateMutableProjection.generate(Seq(e)).apply(InternalRow.empty))) {
        val error = intercept[SubstraitFunctionException](run())
        assert(error.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW" && error.getMessage.contains("2^32"),
          error.getMessage)
      }
    }
  }

  test("IntegerMoments.rounded: ExactRatio's rounding of p/q and its root for p, q below 2^63, ties included") {
    val r = new scala.util.Random(63)
    def bits(b: Int) = if (b >= 63) r.nextLong() & Long.MaxValue else r.nextLong() & ((1L << b) - 1)
    val cases = Seq.fill(3000)((bits(1 + r.nextInt(63)) max 1L, bits(1 + r.nextInt(63)) max 1L)) ++
      // Ties of a quotient: 2^53 + 1 between 2^53 and 2^53 + 2; (2^54 + 3)/2 between 2^53 + 1 and + 2 (not doubles).
      Seq((1L << 53) + 1, (1L << 54) + 3, (1L << 62) + (1L << 9), Long.MaxValue).map(_ -> 1L) ++
      Seq(((1L << 54) + 6, 2L), ((1L << 54) + 3, 2L), (Long.MaxValue, Long.MaxValue), (1L, Long.MaxValue))
    for ((p, q) <- cases; root <- Seq(false, true); mode <- 0 to 4) {
      val (bp, bq) = (java.math.BigInteger.valueOf(p), java.math.BigInteger.valueOf(q))
      val expected =
        if (root) ExactRatio.sqrtRatio(bp, 0, bq, negative = false, mode, single = false)
        else ExactRatio.ratio(bp, 0, bq, mode, single = false)
      assert(IntegerMoments.rounded(p, q, root, mode) == expected, s"$p/$q root $root mode $mode")
    }
    // The ties themselves: to even, and away from zero.
    assert(IntegerMoments.rounded((1L << 53) + 1, 1L, root = false, CorrectlyRounded.TieToEven) == Math.pow(2, 53))
    assert(IntegerMoments.rounded((1L << 53) + 1, 1L, root = false, CorrectlyRounded.TieAwayFromZero) ==
      Math.pow(2, 53) + 2)
  }
}
