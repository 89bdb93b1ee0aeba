package io.sparksubstrait
package shape

import io.sparksubstrait.proto.Plan
import io.sparksubstrait.proto.JoinRel.JoinType.JOIN_TYPE_INNER
import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Ascending, AttributeReference, Literal, Rand, SortOrder, TimeZoneAwareExpression
}
import org.apache.spark.sql.catalyst.expressions.aggregate.First
import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{
  Aggregate, Join, JoinHint, LocalRelation, LogicalPlan, OneRowRelation, Project, Sort, SubqueryAlias
}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.{IntegerType, StringType}

import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.shape.SkippedAnalysis
import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions, TpchSchema}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * A converted query that already is what Spark's analyzer would make of it is marked analyzed
 * (shape/SkippedAnalysis), so Spark does not analyse it again. The test sessions check every
 * plan marked so against Spark's analyzer (`SkippedAnalysis.VerifyKey`); this suite shows
 * the zone the analyzer would have set, the plans left to the analyzer, and that the check fails.
 */
class SkippedAnalysisSuite extends SparkSuite with SubstraitAssertions {
  private val tsSchema = schema("ts" -> precisionTimestampTz(6), "k" -> i32())

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("""CREATE OR REPLACE TEMP VIEW zoned AS SELECT * FROM VALUES
      (TIMESTAMP'2024-01-01 12:00:00 UTC', 1), (TIMESTAMP'2024-01-01 12:00:00 UTC', 1), (NULL, 2),
      (TIMESTAMP'2024-07-01 00:30:00 UTC', NULL) AS t(ts, k)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW zoned0 AS SELECT * FROM zoned WHERE false")
  }

  /** As SkippedAnalysis leaves it: ReadPipeline.read would analyse a plan left unmarked. */
  private def converted(plan: Plan): LogicalPlan =
    ReadPipeline.readWithoutAnalysis(spark, PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active))

  /** The zones of the converter's expressions (a table lookup's are its view's, of when it was created). */
  private def zones(p: LogicalPlan): Seq[Option[String]] = p match {
    case _: SubqueryAlias => Nil
    case n => n.expressions.flatMap(_.collect { case z: TimeZoneAwareExpression => z.timeZoneId }) ++
        n.children.flatMap(zones)
  }

  private def castToString(table: String): Plan =
    new PlanBuilder().plan(project(readNamed(tsSchema, table), cast(field(0), string())), "ts", "k", "s")

  test(
    "a converted query is marked analyzed, its casts in the session's zone: the rows of SQL and worked out by hand") {
    withConf("spark.sql.session.timeZone", "America/Los_Angeles") {
      val c = converted(castToString("zoned"))
      assert(c.analyzed, c.treeString)
      assert(zones(c).nonEmpty && zones(c).forall(_.contains("America/Los_Angeles")), zones(c))
      val df = run(castToString("zoned"))
      assertRows(df.select("s", "k"),
        Seq(Row("2024-01-01 04:00:00", 1), Row("2024-01-01 04:00:00", 1), Row(null, 2),
          Row("2024-06-30 17:30:00", null)))
      assertSameRows(df, spark.sql("SELECT ts, k, CAST(ts AS STRING) AS s FROM zoned"))
      assertRows(run(castToString("zoned0")), Nil)
    }
  }

  test(
    "a subquery a plan shape places twice is a copy with ids of its own, so the plan is marked; the rows are SQL's") {
    // The plan shape one-row-join-as-scalar-subquery writes the aggregate's row as a scalar
    // subquery in the filter and again in the projection: each a copy (shape/FreshIds).
    val b = new PlanBuilder()
    val max = aggregate(readNamed(tsSchema, "zoned"), Nil,
      Seq(b.measure(b.fn("functions_arithmetic", "max:i32"), Seq(field(1)))))
    val root = join(readNamed(tsSchema, "zoned"), max, JOIN_TYPE_INNER,
      Some(b.call(b.fn("functions_comparison", "equal:any_any"), field(1), field(2))))
    val plan = b.plan(root, "ts", "k", "m")
    val c = converted(plan)
    val subqueries = c.flatMap(_.subqueries)
    assert(c.analyzed && subqueries.size == 2, c.treeString)
    val Seq(first, second) = subqueries.map(_.flatMap(_.output.map(_.exprId)).toSet)
    assert(first.intersect(second).isEmpty && !first.exists(c.output.map(_.exprId).contains), c.treeString)
    assertSameRows(run(plan), spark.sql("SELECT * FROM zoned JOIN (SELECT max(k) AS m FROM zoned) s ON zoned.k = s.m"))
    assertRows(run(plan), Seq(Row(null, 2, 2)))
    assertRows(run(b.plan(join(readNamed(tsSchema, "zoned0"),
            aggregate(readNamed(tsSchema, "zoned0"), Nil,
              Seq(b.measure(b.fn("functions_arithmetic", "max:i32"), Seq(field(1))))), JOIN_TYPE_INNER,
            Some(litBool(true))), "ts", "k",
          "m")), Nil)
  }

  test("left to Spark's analyzer: one relation instance read twice (a self-join), which it renumbers") {
    val k = AttributeReference("k", IntegerType)()
    val rows = LocalRelation(k)
    val selfJoin = Join(rows, rows, Inner, None, JoinHint.NONE)
    assert(!SkippedAnalysis(spark, selfJoin).analyzed)
    val analyzed = SparkShim.analyze(spark, selfJoin)
    assert(analyzed.output.map(_.exprId).distinct.size == 2, analyzed.treeString)
  }

  test(
    "TPC-H from isthmus with ANSI off and on: every plan read is marked analyzed, each as Spark's analyzer leaves it") {
    TpchSchema.createEmptyTables(spark)
    for (ansi <- Seq("false", "true")) withConf("spark.sql.ansi.enabled", ansi) {
      // The plans we read (the rest are refused with the plan's error, as ExplainSuite shows);
      // the session's check (VerifyKey) analyses each marked plan again while it converts, and
      // its failure would be SUBSTRAIT_CONVERSION_FAILED.
      val plans =
        TpchSchema.QueryNumbers.flatMap(n => TpchSchema.isthmus(TpchSchema.query(n)).toOption.map(n -> _)).filter {
          case (_, p) =>
            try { converted(p); true }
            catch { case e: SubstraitException if e.getCondition != "SUBSTRAIT_CONVERSION_FAILED" => false }
        }
      val marked = plans.count { case (_, p) => converted(p).analyzed }
      assert(plans.size >= 15 && marked == plans.size, s"ANSI $ansi: $marked of ${plans.size} marked")
      // Empty tables: a global aggregate's one row of NULLs and zeros, as the SQL's.
      plans.foreach { case (n, p) => assertSameRows(run(p), spark.sql(TpchSchema.query(n))) }
    }
  }

  test(
    "nondeterminism: a sort on rand() is left to the analyzer, which pulls it out; first() among an aggregate's results is not") {
    val k = AttributeReference("k", IntegerType)()
    val v = AttributeReference("v", StringType)()
    val rows = LocalRelation(k, v)
    val sorted = Sort(Seq(SortOrder(Rand(Literal(7L)), Ascending)), global = true, rows)
    assert(!SkippedAnalysis(spark, sorted).analyzed)
    assert(SparkShim.analyze(spark, sorted).collectFirst { case Project(_, _: LocalRelation) => true }.nonEmpty)
    // Marked, and the session's check (VerifyKey) finds the analyzer would leave it as it is.
    val (k2, v2) = (k.newInstance(), v.newInstance())
    val firsts = Aggregate(Seq(k2), Seq(k2, Alias(First(v2, ignoreNulls = false).toAggregateExpression(), "f")()),
      LocalRelation(k2, v2))
    assert(SkippedAnalysis(spark, firsts).analyzed)
  }

  test("the test sessions' check fails when Spark's analyzer would change a plan marked analyzed") {
    // An alias inside an alias: resolved, but Spark's CleanupAliases removes the inner one.
    // The converter never writes it; were it to, the check names the plan.
    val nested = Project(Seq(Alias(Alias(Literal(1), "inner")(), "outer")()), OneRowRelation())
    val e = intercept[IllegalStateException](SkippedAnalysis(spark, nested))
    assert(e.getMessage.contains("Spark's analyzer changed a converted plan marked analyzed"), e.getMessage)
    val unchecked = withConf(SkippedAnalysis.VerifyKey, "false")(SkippedAnalysis(spark, nested.copy()))
    assert(unchecked.analyzed)
  }
}
