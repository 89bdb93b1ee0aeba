package io.sparksubstrait
package convert.functions

import org.apache.spark.sql.Row

import io.sparksubstrait.proto.{Expression, Plan, Type}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * The four wrong answers the differential run (dev/function-semantics) found, with rows worked
 * out by hand from the YAML's words, in generated code and through the literal path:
 * the integral avg truncates its exact mean; divide's SATURATE clamps MIN / -1 at every width;
 * a NaN operand or ∞ / ∞ follows on_domain_error; a -0.0 literal keeps its sign in JSON plans.
 */
class ExactArithmeticSuite extends SparkSuite with SubstraitAssertions {
  private val Arithmetic = "functions_arithmetic"

  /** `fn` over each row of a virtual table of column(s) `types`, one output column. */
  private def scalar(fn: String, options: Seq[(String, Seq[String])], types: Seq[Type], rows: Seq[Seq[Expression]])
    : Plan = {
    val pb = new PlanBuilder()
    val table = readVirtual(schema(types.zipWithIndex.map { case (t, i) => s"c$i" -> t }: _*), rows)
    val call = pb.callWith(pb.fn(Arithmetic, fn), options, None, types.indices.map(field): _*)
    pb.plan(emit(project(table, call), types.size), "r")
  }

  private def values(p: Plan): Seq[Any] = run(p).collect().toSeq.map(_.get(0))

  test("avg of integers is the exact mean truncated toward zero, in the argument's type, for every overflow option") {
    val big = 4611686018427387905L
    val groups: Seq[(Int, Seq[Long])] = Seq(
      1 -> Seq(big, big + 1), // mean 4611686018427387905.5 -> ...905 (double gives ...904)
      2 -> Seq(Long.MaxValue, Long.MaxValue, Long.MaxValue), // the sum needs 65 bits; the mean is MAX
      3 -> Seq(Long.MinValue, Long.MinValue), // MIN
      4 -> Seq(Long.MinValue, Long.MaxValue), // -0.5 -> 0
      5 -> Seq(-7L, -8L), // -7.5 -> -7 (toward zero, not floor)
      6 -> Seq(7L, 8L, 8L)) // duplicates: 23 / 3 = 7.67 -> 7
    val expected = Map(1 -> big, 2 -> Long.MaxValue, 3 -> Long.MinValue, 4 -> 0L, 5 -> -7L, 6 -> 7L)
    for (overflow <- Seq(Nil, Seq("ERROR"), Seq("SILENT"), Seq("SATURATE"))) {
      val pb = new PlanBuilder()
      val rows = groups.flatMap { case (g, vs) => vs.map(v => Seq(litI32(g), litI64(v))) } :+
        Seq(litI32(7), litNull(i64()))
      val m = pb.measure(pb.fn(Arithmetic, "avg:i64"), Seq(field(1)),
        options = if (overflow.isEmpty) Nil else Seq("overflow" -> overflow))
      val got =
        run(pb.plan(aggregate(readVirtual(schema("g" -> i32(), "x" -> i64()), rows), Seq(field(0)), Seq(m)), "g", "r"))
          .collect().map(r => r.getInt(0) -> r.get(1)).toMap
      assert(got == expected.map { case (g, v) => g -> v } + (7 -> null), s"overflow $overflow: $got")
    }
    // An empty input: NULL.
    val pb = new PlanBuilder()
    val m = pb.measure(pb.fn(Arithmetic, "avg:i32"), Seq(field(0)))
    assertRows(run(pb.plan(aggregate(filter(readVirtual(schema("x" -> i32()), Seq(Seq(litI32(1)))), litBool(false)),
            Nil, Seq(m)), "r")),
      Seq(Row(null)))
  }

  test("divide with overflow SATURATE clamps MIN / -1 to MAX at every integer width") {
    val cases: Seq[(String, Type, Expression, Expression, Any, Any)] = Seq(
      ("i8", i8(), litI8(-128), litI8(-1), 127.toByte, 1.toByte),
      ("i16", i16(), litI16(-32768), litI16(-1), 32767.toShort, 1.toShort),
      ("i32", i32(), litI32(Int.MinValue), litI32(-1), Int.MaxValue, 1),
      ("i64", i64(), litI64(Long.MinValue), litI64(-1), Long.MaxValue, 1L))
    for ((name, t, min, minusOne, max, one) <- cases) {
      // MIN / -1 saturates; MIN / MIN is 1; -1 / MIN truncates to 0.
      val p = scalar(s"divide:${name}_$name", Seq("overflow" -> Seq("SATURATE")), Seq(t, t),
        Seq(Seq(min, minusOne), Seq(min, min), Seq(minusOne, min)))
      val zero = one match {
        case _: Byte => 0.toByte
        case _: Short => 0.toShort
        case _: Long => 0L
        case _ => 0
      }
      assert(values(p) == Seq(max, one, zero), name)
    }
  }

