package io.sparksubstrait
package producers

import io.sparksubstrait.proto.{JoinRel, Plan, Version}
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * DataFusion 31-32 and 43-55 write a JoinRel without its expression (a cross join; a condition
 * only in post_join_filter), which the spec forbids: read with the literal true
 * (decode/readings/JoinWithoutExpression), against Spark SQL over rows with NULLs, a duplicate
 * and an empty table; DataFusion 39-42 and other producers' plans stay refused.
 */
class JoinWithoutExpressionSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW l AS SELECT * FROM VALUES (1, 'a'), (2, NULL), (2, NULL), (NULL, 'd') AS l(k, s)")
    spark.sql("CREATE OR REPLACE TEMP VIEW r AS SELECT * FROM VALUES (1), (3), (NULL) AS r(v)")
    spark.sql("CREATE OR REPLACE TEMP VIEW e AS SELECT * FROM r WHERE false")
  }

  private def stamped(plan: Plan, producer: String, minor: Int): Plan =
    plan.toBuilder.setVersion(Version.newBuilder().setMinorNumber(minor).setProducer(producer)).build()

  private def left = readNamed(schema("k" -> i32(), "s" -> string()), "l")
  private def right(table: String) = readNamed(schema("v" -> i32()), table)

  /** SELECT * FROM l CROSS JOIN r, and ... JOIN r ON k < v (the condition in post_join_filter), no expression. */
  private def crossJoin(table: String): Plan =
    new PlanBuilder().plan(join(left, right(table), JoinRel.JoinType.JOIN_TYPE_INNER), "k", "s", "v")
  private def nonEqui(table: String): Plan = {
    val b = new PlanBuilder()
    val lt = b.fn("functions_comparison", "lt:i32_i32")
    b.plan(join(left, right(table), JoinRel.JoinType.JOIN_TYPE_INNER, None, Some(b.call(lt, field(0), field(2)))),
      "k", "s", "v")
  }

  private def readingsOf(plan: Plan): Seq[String] =
    PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active).readings.map(_.name)

  test("DataFusion 31-32 and 43-55: a join without expression pairs every row (then post_join_filter)") {
    for (minor <- Seq(33, 35, 58, 85); table <- Seq("r", "e")) {
      val cross = stamped(crossJoin(table), "datafusion", minor)
      assert(readingsOf(cross).contains("datafusion-join-without-expression"))
      assertRows(run(cross), spark.sql(s"SELECT * FROM l CROSS JOIN $table").collect().toSeq)
      assertRows(run(stamped(nonEqui(table), "datafusion", minor)),
        spark.sql(s"SELECT * FROM l JOIN $table ON k < v").collect().toSeq)
    }
    // Worked by hand: 4 x 3 pairs, the duplicate twice; k < v: (1, 3), (2, 3) twice.
    assert(run(stamped(crossJoin("r"), "datafusion", 33)).count() == 12)
    assertRows(run(stamped(nonEqui("r"), "datafusion", 33)), Seq(Row(1, "a", 3), Row(2, null, 3), Row(2, null, 3)))
  }

  test("DataFusion 39-42 (which write the expression) and other producers: refused as the spec says") {
    for (plan <-
        Seq(stamped(crossJoin("r"), "datafusion", 49), stamped(crossJoin("r"), "DuckDB", 53), crossJoin("r"))) {
      assert(!readingsOf(plan).contains("datafusion-join-without-expression"))
      assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.join.expression")(run(plan))
    }
  }
}
