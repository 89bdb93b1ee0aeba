package io.sparksubstrait
package convert.functions

import java.math.{BigDecimal => JBigDecimal, RoundingMode}

import io.sparksubstrait.errors.SubstraitFunctionException
import io.sparksubstrait.proto.{AggregationPhase, Expression, FunctionArgument, FunctionOption, SortField, Type}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * The aggregate and window options the differential run (dev/function-semantics) found
 * refused or answered wrongly, with rows worked out by hand from the YAML's words: sum, sum0
 * and avg of fp64 and decimals under every overflow option (a partial sum that overflows is
 * no overflow; an exact sum beyond the type SATURATEs or errors), the decimal mean at every
 * precision, unsigned sums that wrap or clamp, lag/lead's and ntile's NULL arguments,
 * ntile's i64 bucket count and nth_value's on_domain_error.
 */
class AggregateOptionsSuite extends SparkSuite with SubstraitAssertions {
  private val Arithmetic = "functions_arithmetic"
  private val Decimal = "functions_arithmetic_decimal"
  private val Max = Double.MaxValue

  /** `fn` over groups (group id -> values; a group of no values is one NULL row) of a column of type `t`: group -> result. */
  private def grouped(ext: String, fn: String, options: Seq[(String, Seq[String])], t: Type,
    groups: Seq[(Int, Seq[Expression])],
    output: Option[Type] = None): Map[Int, Any] = {
    val pb = new PlanBuilder()
    val rows = groups.flatMap { case (g, vs) =>
      if (vs.isEmpty) Seq(Seq(litI32(g), litNull(t))) else vs.map(v => Seq(litI32(g), v))
    }
    val m = pb.measure(pb.fn(ext, fn), Seq(field(1)), options = options, output = output)
    run(pb.plan(aggregate(readVirtual(schema("g" -> i32(), "x" -> t), rows), Seq(field(0)), Seq(m)), "g", "r"))
      .collect().map(r => r.getInt(0) -> r.get(1)).toMap
  }

  /** `fn` over no rows at all (an empty input, no grouping): its one result. */
  private def empty(ext: String, fn: String, options: Seq[(String, Seq[String])], t: Type, value: Expression): Any = {
    val pb = new PlanBuilder()
    val m = pb.measure(pb.fn(ext, fn), Seq(field(0)), options = options)
    run(pb.plan(aggregate(filter(readVirtual(schema("x" -> t), Seq(Seq(value))), litBool(false)), Nil, Seq(m)),
        "r")).collect().head.get(0)
  }

  private def functionError(body: => Any): SubstraitFunctionException = {
    val e = intercept[Exception](body)
    causes(e).collectFirst { case f: SubstraitFunctionException =>
      f
    }
      .getOrElse(fail(s"not a function error: $e"))
  }

  private def sameDouble(a: Any, b: Double): Boolean = a match {
    case d: Double => java.lang.Double.doubleToRawLongBits(d) == java.lang.Double.doubleToRawLongBits(b) ||
      (d.isNaN && b.isNaN)
    case _ => false
  }

  private def fp(values: Double*): Seq[Expression] = values.map(litFp64)