  test("divide of fp64 sends a NaN operand and an infinity over an infinity to on_domain_error") {
    val rows = Seq(
      Seq(litFp64(Double.NaN), litFp64(2.0)), Seq(litFp64(1.0), litFp64(Double.NaN)),
      Seq(litFp64(Double.PositiveInfinity), litFp64(Double.NegativeInfinity)),
      Seq(litFp64(Double.NegativeInfinity), litFp64(Double.NegativeInfinity)),
      Seq(litFp64(6.0), litFp64(-4.0)), Seq(litFp64(Double.PositiveInfinity), litFp64(2.0)))
    val asNull = values(scalar("divide:fp64_fp64", Seq("on_domain_error" -> Seq("NULL")), Seq(fp64(), fp64()), rows))
    assert(asNull == Seq(null, null, null, null, -1.5, Double.PositiveInfinity), asNull)
    val asNaN = values(scalar("divide:fp64_fp64", Seq("on_domain_error" -> Seq("NAN")), Seq(fp64(), fp64()), rows))
    assert(asNaN.take(4).forall(_.asInstanceOf[Double].isNaN) && asNaN.drop(4) == Seq(-1.5, Double.PositiveInfinity),
      asNaN)
    // IEEE division by zero: ±∞ by the signs (-0.0 is negative), NaN for 0 / 0.
    val byZero = values(scalar("divide:fp64_fp64", Seq("on_division_by_zero" -> Seq("IEEE")), Seq(fp64(), fp64()),
        Seq(Seq(litFp64(1.0), litFp64(0.0)), Seq(litFp64(1.0), litFp64(-0.0)), Seq(litFp64(0.0), litFp64(0.0)))))
    assert(byZero.take(2) == Seq(Double.PositiveInfinity, Double.NegativeInfinity) &&
        byZero(2).asInstanceOf[Double].isNaN, byZero)
  }

  test(
    "divide of doubles: NaN over 0 is NaN and NULL over 0 NULL whatever on_division_by_zero; IEEE's options add no CASE") {
    val rows = Seq(Seq(litFp64(Double.NaN), litFp64(0.0)), Seq(litNull(fp64()), litFp64(0.0)),
      Seq(litFp64(Double.PositiveInfinity), litFp64(Double.PositiveInfinity)), Seq(litFp64(6.0), litFp64(-4.0)),
      Seq(litFp64(1.0), litNull(fp64())))
    def isNaN(v: Any) = v.isInstanceOf[Double] && v.asInstanceOf[Double].isNaN
    for (byZero <- Seq("IEEE", "LIMIT", "NULL", "ERROR")) {
      val got = values(scalar("divide:fp64_fp64", Seq("on_division_by_zero" -> Seq(byZero)), Seq(fp64(), fp64()), rows))
      assert(isNaN(got(0)) && got(1) == null && isNaN(got(2)) && got.drop(3) == Seq(-1.5, null), s"$byZero: $got")
    }
    val oneOverZero = Seq(Seq(litFp64(1.0), litFp64(0.0)))
    def answer(byZero: String) =
      values(scalar("divide:fp64_fp64", Seq("on_division_by_zero" -> Seq(byZero)), Seq(fp64(), fp64()), oneOverZero))
    assert(answer("IEEE") == Seq(Double.PositiveInfinity) && answer("LIMIT") == Seq(Double.PositiveInfinity) &&
      answer("NULL") == Seq(null))
    val e = intercept[Exception](answer("ERROR"))
    assert(causes(e).exists {
        case f: io.sparksubstrait.errors.SubstraitFunctionException => f.getCondition == "SUBSTRAIT_DIVISION_BY_ZERO"
        case _ => false
      }, e)
    // IEEE's answers everywhere: the quotient alone (a CASE per quotient costs Spark's optimizer time).
    val plain = run(scalar("divide:fp64_fp64", Seq("on_division_by_zero" -> Seq("IEEE")), Seq(fp64(), fp64()), rows))
    assert(
      !plain.queryExecution.analyzed.exists(_.expressions.exists(_.exists(
            _.isInstanceOf[org.apache.spark.sql.catalyst.expressions.CaseWhen]))), plain.queryExecution.analyzed)
  }

  test("a -0.0 literal keeps its sign in a JSON plan: coalesce(-0.0, NULL) and nullif(-0.0, 1.0) are -0.0") {
    def negativeZero(v: Any): Boolean = v == -0.0 && 1.0 / v.asInstanceOf[Double] < 0
    val pb = new PlanBuilder()
    val coalesce = pb.call(pb.fn("functions_comparison", "coalesce:fp64"), field(0), litNull(fp64()))
    val nullif = pb.call(pb.fn("functions_comparison", "nullif:fp64_fp64"), field(0), litFp64(1.0))
    val plan =
      pb.plan(emit(project(readVirtual(schema("z" -> fp64()), Seq(Seq(litFp64(-0.0)))), coalesce, nullif, field(0)), 1,
          2, 3),
        "c", "n", "z")
    val json = com.google.protobuf.util.JsonFormat.printer().print(plan)
    assert(json.contains("-0.0"), json)
    for (df <- Seq(SubstraitPlans.readJson(spark, json), run(plan))) {
      val row = df.collect().head
      assert((0 until 3).forall(i => negativeZero(row.get(i))), row)
    }
  }

  test("the fp64 mean of integers: below 2^53 the IEEE quotient, which is the exact mean rounded once") {
    import io.sparksubstrait.runtime.Int128
    val rnd = new scala.util.Random(53)
    val edge = 1L << 53
    val sums = Seq(0L, 1L, -1L, 7L, edge - 1, -(edge - 1), edge, -edge, Long.MaxValue, Long.MinValue) ++
      Seq.fill(20000)(rnd.nextLong() >> rnd.nextInt(64))
    val counts = Seq(1L, 2L, 3L, 7L, 10L, edge - 1, edge) ++
      Seq.fill(20)(1L + (rnd.nextLong() >>> (1 + rnd.nextInt(63))))
    for (lo <- sums; count <- counts.take(3 + rnd.nextInt(counts.size - 2))) {
      val hi = lo >> 63
      assert(Int128.mean(hi, lo, count) == Int128.exactMean(hi, lo, count), s"$lo / $count")
    }
    // 2^53 + 1 is no double: the exact path, a tie rounded to even (2^53).
    assert(Int128.mean(0L, edge + 1, 1L) == (edge + 1).toDouble)
  }
}
