package io.sparksubstrait
package convert.functions

import java.nio.charset.StandardCharsets
import java.nio.file.Files

import org.apache.spark.sql.Row

import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.proto.{Expression, Plan}
import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * A user's own functions (issue 36, docs/extending.md): a plan calling functions of
 * `extension:org.example:my_functions`, each mapped to a Spark built-in, a Scala UDF, a SQL
 * template or an aggregate, read with the rows Spark SQL gives for the same expression over
 * the same data (NULLs, duplicates, an empty input); the settings' errors; the user YAML's
 * checks; writing a registered UDF back as its extension function.
 */
class UserFunctionsSuite extends SparkSuite with SubstraitAssertions {
  private val Urn = "extension:org.example:my_functions"
  private val At = "relations[0].root.input.project.expressions[0].scalar_function"

  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerSales(spark) // sales(k1 int, k2 string, v bigint): NULLs and duplicates
    spark.sql("CREATE OR REPLACE TEMP VIEW no_sales AS SELECT * FROM sales WHERE false")
    spark.udf.register("times_ten", (x: java.lang.Long) => if (x == null) null else java.lang.Long.valueOf(x * 10))
  }

  /** Every mapping this suite made, removed after each test: mappings are the session's. */
  private def clean(): Unit =
    spark.conf.getAll.keys.filter(k =>
      k.startsWith("spark.substrait.function") || k.startsWith("spark.substrait.extensionYaml"))
      .foreach(spark.conf.unset)

  override def withFixture(test: NoArgTest) = try super.withFixture(test)
  finally clean()

  private val salesSchema = schema("k1" -> i32(), "k2" -> string(), "v" -> i64())

  /** `SELECT <call over sales' columns> FROM <table>`. */
  private def scalarPlan(name: String, args: Seq[Expression], table: String = "sales",
    options: Seq[(String, Seq[String])] = Nil): Plan = {
    val pb = new PlanBuilder()
    val call = pb.callWith(pb.fn(Urn, name), options, None, args: _*)
    pb.plan(emit(project(readNamed(salesSchema, table), call), 3), "r")
  }

  test("a SQL template, a Spark built-in and a Scala UDF give Spark SQL's rows") {
    SubstraitPlans.registerSqlFunction(spark, Urn, "my_add", "($1 + $2) * 2")
    SubstraitPlans.registerFunction(spark, Urn, "shout", "upper")
    SubstraitPlans.registerFunction(spark, Urn, "scaled", "times_ten")
    for (table <- Seq("sales", "no_sales")) {
      assertSameRows(run(scalarPlan("my_add:i64_i64", Seq(field(2), field(2)), table)),
        spark.sql(s"SELECT (v + v) * 2 FROM $table"))
      assertSameRows(run(scalarPlan("shout:str", Seq(field(1)), table)), spark.sql(s"SELECT upper(k2) FROM $table"))
      assertSameRows(run(scalarPlan("scaled:i64", Seq(field(2)), table)), spark.sql(s"SELECT times_ten(v) FROM $table"))
    }
    // The rows themselves, worked out by hand: NULL stays NULL, duplicates stay.
    assertRows(run(scalarPlan("scaled:i64", Seq(field(2)))),
      Seq(Row(100L), Row(100L), Row(50L), Row(null), Row(70L), Row(10L)))
  }

  test("an aggregate mapping groups as Spark SQL does, also over an empty input") {
    SubstraitPlans.registerFunction(spark, Urn, "biggest", "max")
    SubstraitPlans.registerSqlFunction(spark, Urn, "spread", "max($1) - min($1)")
    for (table <- Seq("sales", "no_sales")) {
      val pb = new PlanBuilder()
      val plan = pb.plan(aggregate(readNamed(salesSchema, table), Seq(field(1)),
          Seq(pb.measure(pb.fn(Urn, "biggest:i64"), Seq(field(2))))), "k2", "m")
      assertSameRows(run(plan), spark.sql(s"SELECT k2, max(v) FROM $table GROUP BY k2"))
    }
    // Not one aggregate function call: refused, naming what it is.
    val pb = new PlanBuilder()
    val plan = pb.plan(aggregate(readNamed(salesSchema, "sales"), Nil,
        Seq(pb.measure(pb.fn(Urn, "spread:i64"), Seq(field(2))))), "m")
    val e = intercept[SubstraitException](run(plan))
    assert(e.getCondition == "SUBSTRAIT_UNSUPPORTED_FEATURE" && e.getMessage.contains("one aggregate function call"),
      e.getMessage)
  }

  test("a template reads options by name; an option value is a string, never SQL") {
    SubstraitPlans.registerSqlFunction(spark, Urn, "tagged", "concat($1, '/', coalesce($style, 'none'))")
    assertSameRows(run(scalarPlan("tagged:str", Seq(field(1)), options = Seq("style" -> Seq("LOUD")))),
      spark.sql("SELECT concat(k2, '/', 'LOUD') FROM sales"))
    assertSameRows(run(scalarPlan("tagged:str", Seq(field(1)))), spark.sql("SELECT concat(k2, '/', 'none') FROM sales"))
    val hostile = "x') || upper('y"
    assertSameRows(run(scalarPlan("tagged:str", Seq(field(1)), options = Seq("style" -> Seq(hostile)))),
      spark.sql("SELECT concat(k2, '/', ?) FROM sales", Array[Any](hostile)))
    // An option no template reads is refused, as for every function.
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FUNCTION_OPTION", At) {
      run(scalarPlan("tagged:str", Seq(field(1)), options = Seq("overflow" -> Seq("ERROR"))))
    }
    // $3 of a two-argument call.
    SubstraitPlans.registerSqlFunction(spark, Urn, "third", "$3")
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", At)(run(scalarPlan("third:i64_i64", Seq(field(2), field(2)))))
  }

  test("an unregistered function is refused, naming how to register one; unregister removes a mapping") {
    val e = assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", At)(run(scalarPlan("shout:str", Seq(field(1)))))
    assert(e.getMessage.contains(Urn) && e.getMessage.contains("register_function") &&
        e.getMessage.contains("spark.substrait.function."), e.getMessage)
    SubstraitPlans.registerFunction(spark, Urn, "shout", "upper")
    assert(run(scalarPlan("shout:str", Seq(field(1)))).count() == 6)
    assert(SubstraitPlans.registeredFunctions(spark).toString.contains(s"$Urn#shout -> spark function upper"))
    SubstraitPlans.unregisterFunction(spark, Urn, "shout")
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", At)(run(scalarPlan("shout:str", Seq(field(1)))))
    assert(SubstraitPlans.registeredFunctions(spark).isEmpty)
  }

  test("a mapping for one signature wins over one for all; another signature falls back to it") {
    SubstraitPlans.registerSqlFunction(spark, Urn, "twice", "$1 * 2")
    SubstraitPlans.registerSqlFunction(spark, Urn, "twice:str", "concat($1, $1)")
    assertSameRows(run(scalarPlan("twice:str", Seq(field(1)))), spark.sql("SELECT concat(k2, k2) FROM sales"))
    assertSameRows(run(scalarPlan("twice:i64", Seq(field(2)))), spark.sql("SELECT v * 2 FROM sales"))
  }

  test("the settings form: keys, a mapping file, and their errors") {
    withConf("spark.substrait.function.adder.urn", Urn) {
      withConf("spark.substrait.function.adder.name", "my_add") {
        withConf("spark.substrait.function.adder.sql", "$1 + $2") {
          assertSameRows(run(scalarPlan("my_add:i64_i64", Seq(field(2), field(2)))),
            spark.sql("SELECT v + v FROM sales"))
          withConf("spark.substrait.function.adder.spark", "upper") {
            val e = intercept[SubstraitException](run(scalarPlan("my_add:i64_i64", Seq(field(2), field(2)))))
            assert(e.getCondition == "SUBSTRAIT_INVALID_SETTING" && e.getMessage.contains("exactly one of spark"),
              e.getMessage)
          }
        }
      }
    }
    val file = tempDir("mappings").resolve("mappings.yaml")
    Files.write(file,
      s"functions:\n  - urn: $Urn\n    name: shout\n    spark: upper\n".getBytes(StandardCharsets.UTF_8))
    withConf("spark.substrait.functions.files", file.toString) {
      assertSameRows(run(scalarPlan("shout:str", Seq(field(1)))), spark.sql("SELECT upper(k2) FROM sales"))
    }
    withConf("spark.substrait.functions.files", file.toString + ".missing") {
      val e = intercept[SubstraitException](run(scalarPlan("shout:str", Seq(field(1)))))
      assert(e.getCondition == "SUBSTRAIT_INVALID_SETTING" && e.getMessage.contains("spark.substrait.functions.files"),
        e.getMessage)
    }
    withConf("spark.substrait.function.no_urn.name", "shout") {
      withConf("spark.substrait.function.no_urn.spark", "upper") {
        val e = intercept[SubstraitException](run(scalarPlan("shout:str", Seq(field(1)))))
        assert(e.getCondition == "SUBSTRAIT_INVALID_SETTING" && e.getMessage.contains("without urn"), e.getMessage)
      }
    }
  }

  test("a standard function is never replaced; a standard extension's unmapped name may be mapped") {
    val e = intercept[SubstraitException](
      SubstraitPlans.registerSqlFunction(spark, "extension:io.substrait:functions_arithmetic", "add", "$1 - $2"))
    assert(e.getCondition == "SUBSTRAIT_INVALID_SETTING" && e.getMessage.contains("mapped already"), e.getMessage)
    SubstraitPlans.registerSqlFunction(spark, "extension:io.substrait:functions_string", "no_such_standard",
      "lower($1)")
    val pb = new PlanBuilder()
    val call = pb.call(pb.fn("functions_string", "no_such_standard:str"), field(1))
    assertSameRows(run(pb.plan(emit(project(readNamed(salesSchema, "sales"), call), 3), "r")),
      spark.sql("SELECT lower(k2) FROM sales"))
  }

  test("a plan naming no extension (DataFusion's, DuckDB's) reaches a mapping by name") {
    SubstraitPlans.registerFunction(spark, Urn, "shout", "upper")
    val declared = scalarPlan("shout:str", Seq(field(1)))
    val unnamed = declared.toBuilder.clearExtensionUrns().build()
    assertSameRows(run(unnamed), spark.sql("SELECT upper(k2) FROM sales"))
    // A standard name still means the standard function.
    SubstraitPlans.registerSqlFunction(spark, Urn, "add", "$1 - $2")
    val pb = new PlanBuilder()
    val add = pb.plan(emit(project(readNamed(salesSchema, "sales"),
          pb.call(pb.fn(Urn, "add:i64_i64"), field(2),
            field(2))), 3), "r").toBuilder.clearExtensionUrns().build()
    assertSameRows(run(add), spark.sql("SELECT v + v FROM sales"))
  }

  test("a user extension YAML checks signatures, argument types and option values") {
    val yaml =
      s"""urn: $Urn
         |scalar_functions:
         |  - name: tagged
         |    impls:
         |      - args:
         |          - value: string
         |        options:
         |          style:
         |            values: [LOUD, QUIET]
         |        return: string
         |""".stripMargin
    assert(SubstraitPlans.registerExtensionYaml(spark, yaml) == Urn)
    SubstraitPlans.registerSqlFunction(spark, Urn, "tagged", "concat($1, '/', $style)")
    assertSameRows(run(scalarPlan("tagged:str", Seq(field(1)), options = Seq("style" -> Seq("quiet")))),
      spark.sql("SELECT concat(k2, '/', 'quiet') FROM sales"))
    val sig = assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", At)(run(scalarPlan("tagged:i64", Seq(field(2)))))
    assert(sig.getMessage.contains("tagged:str"), sig.getMessage)
    val types = assertPlanError("SUBSTRAIT_TYPE_MISMATCH", At)(run(scalarPlan("tagged", Seq(field(2)))))
    assert(types.getMessage.contains("tagged:str"), types.getMessage)
    val value = assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$At.options") {
      run(scalarPlan("tagged:str", Seq(field(1)), options = Seq("style" -> Seq("SHOUTY"))))
    }
    assert(value.getMessage.contains("LOUD, QUIET"), value.getMessage)
    val broken = intercept[SubstraitException](SubstraitPlans.registerExtensionYaml(spark, "urn: [unclosed"))
    assert(broken.getCondition == "SUBSTRAIT_INVALID_SETTING", broken.getMessage)
  }

  test("a mapping Spark cannot apply to the call's types is the call's error") {
    SubstraitPlans.registerFunction(spark, Urn, "nope", "no_such_spark_function")
    val e = assertPlanError("SUBSTRAIT_TYPE_MISMATCH", At)(run(scalarPlan("nope:str", Seq(field(1)))))
    assert(e.getMessage.contains("no_such_spark_function"), e.getMessage)
    val parse = intercept[SubstraitException](SubstraitPlans.registerSqlFunction(spark, Urn, "bad", "$1 +"))
    assert(parse.getCondition == "SUBSTRAIT_INVALID_SETTING", parse.getMessage)
  }

  test("a plan calls a mapping many times: each call gets its own arguments") {
    SubstraitPlans.registerSqlFunction(spark, Urn, "inc", "$1 + 1")
    val pb = new PlanBuilder()
    val inc = pb.fn(Urn, "inc:i64")
    val nested = (1 to 60).foldLeft(field(2))((e, _) => pb.call(inc, e))
    val plan = pb.plan(emit(project(readNamed(salesSchema, "sales"), nested, pb.call(inc, field(2))), 3, 4), "a", "b")
    assertSameRows(run(plan), spark.sql("SELECT v + 60, v + 1 FROM sales"))
  }

  test("the SQL table function reads mappings set with SET") {
    spark.sql(s"SET spark.substrait.function.sql_shout.urn=$Urn")
    spark.sql("SET spark.substrait.function.sql_shout.name=shout")
    spark.sql("SET spark.substrait.function.sql_shout.spark=upper")
    val hex = scalarPlan("shout:str", Seq(field(1))).toByteArray.map("%02X".format(_)).mkString
    assertSameRows(spark.sql(s"SELECT * FROM substrait(X'$hex')"), spark.sql("SELECT upper(k2) FROM sales"))
  }

  test("a DataFrame calling a registered UDF is written as its extension function and read back") {
    SubstraitPlans.registerFunction(spark, Urn, "scaled", "times_ten")
    // A Parquet table: over a VALUES view the optimizer would compute the UDF itself.
    val dir = tempDir("sales").resolve("pq").toString
    spark.table("sales").write.parquet(dir)
    spark.read.parquet(dir).createOrReplaceTempView("sales_pq")
    val df = spark.sql("SELECT k1, times_ten(v) AS t FROM sales_pq")
    val written = Plan.parseFrom(SubstraitPlans.write(df))
    assert(written.getExtensionUrnsList.toString.contains(Urn), written.getExtensionUrnsList)
    assert(written.getExtensionsList.toString.contains("scaled:i64"), written.getExtensionsList)
    withConf("spark.substrait.localFiles.allowedPrefixes", dir) {
      assertSameRows(SubstraitPlans.read(spark, written.toByteArray), df)
    }
    // Without the mapping the UDF has no Substrait form.
    SubstraitPlans.unregisterFunction(spark, Urn, "scaled")
    val e = intercept[SubstraitException](SubstraitPlans.write(df))
    assert(e.getCondition == "SUBSTRAIT_UNWRITABLE_PLAN", e.getMessage)
  }

  test("explain lists the session's mappings and names the one a call went through") {
    SubstraitPlans.registerFunction(spark, Urn, "shout", "upper")
    val doc = SubstraitPlans.explain(spark, scalarPlan("shout:str", Seq(field(1))).toByteArray, null, null)
    assert(doc.contains(s"$Urn#shout -> spark function upper"), doc)
    assert(doc.contains("user mapping"), doc)
  }
}
