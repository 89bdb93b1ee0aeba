package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{ExchangeRel, ExpandRel, Rel}
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** ExpandRel and ExchangeRel against rows worked out by hand and Spark SQL. */
class PhysicalRelationsSuite extends SparkSuite with SubstraitAssertions {
  private val s = schema("k" -> i32(), "v" -> string())
  private val rows =
    Seq(Seq(litI32(1), litString("a")), Seq(litNull(i32()), litString("b")), Seq(litI32(1), litString("a")))
  private def expand(fields: ExpandRel.ExpandField*) =
    Rel.newBuilder().setExpand(ExpandRel.newBuilder().setInput(readVirtual(s, rows))
        .addAllFields(java.util.Arrays.asList(fields: _*))).build()
  private def switching(es: io.sparksubstrait.proto.Expression*) = ExpandRel.ExpandField.newBuilder().setSwitchingField(
    ExpandRel.SwitchingField.newBuilder().addAllDuplicates(java.util.Arrays.asList(es: _*))).build()
  private def consistent(e: io.sparksubstrait.proto.Expression) =
    ExpandRel.ExpandField.newBuilder().setConsistentField(e).build()

  test("expand: switching and consistent fields, NULL padding, pass-through of undefined fields, the duplicate index") {
    // Rows worked out by hand: each input row (with a NULL key and a duplicated row) becomes
    // three, the last column being the index of the duplicate (i32, from 0).
    val df = run(new PlanBuilder().plan(expand(switching(field(0), litI32(7), litNull(i32())), consistent(field(1))),
        "x", "v", "i"))
    assertRows(df,
      Seq(Row(1, "a", 0), Row(7, "a", 1), Row(null, "a", 2), Row(null, "b", 0), Row(7, "b", 1), Row(null, "b", 2),
        Row(1, "a", 0), Row(7, "a", 1), Row(null, "a", 2)))
    assert(df.schema("i").dataType == org.apache.spark.sql.types.IntegerType && !df.schema("i").nullable)
    // Fewer duplicates in one switching field: NULL fills; the second input field passes through.
    val padded = run(new PlanBuilder().plan(expand(switching(field(0), litI32(5))), "x", "v", "i"))
    assertRows(padded,
      Seq(Row(1, "a", 0), Row(5, "a", 1), Row(null, "b", 0), Row(5, "b", 1), Row(1, "a", 0), Row(5, "a", 1)))
    val uneven =
      run(new PlanBuilder().plan(expand(switching(litI32(1), litI32(2)), switching(litString("z"))), "x", "y", "i"))
    assertRows(uneven,
      Seq(Row(1, "z", 0), Row(2, null, 1), Row(1, "z", 0), Row(2, null, 1), Row(1, "z", 0), Row(2, null, 1)))
    // Only consistent fields: one duplicate, index 0.
    val once = run(new PlanBuilder().plan(expand(consistent(field(1))), "v", "v2", "i"))
    assertRows(once, Seq(Row("a", "a", 0), Row("b", "b", 0), Row("a", "a", 0)))
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.expand.fields[0].switching_field") {
      run(new PlanBuilder().plan(expand(switching(field(0), field(1))), "x", "v", "i"))
    }
  }

  test("expand: references past the expand fields reach the duplicate index (filter, aggregate by it, empty input)") {
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:any_any")
    // Keep the rows of duplicate 1 only: field 2 is the index.
    val second = filter(expand(switching(field(0), litI32(7)), consistent(field(1))), b.call(eq, field(2), litI32(1)))
    assertRows(run(b.plan(second, "x", "v", "i")), Seq(Row(7, "a", 1), Row(7, "b", 1), Row(7, "a", 1)))
    // Count rows per duplicate index, as Spark SQL counts the same rows built with UNION ALL.
    val count = b.measure(b.fn("functions_aggregate_generic", "count:any"), Seq(field(1)))
    val perIndex = aggregate(expand(switching(field(0), litNull(i32()))), Seq(field(2)), Seq(count))
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW xs AS SELECT * FROM VALUES (1, 'a'), (CAST(NULL AS INT), 'b'), (1, 'a') AS t(k, v)")
    assertSameRows(run(b.plan(perIndex, "i", "n")),
      spark.sql("SELECT i, count(v) FROM (SELECT k, v, 0 AS i FROM xs UNION ALL SELECT NULL, v, 1 FROM xs) GROUP BY i"))
    // Empty input: no rows, and the index column still has its place.
    val empty = Rel.newBuilder().setExpand(ExpandRel.newBuilder().setInput(readVirtual(s, Nil))
        .addFields(switching(field(0), litI32(2)))).build()
    val none = run(b.plan(filter(empty, b.call(eq, field(2), litI32(0))), "x", "v", "i"))
    assert(none.collect().isEmpty && none.columns.length == 3)
  }

  test("exchange: scatter by fields and round robin keep the rows; other kinds are refused") {
    spark.sql("CREATE OR REPLACE TEMP VIEW ex AS SELECT id % 7 AS k, CAST(id AS STRING) AS v FROM range(100)")
    val base = readNamed(schema("k" -> i64(), "v" -> string()), "ex")
    def exchange(f: ExchangeRel.Builder => ExchangeRel.Builder) =
      Rel.newBuilder().setExchange(f(ExchangeRel.newBuilder().setInput(base))).build()
    val scatter = run(new PlanBuilder().plan(exchange(_.setPartitionCount(3).setScatterByFields(
            ExchangeRel.ScatterFields.newBuilder().addFields(field(0).getSelection))), "k", "v"))
    assertSameRows(scatter, spark.sql("SELECT * FROM ex"))
    assert(scatter.rdd.getNumPartitions == 3)
    val robin = run(new PlanBuilder().plan(
        exchange(_.setPartitionCount(4).setRoundRobin(ExchangeRel.RoundRobin.getDefaultInstance)), "k", "v"))
    assertSameRows(robin, spark.sql("SELECT * FROM ex"))
    assert(robin.rdd.getNumPartitions == 4)
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.exchange.broadcast") {
      run(new PlanBuilder().plan(exchange(_.setBroadcast(ExchangeRel.Broadcast.getDefaultInstance)), "k", "v"))
    }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.exchange.multi_target") {
      run(new PlanBuilder().plan(
          exchange(_.setMultiTarget(ExchangeRel.MultiBucketExpression.newBuilder().setExpression(field(0)))), "k", "v"))
    }
  }

  test(
    "exchange: a single bucket expression puts each record in the partition it computes (Spark 4.1+), rows unchanged") {
    // k: 0..6 with NULLs and duplicates; buckets k - 1 reach -1 (taken modulo the count) and NULL (partition 0).
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW exb AS SELECT IF(id % 9 = 8, NULL, id % 7) AS k, CAST(id % 5 AS STRING) AS v FROM range(60)")
    spark.sql("CREATE OR REPLACE TEMP VIEW exb_empty AS SELECT * FROM exb WHERE false")
    val b = new PlanBuilder()
    val sub = b.fn("functions_arithmetic", "subtract:i64_i64")
    def single(table: String, count: Int) = b.plan(
      Rel.newBuilder().setExchange(ExchangeRel.newBuilder()
          .setInput(readNamed(schema("k" -> i64(), "v" -> string()), table)).setPartitionCount(count)
          .setSingleTarget(ExchangeRel.SingleBucketExpression.newBuilder().setExpression(b.call(sub, field(0),
                litI64(1))))).build(), "k", "v")
    if (Seq("3.", "4.0.").exists(org.apache.spark.SPARK_VERSION.startsWith)) {
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.exchange.single_target")(
        run(single("exb", 3)))
    } else {
      val df = run(single("exb", 3))
      assertSameRows(df, spark.sql("SELECT * FROM exb"))
      assertSameRows(run(single("exb_empty", 3)), spark.sql("SELECT * FROM exb_empty"))
      // Where each row went, worked out: (k - 1) mod 3, and partition 0 for a NULL k.
      val placed = df.rdd.mapPartitionsWithIndex((p, rows) =>
        rows.map(r => (p, Option(r.get(0)).map(_.asInstanceOf[Long])))).collect()
      assert(placed.length == 60 && df.rdd.getNumPartitions == 3)
      placed.foreach { case (p, k) =>
        assert(p == k.map(v => Math.floorMod(v - 1, 3L).toInt).getOrElse(0), s"k $k in partition $p")
      }
    }
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.exchange.single_target.expression") {
      run(b.plan(Rel.newBuilder().setExchange(ExchangeRel.newBuilder().setInput(readNamed(schema("k" -> i64(),
                  "v" -> string()), "exb"))
              .setSingleTarget(ExchangeRel.SingleBucketExpression.newBuilder().setExpression(field(1)))).build(), "k",
          "v"))
    }
  }
}
