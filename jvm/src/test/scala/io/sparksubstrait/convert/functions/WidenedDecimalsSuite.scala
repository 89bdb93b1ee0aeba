package io.sparksubstrait
package convert.functions

import java.math.{BigDecimal => JBigDecimal}

import org.apache.spark.sql.catalyst.expressions.BinaryArithmetic
import org.apache.spark.sql.types.DecimalType

import io.sparksubstrait.proto.{Plan, Type}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Decimal add / subtract / multiply of operands a producer widened first (DuckDB's
 * `CAST(q AS DECIMAL(17,0)) * CAST(p AS DECIMAL(17,2))`, declared DECIMAL(17,2)): computed on the
 * narrow operands, the same values as Spark SQL's expression as written, errors included.
 */
class WidenedDecimalsSuite extends SparkSuite with SubstraitAssertions {
  private val Decimal = "functions_arithmetic_decimal"
  private val rows: Seq[(Option[Int], Option[String])] = Seq(
    Some(3) -> Some("12.34"), Some(3) -> Some("12.34"), // a duplicate
    Some(-7) -> Some("99999.99"), Some(Int.MaxValue) -> Some("99999.99"), Some(Int.MinValue) -> Some("-99999.99"),
    None -> Some("1.00"), Some(5) -> None, Some(0) -> Some("-0.01"))

  private def table(pb: PlanBuilder): io.sparksubstrait.proto.Rel =
    readVirtual(schema("q" -> i32(), "p" -> decimal(7, 2)),
      rows.map { case (q, p) =>
        Seq(q.fold(litNull(i32()))(litI32), p.fold(litNull(decimal(7, 2)))(v => litDecimal(new JBigDecimal(v), 7, 2)))
      })

  private def values = rows.map { case (q, p) =>
    s"(${q.fold("CAST(NULL AS INT)")(v => s"CAST($v AS INT)")}, ${p.fold(
        "CAST(NULL AS DECIMAL(7,2))")(v => s"CAST($v AS DECIMAL(7,2))")})"
  }.mkString(", ")

  /** `op` of the widened q and p, declared `out`: the plan, and Spark SQL's same expression. */
  private def widened(op: String, wideP: Int, out: Type, outSql: String): (Plan, String) =
    widenedTo(op, (wideP, 0), (wideP, 2), out, outSql)

  /** `op` of q cast to DECIMAL`q` and p cast to DECIMAL`p`, declared `out`. */
  private def widenedTo(op: String, q: (Int, Int), p: (Int, Int), out: Type, outSql: String): (Plan, String) = {
    val pb = new PlanBuilder()
    val call = pb.callWith(pb.fn(Decimal, s"$op:dec_dec"), Nil, Some(out),
      cast(field(0), decimal(q._1, q._2)), cast(field(1), decimal(p._1, p._2)))
    val sqlOp = Map("multiply" -> "*", "add" -> "+", "subtract" -> "-")(op)
    (pb.plan(emit(project(table(pb), call), 2), "r"),
      s"SELECT CAST(CAST(q AS DECIMAL$q) $sqlOp CAST(p AS DECIMAL$p) AS $outSql) FROM VALUES $values AS t(q, p)")
  }

  /** The add / subtract / multiply expressions of the converted plan, in every node. */
  private def arithmetic(plan: Plan): Seq[BinaryArithmetic] =
    run(plan).queryExecution.analyzed.flatMap(_.expressions.flatMap(_.collect { case b: BinaryArithmetic => b }))

  test("the operands' widening casts are dropped, the values and the declared type as written") {
    for (op <- Seq("multiply", "add", "subtract")) {
      val (plan, sql) = widened(op, 17, decimal(17, 2), "DECIMAL(17,2)")
      assertRows(run(plan), spark.sql(sql).collect().toSeq)
      assert(run(plan).schema.head.dataType == DecimalType(17, 2))
      // The operation's operands are q as DECIMAL(10,0) and p itself; the declared type's cast is outside.
      val operands = arithmetic(plan).map(_.children.map(_.dataType))
      assert(operands == Seq(Seq(DecimalType(10, 0), DecimalType(7, 2))), operands)
    }
  }

  test("casts that add scale too (isthmus' integer at the other operand's scale) are dropped, same values") {
    // isthmus: `ws_ext_sales_price * CAST(ws_quantity AS DECIMAL(12,2))`, declared DECIMAL(17,2);
    // then p widened in both integer digits and scale.
    for (op <- Seq("multiply", "add", "subtract"); (q, p) <- Seq((12, 2) -> (7, 2), (10, 0) -> (12, 4))) {
      val (plan, sql) = widenedTo(op, q, p, decimal(17, 2), "DECIMAL(17,2)")
      assertRows(run(plan), spark.sql(sql).collect().toSeq)
      val operands = arithmetic(plan).map(_.children.map(_.dataType))
      assert(operands == Seq(Seq(DecimalType(10, 0), DecimalType(7, 2))), s"$op $q $p: $operands")
    }
  }

  test("a cast that drops integer digits or scale keeps its place (it can overflow or round)") {
    // DECIMAL(11,2) holds 9 integer digits, not every i32; DECIMAL(7,1) rounds p's cents.
    for ((q, p) <- Seq((11, 2) -> (7, 2), (10, 0) -> (7, 1))) {
      withConf("spark.sql.ansi.enabled", "false") {
        val (plan, sql) = widenedTo("multiply", q, p, decimal(17, 2), "DECIMAL(17,2)")
        assertRows(run(plan), spark.sql(sql).collect().toSeq)
        val operands = arithmetic(plan).map(_.children.map(_.dataType))
        assert(operands == Seq(Seq(DecimalType(q._1, q._2), DecimalType(p._1, p._2))), s"$q $p: $operands")
      }
    }
  }

  test("a declared type too narrow for a value: the same error as written (ANSI), NULL in legacy") {
    val (plan, sql) = widened("multiply", 17, decimal(9, 2), "DECIMAL(9,2)")
    val ours = intercept[Exception](run(plan).collect())
    val theirs = intercept[Exception](spark.sql(sql).collect())
    assert(ours.getMessage.contains("NUMERIC_VALUE_OUT_OF_RANGE") && theirs.getMessage.contains(
        "NUMERIC_VALUE_OUT_OF_RANGE"), ours.getMessage)
    withConf("spark.sql.ansi.enabled", "false") {
      val (legacy, legacySql) = widened("multiply", 17, decimal(9, 2), "DECIMAL(9,2)")
      assertRows(run(legacy), spark.sql(legacySql).collect().toSeq)
    }
  }

  test("operands widened past an exact result (38 digits) keep their casts: Spark's rounding as written") {
    val (plan, sql) = widened("multiply", 30, decimal(38, 2), "DECIMAL(38,2)")
    assertRows(run(plan), spark.sql(sql).collect().toSeq)
    val operands = arithmetic(plan).map(_.children.map(_.dataType))
    assert(operands == Seq(Seq(DecimalType(30, 0), DecimalType(30, 2))), operands)
  }
}
