package io.sparksubstrait
package hostile

import java.nio.charset.StandardCharsets
import java.nio.file.Files

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Plan, PlanRel, ReadRel, ReferenceRel, Rel}
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles
import org.apache.spark.sql.Row

import io.sparksubstrait.errors.{SubstraitException, SubstraitFunctionException}
import io.sparksubstrait.decode.FileAccessPolicy
import io.sparksubstrait.testing.{PlanBuilder, ProbeFileSystem, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Plans written to hurt the driver (docs/security.md): probing files through table names,
 * shared subtrees that unfold exponentially, literals and paths outside what Spark holds,
 * very long lists and argument lists, and functions asked for gigabytes per row. Each is
 * refused with our error before anything runs, or converts in time linear in its size.
 */
class HostilePlansSuite extends SparkSuite with SubstraitAssertions {
  private val one = readVirtual(schema("a" -> i32()), Seq(Seq(litI32(1))))
  private def reference(i: Int) = Rel.newBuilder().setReference(ReferenceRel.newBuilder().setSubtreeOrdinal(i)).build()

  test(
    "a data source and a path as a table name touch no file, and the refusal is the same whether the path exists or not") {
    ProbeFileSystem.register(spark)
    val dir = tempDir("probe")
    Files.write(dir.resolve("t.json"), "{\"a\": \"x\"}\n".getBytes(StandardCharsets.UTF_8))
    val existing = s"probe://${dir.resolve("t.json")}"
    // Spark SQL itself reads such a path (through the probe scheme, counted).
    ProbeFileSystem.calls.set(0)
    assert(spark.sql(s"SELECT * FROM json.`$existing`").count() == 1)
    assert(ProbeFileSystem.calls.get > 0, "the probe file system sees Spark SQL's reads")
    val s = schema("a" -> string())
    val messages =
      Seq(existing, s"probe://${dir.resolve("missing.json")}", s"probe://$dir/*", s"probe://$dir").flatMap { path =>
        Seq("json", "parquet", "csv", "text", "org.apache.spark.sql.execution.datasources.json.JsonFileFormat").map {
          source =>
            ProbeFileSystem.calls.set(0)
            val e = assertPlanError("SUBSTRAIT_TABLE_NOT_FOUND", "relations[0].root.input.read.named_table.names") {
              run(new PlanBuilder().plan(readNamed(s, source, path), "a")).collect()
            }
            assert(ProbeFileSystem.calls.get == 0,
              s"$source.`$path` looked at the file system ${ProbeFileSystem.calls.get} times")
            e.getMessage.replace(path, "<path>")
        }
      }
    // One message per data source, whatever the path names (a file, nothing, a glob, a folder).
    assert(messages.distinct.size == 5, messages.distinct.mkString("\n"))
    // A real table in a schema named like a data source is still found through the catalog.
    spark.sql("CREATE DATABASE IF NOT EXISTS json")
    spark.sql("CREATE TABLE IF NOT EXISTS json.t (a STRING) USING parquet")
    spark.sql("INSERT OVERWRITE json.t VALUES ('in the catalog')")
    assertRows(run(new PlanBuilder().plan(readNamed(s, "json", "t"), "a")), Seq(Row("in the catalog")))
  }

  /** relations[i] = the first column of relations[i - 1] crossed with itself; the root relations[n]. */
  private def doubling(n: Int): Plan = {
    val levels = one +: (1 to n).map(i => emit(project(cross(reference(i - 1), reference(i - 1)), field(0)), 2))
    val p = new PlanBuilder().plan(reference(n), "a")
    p.toBuilder.clearRelations().addAllRelations(levels.map(r => PlanRel.newBuilder().setRel(r).build()).asJava)
      .addRelations(p.getRelations(0)).build()
  }

  test(
    "a DAG of shared subtrees converts once per subtree; one that unfolds beyond the plan size limit is refused on the DAG") {
    // Three levels: eight leaves unfolded; the rows of the same query as SQL CTEs.
    assertSameRows(run(doubling(3)),
      spark.sql(
        """WITH r0 AS (SELECT 1 AS a), r1 AS (SELECT x.a FROM r0 x CROSS JOIN r0 y),
        |r2 AS (SELECT x.a FROM r1 x CROSS JOIN r1 y) SELECT x.a FROM r2 x CROSS JOIN r2 y""".stripMargin))
    // 16 levels: 65,536 leaves unfolded (about 4 MB, under the limit), converted as 17 CTE
    // definitions. Spark's own check inlines CTEs first, which took minutes at 12 levels.
    val analyzed = run(doubling(16)).queryExecution.analyzed
    assert(analyzed.collect { case w: org.apache.spark.sql.catalyst.plans.logical.WithCTE => w.cteDefs.size }.sum == 17)
    // 40 levels would ask Spark to plan 2^40 operators: refused before anything is built.
    val e = assertPlanError("SUBSTRAIT_PLAN_TOO_LARGE", "plan")(run(doubling(40)))
    assert(e.getMessage.contains("shared subtrees (ReferenceRel) unfold"), e.getMessage)
  }

  test("dates and timestamps outside 0001-01-01 to 9999-12-31 and overflowing intervals are refused at conversion") {
    def literal(e: io.sparksubstrait.proto.Expression) = new PlanBuilder().plan(emit(project(one, e), 1), "x")
    val at = "relations[0].root.input.project.expressions[0].literal"
    for (days <- Seq(Int.MinValue, -719163, 2932897, Int.MaxValue)) {
      val e = assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$at.date")(run(literal(litDate(days))))
      assert(e.getMessage.contains("0001-01-01 to 9999-12-31"), e.getMessage)
    }
    assertRows(run(literal(litDate(-719162))).selectExpr("CAST(x AS STRING)"), Seq(Row("0001-01-01")))
    assertRows(run(literal(litDate(2932896))).selectExpr("CAST(x AS STRING)"), Seq(Row("9999-12-31")))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$at.precision_timestamp")(
      run(literal(litPrecisionTimestamp(Long.MaxValue, 6))))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$at.precision_timestamp_tz")(
      run(literal(litPrecisionTimestampTz(Long.MinValue, 3))))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$at.interval_day_to_second")(run(literal(litIntervalDay(Int.MaxValue,
            Int.MaxValue))))
  }

  test("malformed local file paths are the plan's error, the same whether anything exists there or not") {
    withConf(FileAccessPolicy.ConfKey, "/tmp") {
      for (path <- Seq("/tmp/a\u0000b.csv", "file:secret/x", "file:tmp/x", "s3a:relative", "")) {
        val f = FileOrFiles.newBuilder().setUriFile(path)
          .setText(FileOrFiles.DelimiterSeparatedTextReadOptions.newBuilder().setFieldDelimiter("|"))
        val rel = Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(schema("a" -> string()))
            .setLocalFiles(ReadRel.LocalFiles.newBuilder().addItems(f))).build()
        val e = intercept[SubstraitException](run(new PlanBuilder().plan(rel, "a")))
        assert(Set("SUBSTRAIT_INVALID_PLAN", "SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED")(e.getCondition), e.getMessage)
        assert(e.getLocation.startsWith("relations[0].root.input.read.local_files.items[0]"), e.getMessage)
        assert(!e.getMessage.contains('\u0000'))
      }
    }
  }

  test("long IN lists, OR lists and variadic and/or convert as flat or balanced trees, with SQL's three-valued rows") {
    val b = new PlanBuilder()
    val rows = Seq(Seq(litI32(5)), Seq(litI32(-3)), Seq(litNull(i32())), Seq(litI32(5)), Seq(litI32(200000)))
    spark.sql("CREATE OR REPLACE TEMP VIEW hostile_in AS SELECT * FROM VALUES (5), (-3), (NULL), (5), (200000) AS t(a)")
    val vt = readVirtual(schema("a" -> i32()), rows)
    def projected(e: io.sparksubstrait.proto.Expression) = run(b.plan(emit(project(vt, e), 1), "r"))
    // 30,000 options with a NULL among them: found is true, not found is NULL.
    val options = (0 until 30000).map(litI32) :+ litNull(i32())
    assertSameRows(projected(inList(field(0), options: _*)),
      spark.sql(s"SELECT a IN (${(0 until 30000).mkString(", ")}, NULL) FROM hostile_in"))
    assertSameRows(projected(inList(field(0), (0 until 30000).map(litI32): _*)),
      spark.sql(s"SELECT a IN (${(0 until 30000).mkString(", ")}) FROM hostile_in"))
    // and / or of 5,000 arguments: left-deep they would pass the depth backstop.
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val args = (1 to 5000).map(i => b.call(gt, field(0), litI32(-i)))
    assertRows(projected(b.call(b.fn("functions_boolean", "and:bool"), args: _*)),
      Seq(Row(true), Row(false), Row(null), Row(true), Row(true)))
    val lt = b.fn("functions_comparison", "lt:i32_i32")
    assertRows(projected(b.call(b.fn("functions_boolean", "or:bool"),
          (1 to 5000).map(i => b.call(lt, field(0), litI32(-i))): _*)),
      Seq(Row(false), Row(true), Row(null), Row(false), Row(false)))
  }

  test(
    "integer constants as sort and grouping keys are constants, not column positions (found by the fuzzer on Spark 3.5)") {
    // A VARCHAR column leaves the converted plan to Spark's analyzer (char padding), whose
    // ordinal rules read a bare integer literal key as a column position on Spark 3.5.
    spark.sql("CREATE TABLE IF NOT EXISTS hostile_keys (v VARCHAR(5), n INT) USING parquet")
    spark.sql("INSERT OVERWRITE hostile_keys VALUES ('a', 1), ('b', 2), ('b', 3), (NULL, NULL)")
    val b = new PlanBuilder()
    val t = readNamed(schema("v" -> varchar(5), "n" -> i32()), "hostile_keys")
    val count = b.measure(b.fn("functions_aggregate_generic", "count:any"), Seq(litI32(7)))
    // GROUP BY the constant 1: one group of all four rows (as a position it would be v: three groups).
    assertRows(run(b.plan(emit(aggregate(t, Seq(litI32(1)), Seq(count)), 1), "c")), Seq(Row(4L)))
    // ORDER BY the constant 10 (as a position it is out of range): the rows, in any order.
    assertRows(run(b.plan(sort(t,
            litI32(10) -> io.sparksubstrait.proto.SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST), "v", "n")),
      Seq(Row("a", 1), Row("b", 2), Row("b", 3), Row(null, null)))
  }

  test("functions whose result size an argument sets are held to spark.substrait.maxStringBytes") {
    val b = new PlanBuilder()
    val strings = "functions_string"
    def call(fn: String, args: io.sparksubstrait.proto.Expression*) =
      run(b.plan(emit(project(readVirtual(schema("n" -> i32(), "m" -> i64()), Seq(Seq(litI32(3), litI64(150000000L)))),
              b.call(b.fn(strings, fn), args: _*)), 2), "r"))
    val at = "relations[0].root.input.project.expressions[0].scalar_function"
    // Constants: refused at conversion.
    for ((fn, args) <- Seq("lpad:str_i32_str" -> Seq(litString("a"), litI32(Int.MaxValue), litString("b")),
        "rpad:str_i32_str" -> Seq(litString("a"), litI32(Int.MaxValue), litString("b")),
        "repeat:str_i64" -> Seq(litString("abcdefgh"), litI64(150000000L)))) {
      val e = intercept[SubstraitFunctionException](call(fn, args: _*))
      assert(e.getCondition == "SUBSTRAIT_RESULT_TOO_LARGE" && e.getLocation == at, e.getMessage)
    }
    // From the data: when the row is computed, before Spark allocates anything.
    val e = intercept[Exception](call("repeat:str_i64", litString("abcdefgh"), field(1)).collect())
    val f = causes(e).collectFirst {
      case f: SubstraitFunctionException => f
    }
    assert(f.exists(_.getCondition == "SUBSTRAIT_RESULT_TOO_LARGE"), e)
    // Under the limit, the rows; the limit is a session setting.
    assertRows(call("lpad:str_i32_str", litString("a"), field(0), litString("b")), Seq(Row("bba")))
    withConf("spark.substrait.maxStringBytes", "2") {
      val tooLong = intercept[Exception](call("lpad:str_i32_str", litString("a"), field(0), litString("b")).collect())
      assert(causes(tooLong).exists(
          _.getMessage.contains("SUBSTRAIT_RESULT_TOO_LARGE")))
      assertRows(call("rpad:str_i32_str", litString("a"), litI32(2), litString("b")), Seq(Row("ab")))
    }
  }

  test("replace and regexp_replace are held to spark.substrait.maxStringBytes by the size they return, exactly") {
    val b = new PlanBuilder()
    val strings = "functions_string"
    def call(fn: String, value: String, args: io.sparksubstrait.proto.Expression*) =
      run(b.plan(emit(project(readVirtual(schema("s" -> string()), Seq(Seq(litString(value)), Seq(litNull(string())))),
              b.call(b.fn(strings, fn), args: _*)), 1), "r"))
    def tooLarge(body: => Any): Unit = {
      val e = intercept[Exception](body)
      val f = causes(e).collectFirst {
        case f: SubstraitFunctionException => f
      }
      assert(f.exists(_.getCondition == "SUBSTRAIT_RESULT_TOO_LARGE"), e)
    }
    withConf("spark.substrait.maxStringBytes", "10") {
      for (fn <- Seq("replace:str_str_str", "regexp_replace:str_str_str")) {
        // 'aaaa' with each 'a' as 'bbb': 12 bytes, over 10; from the data, when the row is computed.
        tooLarge(call(fn, "aaaa", field(0), litString("a"), litString("bbb")).collect())
        // One occurrence in 8 bytes: 10 exactly (the cheap bound, 8 + 8 × 2, is over; the exact size is not).
        assertRows(call(fn, "xxxxxxxa", field(0), litString("a"), litString("bbb")), Seq(Row("xxxxxxxbbb"), Row(null)))
        // Shrinking or no occurrence: never refused.
        assertRows(call(fn, "aaaaaaaaaa", field(0), litString("a"), litString("")), Seq(Row(""), Row(null)))
        assertRows(call(fn, "xxxxxxxxxx", field(0), litString("a"), litString("bbb")),
          Seq(Row("xxxxxxxxxx"), Row(null)))
      }
      // Constants: replace is refused at conversion.
      val e = intercept[SubstraitFunctionException](call("replace:str_str_str", "", litString("aaaa"), litString("a"),
          litString("bbb")))
      assert(e.getCondition == "SUBSTRAIT_RESULT_TOO_LARGE", e.getMessage)
    }
  }
}
