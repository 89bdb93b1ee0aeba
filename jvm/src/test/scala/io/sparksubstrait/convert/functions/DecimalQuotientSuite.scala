package io.sparksubstrait
package convert.functions

import java.math.{BigDecimal => JBigDecimal, RoundingMode}

import org.apache.spark.sql.catalyst.expressions.CaseWhen
import org.apache.spark.sql.types.Decimal

import io.sparksubstrait.errors.SubstraitFunctionException
import io.sparksubstrait.proto.{Expression, Plan, Type}
import io.sparksubstrait.runtime.{DecimalQuotient, DecimalQuotients}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Decimal divide at the plan's declared scale: the exact quotient rounded once, half away from
 * zero (not at Spark's scale and again by the cast), the zero divisor and a quotient beyond 38
 * digits as the options say; the long-division fast path against BigDecimal division.
 */
class DecimalQuotientSuite extends SparkSuite with SubstraitAssertions {
  private def dec(v: String): JBigDecimal = new JBigDecimal(v)

  /** x / y per row of a virtual table of DECIMAL(px,sx) and DECIMAL(py,sy) columns, declared `out`. */
  private def quotients(px: Int, sx: Int, py: Int, sy: Int, out: Type, rows: Seq[(String, String)],
    options: Seq[(String, Seq[String])] = Nil): Plan = quotientsDeclaring(px, sx, py, sy, Some(out), rows, options)

  /** The same, with the output type `out` declared or (None, as DataFusion 31-54 writes) left out. */
  private def quotientsDeclaring(px: Int, sx: Int, py: Int, sy: Int, out: Option[Type], rows: Seq[(String, String)],
    options: Seq[(String, Seq[String])]): Plan = {
    val pb = new PlanBuilder()
    def lit(v: String, p: Int, s: Int): Expression =
      if (v == null) litNull(decimal(p, s)) else litDecimal(dec(v), p, s)
    val table = readVirtual(schema("x" -> decimal(px, sx), "y" -> decimal(py, sy)),
      rows.map { case (x, y) => Seq(lit(x, px, sx), lit(y, py, sy)) })
    val call =
      pb.callWith(pb.fn("functions_arithmetic_decimal", "divide:dec_dec"), options, out, field(0), field(1))
    pb.plan(emit(project(table, call), 2), "q")
  }

  private def column(p: Plan): Seq[Any] = run(p).collect().toSeq.map(_.get(0))

  test(
    "rounded once at the declared scale: 0.0000009999 / 2 is 0.000000 (Spark's scale-10 quotient cast again gives 0.000001)") {
    // DECIMAL(38,10) / DECIMAL(38,0): Spark's quotient has scale 10 (precision loss), 0.0000005000.
    val got = column(quotients(38, 10, 38, 0, decimal(38, 6), Seq("0.0000009999" -> "2", "-0.0000009999" -> "2")))
    assert(got == Seq(dec("0.000000"), dec("0.000000")), got)
    val spark2 =
      spark.sql("SELECT CAST(CAST(0.0000009999 AS DECIMAL(38,10)) / CAST(2 AS DECIMAL(38,0)) AS DECIMAL(38,6))")
    assert(spark2.collect().head.getDecimal(0) == dec("0.000001")) // the double rounding this avoids
  }

  test("ties away from zero, NULLs, duplicates, negative operands, against hand-worked quotients") {
    val rows = Seq("1.00" -> "8", "1.00" -> "8", "-1.00" -> "8", "1.00" -> "-8", "-1.00" -> "-8", "2.00" -> "3",
      "-2.00" -> "3", (null: String) -> "2", "1.00" -> null, "0.00" -> "7", "99999999.99" -> "1")
    val got = column(quotients(10, 2, 10, 0, decimal(14, 2), rows))
    val expected = Seq("0.13", "0.13", "-0.13", "-0.13", "0.13", "0.67", "-0.67", null, null, "0.00", "99999999.99")
      .map(v => if (v == null) null else dec(v))
    assert(got == expected, got)
  }

  test(
    "a zero divisor: NULL or our error as on_division_by_zero says; a quotient beyond 38 digits: NULL or the overflow error") {
    val byZero = Seq("1.00" -> "0", (null: String) -> "0")
    assert(column(quotients(10, 2, 10, 0, decimal(14, 2), byZero, Seq("on_division_by_zero" -> Seq("NULL")))) ==
      Seq(null, null))
    val e = intercept[Exception](
      column(quotients(10, 2, 10, 0, decimal(14, 2), byZero, Seq("on_division_by_zero" -> Seq("ERROR")))))
    assert(causes(e).exists {
        case f: SubstraitFunctionException => f.getCondition == "SUBSTRAIT_DIVISION_BY_ZERO"
        case _ => false
      }, e)
    // 10^37 / 10^-10 at scale 0 has 48 digits.
    val huge = Seq("9" * 37 -> "0.0000000001")
    assert(column(quotients(38, 0, 38, 10, decimal(38, 0), huge, Seq("overflow" -> Seq("SILENT")))) == Seq(null))
    val o =
      intercept[Exception](column(quotients(38, 0, 38, 10, decimal(38, 0), huge, Seq("overflow" -> Seq("ERROR")))))
    assert(causes(o).exists {
        case f: SubstraitFunctionException => f.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW"
        case _ => false
      }, o)
  }

  test(
    "no declared output type: Spark's quotient, and a zero divisor answered as on_division_by_zero says, by our error") {
    val rows = Seq("7.50" -> "2.50", "7.50" -> "2.50", "-1.00" -> "3.00", (null: String) -> "0.00", "1.00" -> null)
    val spark2 = spark.sql("SELECT CAST(7.50 AS DECIMAL(10,2)) / CAST(2.50 AS DECIMAL(10,2)), " +
      "CAST(-1.00 AS DECIMAL(10,2)) / CAST(3.00 AS DECIMAL(10,2))").collect().head
    val expected = Seq(spark2.getDecimal(0), spark2.getDecimal(0), spark2.getDecimal(1), null, null)
    for (choice <- Seq("ERROR", "NULL")) {
      val got = column(quotientsDeclaring(10, 2, 10, 2, None, rows, Seq("on_division_by_zero" -> Seq(choice))))
      assert(got == expected, s"$choice: $got")
    }
    val byZero = Seq("1.00" -> "0.00", "0.00" -> "0.00")
    assert(column(quotientsDeclaring(10, 2, 10, 2, None, byZero, Seq("on_division_by_zero" -> Seq("NULL")))) ==
      Seq(null, null))
    // Before, Spark's own DIVIDE_BY_ZERO (no place in the plan) came out of the ANSI quotient.
    val e = intercept[Exception](
      column(quotientsDeclaring(10, 2, 10, 2, None, byZero, Seq("on_division_by_zero" -> Seq("ERROR")))))
    assert(causes(e).exists {
        case f: SubstraitFunctionException => f.getCondition == "SUBSTRAIT_DIVISION_BY_ZERO"
        case _ => false
      }, e)
  }

  test("the long-division fast path is BigDecimal's quotient, on random operands, scales and signs") {
    val rnd = new scala.util.Random(38)
    def value(digits: Int, scale: Int): Decimal = {
      val unscaled = (BigInt(rnd.nextLong()).abs % BigInt(10).pow(digits)) * (if (rnd.nextBoolean()) 1 else -1)
      Decimal(new JBigDecimal(unscaled.bigInteger, scale), digits, scale)
    }
    for (_ <- 0 until 50000) {
      val (px, py) = (1 + rnd.nextInt(18), 1 + rnd.nextInt(18))
      val (sx, sy) = (rnd.nextInt(px + 1), rnd.nextInt(py + 1))
      val x = value(px, sx)
      val y = value(py, sy)
      val scale = rnd.nextInt(20)
      if (y.toJavaBigDecimal.signum != 0) {
        assert(DecimalQuotients.divide(x, y, scale) == DecimalQuotients.divideExactly(x, y, scale),
          s"$x / $y at $scale")
      }
    }
    // Ties at the edge of a long: 9223372036854775807 / 2 and its negative, half away from zero.
    val max = Decimal(new JBigDecimal(Long.MaxValue.toString), 19, 0)
    assert(DecimalQuotients.divide(Decimal(dec("-5"), 18, 0), Decimal(dec("10"), 18, 0), 0).toJavaBigDecimal ==
      dec("-1"))
    assert(DecimalQuotients.divide(max, Decimal(dec("2"), 18, 0), 0).toJavaBigDecimal ==
      dec(Long.MaxValue.toString).divide(dec("2"), 0, RoundingMode.HALF_UP))
  }

  test("TPC-DS q04's divide of a DECIMAL(7,2) by an integer, declared DECIMAL(14,6): Spark SQL's rows and type") {
    val rows = Seq("10.01" -> "2", "10.01" -> "2", "-3.33" -> "2", (null: String) -> "2")
    val got = column(quotients(7, 2, 10, 0, decimal(14, 6), rows))
    val sql = spark.sql("SELECT CAST(x / y AS DECIMAL(14,6)) FROM VALUES (CAST(10.01 AS DECIMAL(7,2)), 2), " +
      "(CAST(10.01 AS DECIMAL(7,2)), 2), (CAST(-3.33 AS DECIMAL(7,2)), 2), (CAST(NULL AS DECIMAL(7,2)), 2) AS t(x, y)")
    assert(got == sql.collect().toSeq.map(_.get(0)), got)
    assert(run(quotients(7, 2, 10, 0, decimal(14, 6), rows)).schema.head.dataType ==
      org.apache.spark.sql.types.DecimalType(14, 6))
  }

  test("one expression: a NULL operand gives NULL before the zero divisor's error; no CASE around the quotient") {
    // A CASE per quotient made Spark's optimizer take 50 ms more on TPC-DS q66 than on the SQL.
    for (byZero <- Seq("NULL", "ERROR")) {
      val plan = quotients(10, 2, 10, 0, decimal(14, 2), Seq((null: String) -> "0", "1.00" -> null, "3.00" -> "2"),
        Seq("on_division_by_zero" -> Seq(byZero)))
      assert(column(plan) == Seq(null, null, dec("1.50")), byZero)
      val expressions = run(plan).queryExecution.analyzed.flatMap(_.expressions.flatMap(_.collect { case e => e }))
      assert(expressions.exists(_.isInstanceOf[DecimalQuotient]) && !expressions.exists(_.isInstanceOf[CaseWhen]),
        expressions)
    }
  }

  /** x / y over a Parquet table of 5,000 rows (every 23rd divisor 0): generated code, not interpreted. */
  private def parquetQuotients(byZero: String): org.apache.spark.sql.DataFrame = {
    val dir = tempDir("quotients").toString + "/t"
    spark.sql("SELECT CAST((id * 7919 % 2000001 - 1000000) / 100 AS DECIMAL(7,2)) AS x, " +
      "CAST(id % 23 - 11 AS DECIMAL(10,0)) AS y FROM range(5000)").write.parquet(dir)
    spark.read.parquet(dir).createOrReplaceTempView("quot")
    val pb = new PlanBuilder()
    val call = pb.callWith(pb.fn("functions_arithmetic_decimal", "divide:dec_dec"),
      Seq("on_division_by_zero" -> Seq(byZero)), Some(decimal(14, 6)), field(0), field(1))
    run(pb.plan(project(readNamed(schema("x" -> decimal(7, 2), "y" -> decimal(10, 0)), "quot"), call), "x", "y", "q"))
  }

  test("in generated code, a zero divisor under on_division_by_zero ERROR is our error") {
    val e = intercept[Exception](parquetQuotients("ERROR").collect())
    assert(causes(e).exists {
        case f: SubstraitFunctionException => f.getCondition == "SUBSTRAIT_DIVISION_BY_ZERO"
        case _ => false
      }, e)
  }

  test("in generated code, over a Parquet table: every row's quotient is BigDecimal's, a zero divisor NULL") {
    val df = parquetQuotients("NULL")
    val rows = df.collect()
    assert(df.queryExecution.executedPlan.toString.contains("*("), df.queryExecution.executedPlan) // whole-stage code
    assert(rows.length == 5000)
    rows.foreach { r =>
      val (x, y) = (r.getDecimal(0), r.getDecimal(1))
      val expected = if (y.signum == 0) null else x.divide(y, 6, RoundingMode.HALF_UP)
      assert(r.get(2) == expected, r)
    }
  }
}
