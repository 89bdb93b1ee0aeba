package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{Plan, PlanRel, ReferenceRel, Rel, RelRoot}
import io.sparksubstrait.proto.JoinRel.JoinType.JOIN_TYPE_INNER
import org.apache.spark.sql.Row

import io.sparksubstrait.implicits._
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** ReferenceRel (a subtree defined once, used several times) and plans with several roots. */
class ReferencesSuite extends SparkSuite with SubstraitAssertions {
  private val s = schema("k" -> i32(), "v" -> string())

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW src AS SELECT * FROM VALUES (1, 'a'), (2, 'b'), (2, 'c'), (NULL, 'n') AS t(k, v)")
  }

  private def reference(i: Int) = Rel.newBuilder().setReference(ReferenceRel.newBuilder().setSubtreeOrdinal(i)).build()

  /** relations[0]: src filtered on k > 1; relations[1]: the root joining it with itself. */
  private def sharedPlan(): Plan = {
    val b = new PlanBuilder()
    val shared = filter(readNamed(s, "src"), b.call(b.fn("functions_comparison", "gt:i32_i32"), field(0), litI32(1)))
    val root = join(reference(0), reference(0), JOIN_TYPE_INNER,
      Some(b.call(b.fn("functions_comparison", "equal:any_any"), field(0), field(2))))
    val p = b.plan(root, "k1", "v1", "k2", "v2")
    p.toBuilder.clearRelations().addRelations(PlanRel.newBuilder().setRel(shared)).addRelations(
      p.getRelations(0)).build()
  }

  test("a subtree referenced twice gives the same rows as the SQL CTE, planned as one shared CTE") {
    val df = run(sharedPlan())
    assertSameRows(df, spark.sql("WITH f AS (SELECT * FROM src WHERE k > 1) SELECT * FROM f a JOIN f b ON a.k = b.k"))
    val analyzed = df.queryExecution.analyzed.toString
    assert(analyzed.contains("WithCTE") && analyzed.contains("CTERelationRef"), analyzed)
    val ids = df.queryExecution.analyzed.collect { case r: org.apache.spark.sql.catalyst.plans.logical.CTERelationRef =>
      r.cteId
    }
    assert(ids.size == 2 && ids.distinct.size == 1, "both references point at the one definition")
  }

  test("a shared subtree is computed once per query: its scan runs once, counted by the executed plan's metrics") {
    import org.apache.spark.sql.execution.FileSourceScanExec
    import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanHelper
    val dir = tempDir("shared-scan").resolve("t").toString
    // 1000 rows with NULL keys and duplicates, in a file table so the scan has its own metrics.
    spark.sql("SELECT IF(id % 10 = 0, NULL, CAST(id % 7 AS INT)) AS k, CAST(id % 3 AS STRING) AS v FROM range(1000)")
      .write.parquet(dir)
    spark.read.parquet(dir).createOrReplaceTempView("big")
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val eq = b.fn("functions_comparison", "equal:any_any")
    val subtree = filter(readNamed(s, "big"), b.call(gt, field(0), litI32(1)))
    // The two uses differ (one is filtered further), so only sharing, not exchange reuse of
    // two identical copies, can make them one computation.
    def root(left: Rel, right: Rel) = join(filter(left, b.call(eq, field(1), litString("1"))), right, JOIN_TYPE_INNER,
      Some(b.call(eq, field(0), field(2))))
    def scans(df: org.apache.spark.sql.DataFrame) = {
      df.collect()
      new AdaptiveSparkPlanHelper {}.collect(df.queryExecution.executedPlan) { case s: FileSourceScanExec => s }
    }
    val expected =
      spark.sql("WITH f AS (SELECT * FROM big WHERE k > 1) SELECT * FROM f a JOIN f b ON a.k = b.k WHERE a.v = '1'")
    // Sort-merge join, so that both sides are shuffles (the broadcast threshold would pick one side to broadcast).
    withConf("spark.sql.autoBroadcastJoinThreshold", "-1") {
      val p = b.plan(root(reference(0), reference(0)), "k1", "v1", "k2", "v2")
      val shared = run(p.toBuilder.clearRelations().addRelations(PlanRel.newBuilder().setRel(subtree)).addRelations(
          p.getRelations(0)).build())
      assertSameRows(shared, expected)
      val once = scans(shared)
      // Once: one scan node, which read the table's 1000 rows one time (twice would be 2000).
      assert(once.size == 1 && once.map(_.metrics("numOutputRows").value).sum == 1000,
        s"${once.size} scans:\n${shared.queryExecution.executedPlan}")
      // The column that keeps the definition shared is pruned: nothing computes it.
      assert(!shared.queryExecution.optimizedPlan.toString.contains("rand("),
        shared.queryExecution.optimizedPlan.toString)
      // The control: the same subtree written out twice is scanned twice.
      val copied = run(b.plan(root(subtree, subtree), "k1", "v1", "k2", "v2"))
      assertSameRows(copied, expected)
      assert(scans(copied).size == 2, copied.queryExecution.executedPlan.toString)
    }
  }

  test("references to missing or self-referencing subtrees are errors") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.reference.subtree_ordinal") {
      run(b.plan(reference(5), "k", "v"))
    }
    val loop = b.plan(reference(0), "k", "v").toBuilder.clearRelations()
      .addRelations(PlanRel.newBuilder().setRel(reference(0))).addRelations(
        PlanRel.newBuilder().setRoot(RelRoot.newBuilder().setInput(reference(0)).addNames("k").addNames("v"))).build()
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].rel.reference.subtree_ordinal") { run(loop) }
  }

  test("a plan with several roots: each is reachable by its index, none is chosen silently") {
    val b = new PlanBuilder()
    val first = b.plan(readNamed(s, "src"), "k", "v")
    val second = b.plan(emit(readNamed(s, "src"), 1), "only_v")
    val both = first.toBuilder.addRelations(second.getRelations(0)).build()
    assertSameRows(spark.read.substrait(both.toByteArray, 0), spark.sql("SELECT * FROM src"))
    val df = spark.read.substrait(both.toByteArray, 1)
    assert(df.columns.toSeq == Seq("only_v"))
    assertRows(df, Seq(Row("a"), Row("b"), Row("c"), Row("n")))
    assert(SubstraitPlans.rootCount(both.toByteArray) == 2)
    assertPlanError("SUBSTRAIT_NO_ROOT", "relations") { run(both) }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations") { spark.read.substrait(both.toByteArray, 2) }
  }
}
