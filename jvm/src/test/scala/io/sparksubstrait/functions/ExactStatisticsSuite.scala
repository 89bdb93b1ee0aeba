package io.sparksubstrait
package functions

import io.sparksubstrait.errors.SubstraitFunctionException
import io.sparksubstrait.proto.{Expression, Plan, Type}
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
}