  test(
    "sum, sum0 and avg of fp64: a partial sum that overflows is no overflow; an exact sum beyond fp64 SATURATEs or errors") {
    val groups = Seq(
      1 -> fp(1e308, 1e308, -1e308), // 2e308 overflows in row order; the sum is 1e308
      2 -> fp(1.5e308, 1.5e308, 1.5e308), // 4.5e308: beyond fp64
      3 -> fp(-1.5e308, -1.5e308), // -3e308
      4 -> fp(-0.0, -0.0), // -0.0, the sum of -0.0s
      5 -> fp(Double.PositiveInfinity, 1.0), // an infinite value: IEEE's infinity, no overflow
      6 -> fp(1.0, 2.5, 2.5), // duplicates: 6.0
      7 -> Nil) // only NULL: NULL
    val saturated = grouped(Arithmetic, "sum:fp64", Seq("overflow" -> Seq("SATURATE")), fp64(), groups)
    val expected = Map(1 -> 1e308, 2 -> Max, 3 -> -Max, 4 -> -0.0, 5 -> Double.PositiveInfinity, 6 -> 6.0)
    for ((g, v) <- expected) assert(sameDouble(saturated(g), v), s"group $g: ${saturated(g)}")
    assert(saturated(7) == null)
    val sum0 = grouped(Arithmetic, "sum0:fp64", Seq("overflow" -> Seq("SATURATE")), fp64(), groups)
    assert(sameDouble(sum0(2), Max) && sameDouble(sum0(7), 0.0), sum0)
    assert(sameDouble(empty(Arithmetic, "sum0:fp64", Seq("overflow" -> Seq("SATURATE")), fp64(), litFp64(1.0)), 0.0))
    assert(empty(Arithmetic, "sum:fp64", Seq("overflow" -> Seq("SATURATE")), fp64(), litFp64(1.0)) == null)

    // ERROR: the same sums, and an error where the sum itself is beyond fp64.
    val fits =
      grouped(Arithmetic, "sum:fp64", Seq("overflow" -> Seq("ERROR")), fp64(), groups.filterNot(g => Set(2, 3)(g._1)))
    for ((g, v) <- expected - 2 - 3) assert(sameDouble(fits(g), v), s"group $g: ${fits(g)}")
    val error = functionError(grouped(Arithmetic, "sum:fp64", Seq("overflow" -> Seq("ERROR")), fp64(),
        Seq(1 -> fp(1.5e308, 1.5e308))))
    assert(error.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW", error.getMessage)

    // avg: the mean always fits, whatever a partial sum does.
    for (overflow <- Seq("SATURATE", "ERROR")) {
      val means = grouped(Arithmetic, "avg:fp64", Seq("overflow" -> Seq(overflow)), fp64(),
        Seq(1 -> fp(Max, Max), 2 -> fp(1e308, 1e308, -1e308, -1e308), 3 -> fp(-0.0), 4 -> fp(1.0, 2.0), 5 -> Nil))
      assert(sameDouble(means(1), Max) && sameDouble(means(2), 0.0) && sameDouble(means(3), -0.0) &&
          sameDouble(means(4), 1.5)
          && means(5) == null, s"$overflow: $means")
    }
  }

  private def dec(v: String): JBigDecimal = new JBigDecimal(v)
  private def decs(p: Int, s: Int)(values: String*): Seq[Expression] = values.map(v => litDecimal(dec(v), p, s))
  private def d38s2(values: String*): Seq[Expression] = decs(38, 2)(values: _*)
  private def d38s10(values: String*): Seq[Expression] = decs(38, 10)(values: _*)

  test(
    "sum and sum0 of decimals with overflow SATURATE: the exact sum, beyond DECIMAL(38,S) its largest value of that sign") {
    val big = "9" * 36 + ".99"
    val groups = Seq(1 -> d38s2(big, big), 2 -> d38s2("-" + big, "-0.01"), 3 -> d38s2(big, "0.01", "-0.01"),
      4 -> d38s2("1.25", "2.50", "2.50"),
      5 -> d38s2("-0.01", "0.01"), 6 -> Nil)
    for (fn <- Seq("sum:dec", "sum0:dec")) {
      val got = grouped(Decimal, fn, Seq("overflow" -> Seq("SATURATE")), decimal(38, 2), groups)
      assert(got(1) == dec(big) && got(2) == dec("-" + big) && got(3) == dec(big) && got(4) == dec("6.25")
          && got(5) == dec("0.00"), s"$fn: $got")
      assert(got(6) == (if (fn == "sum:dec") null else dec("0.00")), s"$fn: $got")
    }
    assert(empty(Decimal, "sum0:dec", Seq("overflow" -> Seq("SATURATE")), decimal(38, 2),
      litDecimal(dec("1.00"), 38, 2)) == dec("0.00"))
    // SILENT: any value where the sum overflows, the exact sum where it fits although a partial sum does not.
    for (fn <- Seq("sum:dec", "sum0:dec")) {
      val got =
        grouped(Decimal, fn, Seq("overflow" -> Seq("SILENT")), decimal(38, 2), groups.filterNot(g => Set(1, 2)(g._1)))
      assert(got(3) == dec(big) && got(4) == dec("6.25") && got(5) == dec("0.00"), s"$fn: $got")
    }
  }

  test("avg of decimals is the exact mean rounded once, half away from zero, at every precision and overflow option") {
    val big = "9" * 28 + "." + "9" * 10
    val groups = Seq(
      1 -> d38s10(big, big), // the sum needs 39 digits; the mean is big
      2 -> d38s10("-" + big, "-" + big, "-" + big),
      3 -> d38s10("0.0000000001", "0.0000000002"), // 1.5e-10 -> 2e-10
      4 -> d38s10("-0.0000000001", "-0.0000000002"), // -1.5e-10 -> -2e-10
      5 -> d38s10("0.0000000001", "0.0000000001", "0.0000000000"), // 0.67e-10 -> 1e-10
      6 -> Nil)
    for (overflow <- Seq(Nil, Seq("ERROR"), Seq("SILENT"), Seq("SATURATE"))) {
      val got =
        grouped(Decimal, "avg:dec", if (overflow.isEmpty) Nil else Seq("overflow" -> overflow), decimal(38, 10), groups,
          Some(decimal(38, 10)))
      assert(
        got(1) == dec(big) && got(2) == dec("-" + big) && got(3) == dec("0.0000000002") &&
          got(4) == dec("-0.0000000002")
          && got(5) == dec("0.0000000001") && got(6) == null, s"$overflow: $got")
    }
    // Below precision 29 Spark's Average: the same rounding.
    val narrow = grouped(Decimal, "avg:dec", Nil, decimal(12, 2),
      Seq(1 -> decs(12, 2)("0.01", "0.02"), 2 -> decs(12, 2)("-0.01", "-0.02")),
      Some(decimal(38, 2)))
    assert(narrow == Map(1 -> dec("0.02"), 2 -> dec("-0.02")), narrow)
    // 9999 ones and 10001 zeros: the mean 0.49995 is 0 at scale 0 (Spark's Average gives 0.5000, which a cast made 1).
    val ones = Seq.fill(9999)(litDecimal(dec("1"), 10, 0)) ++ Seq.fill(10001)(litDecimal(dec("0"), 10, 0))
    assert(grouped(Decimal, "avg:dec", Nil, decimal(10, 0), Seq(1 -> ones), Some(decimal(38, 0))) == Map(1 -> dec("0")))
  }

  test("avg and SATURATE sum of decimals up to precision 18 (unscaled longs summed in 128 bits): exact past 2^63") {
    val big = "9999999999999999.99" // the largest DECIMAL(18,2): 1000 of them sum past 2^63 unscaled
    def groups(p: Int): Seq[(Int, Seq[Expression])] = Seq(
      1 -> decs(p, 2)(Seq.fill(1000)(big): _*),
      2 -> decs(p, 2)(Seq.fill(1000)("-" + big) :+ "0.01": _*),
      3 -> decs(p, 2)("0.01", "0.00"), // 0.005: 0.01 at scale 2 (half away from zero)
      4 -> decs(p, 2)("-0.01", "0.00", "-0.01", "0.00"), // duplicates, -0.005: -0.01
      5 -> decs(p, 2)(Seq.fill(500)(Seq(big, "-" + big)).flatten: _*), // carries both ways: 0
      6 -> Nil) // only NULL: NULL
    def mean(values: Seq[String], scale: Int): JBigDecimal =
      values.map(dec).reduce(_ add _).divide(JBigDecimal.valueOf(values.size.toLong), scale, RoundingMode.HALF_UP)
    for (scale <- Seq(2, 6)) {
      val expected = Map(1 -> dec(big).setScale(scale), 2 -> mean(Seq.fill(1000)("-" + big) :+ "0.01", scale),
        3 -> mean(Seq("0.01", "0.00"), scale),
        4 -> mean(Seq("-0.01", "0.00", "-0.01", "0.00"), scale), 5 -> dec("0").setScale(scale), 6 -> null)
      assert(expected(3) == (if (scale == 2) dec("0.01") else dec("0.005000")))
      for (p <- Seq(18, 19)) { // 18: the longs; 19: the decimal sum, the same answers
        val got = grouped(Decimal, "avg:dec", Nil, decimal(p, 2), groups(p), Some(decimal(38, scale)))
        assert(got == expected, s"DECIMAL($p,2) at scale $scale: $got")
      }
    }
    for (p <- Seq(18, 19)) {
      val got = grouped(Decimal, "sum:dec", Seq("overflow" -> Seq("SATURATE")), decimal(p, 2), groups(p))
      assert(
        got(1) == dec(big).multiply(JBigDecimal.valueOf(1000L)) && got(2) == dec("-" + big)
          .multiply(JBigDecimal.valueOf(1000L)).add(dec("0.01")) && got(5) == dec("0.00") && got(6) == null,
        s"$p: $got")
    }
    assert(empty(Decimal, "avg:dec", Nil, decimal(18, 2), litDecimal(dec("1.00"), 18, 2)) == null)
  }

  test("mode of a group of -0.0 values is -0.0, in fp32 and fp64") {
    val f32 = grouped(Arithmetic, "mode:fp32", Nil, fp32(),
      Seq(1 -> Seq.fill(4)(litFp32(-0.0f)), 2 -> Seq(litFp32(2.5f), litFp32(2.5f), litFp32(1f))))
    assert(f32(1) match {
        case f: Float => java.lang.Float.floatToRawIntBits(f) == java.lang.Float.floatToRawIntBits(-0.0f);
        case _ => false
      }, f32)
    assert(f32(2) == 2.5f, f32)
    val f64 =
      grouped(Arithmetic, "mode:fp64", Nil, fp64(), Seq(1 -> fp(-0.0, -0.0, -0.0, -0.0), 2 -> fp(-1.0, 3.0, -1.0)))
    assert(sameDouble(f64(1), -0.0) && sameDouble(f64(2), -1.0), f64)
  }

  // ---- windows ------------------------------------------------------------------------------------------------------------
  private def windowFn(pb: PlanBuilder, ext: String, fn: String, args: Seq[Expression],
    options: Seq[(String, Seq[String])] = Nil,
    output: Option[Type] = None): Expression = {
    val f = Expression.WindowFunction.newBuilder().setFunctionReference(pb.fn(ext, fn))
      .setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
    args.foreach(a => f.addArguments(FunctionArgument.newBuilder().setValue(a)))
    options.foreach { case (n, prefs) =>
      f.addOptions(FunctionOption.newBuilder().setName(n).addAllPreference(java.util.Arrays.asList(prefs: _*)))
    }
    output.foreach(f.setOutputType)
    f.addSorts(
      SortField.newBuilder().setExpr(field(0)).setDirection(SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST))
    Expression.newBuilder().setWindowFunction(f).build()
  }

  /** A window function over rows (id, x) ordered by id: its values in id order. */
  private def window(f: PlanBuilder => Expression, t: Type = fp64(), xs: Seq[Expression] = fp(1.5, -0.0, 3.0))
    : Seq[Any] = {
    val pb = new PlanBuilder()
    val call = f(pb)
    val rows = xs.zipWithIndex.map { case (x, i) => Seq(litI32(i), x) }
    run(pb.plan(emit(project(readVirtual(schema("id" -> i32(), "x" -> t), rows), call), 0, 2), "id", "r"))
      .collect().sortBy(_.getInt(0)).map(_.get(1)).toSeq
  }

  test("lag and lead with a NULL offset give NULL on every row; other offsets are unchanged") {
    for (fn <- Seq("lag", "lead")) {
      assert(window(pb => windowFn(pb, Arithmetic, fn, Seq(field(1), litNull(i32())))) == Seq(null, null, null), fn)
      assert(window(pb => windowFn(pb, Arithmetic, fn, Seq(field(1), litNull(i32()), litFp64(9.0)))) ==
          Seq(null, null, null), fn)
    }
    assert(window(pb => windowFn(pb, Arithmetic, "lag", Seq(field(1), litI32(1), litFp64(9.0)))) == Seq(9.0, 1.5, -0.0))
    assert(window(pb => windowFn(pb, Arithmetic, "lead", Seq(field(1), litI32(-1)))) == Seq(null, 1.5, -0.0))
  }

  test("ntile of a NULL count is NULL; an i64 count beyond i32 puts each row in its own bucket") {
    assert(window(pb => windowFn(pb, Arithmetic, "ntile", Seq(litNull(i32())))) == Seq(null, null, null))
    assert(window(pb => windowFn(pb, Arithmetic, "ntile", Seq(litNull(i64())))) == Seq(null, null, null))
    assert(window(pb => windowFn(pb, Arithmetic, "ntile", Seq(litI64(1L << 40)))) == Seq(1L, 2L, 3L))
    assert(window(pb => windowFn(pb, Arithmetic, "ntile", Seq(litI32(2)))) == Seq(1, 1, 2))
  }

  test("nth_value: a position that is not a positive integer, or NULL, follows on_domain_error") {
    def nth(position: Expression, options: Seq[(String, Seq[String])], t: Type = fp64(),
      xs: Seq[Expression] = fp(1.5, -0.0, 3.0)) =
      window(pb => windowFn(pb, Arithmetic, "nth_value", Seq(field(1), position), options), t, xs)
    assert(nth(litI32(2), Nil) == Seq(-0.0, -0.0, -0.0).map(Double.box))
    val nan = nth(litI32(0), Seq("on_domain_error" -> Seq("NAN")))
    assert(nan.forall(v => sameDouble(v, Double.NaN)) && nan.size == 3, nan)
    assert(nth(litNull(i32()), Seq("on_domain_error" -> Seq("NAN")), i32(), Seq(litI32(1), litI32(2))) ==
      Seq(null, null))
    for (position <- Seq(litI32(0), litI32(-1), litNull(i32()));
      options <- Seq(Nil, Seq("on_domain_error" -> Seq("ERROR")))) {
      val e = functionError(nth(position, options))
      assert(e.getCondition == "SUBSTRAIT_DOMAIN_ERROR", e.getMessage)
    }
  }
}
