package io.sparksubstrait
package producers

import io.sparksubstrait.proto.{Expression, Plan, Rel, Version}
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * DuckDB's `struct_pack(x, y)` and DataFusion's `named_struct('a', x, 'b', y)`, read as the
 * nested struct of the values named by the root names (decode/readings/StructConstructors),
 * in the shapes DuckDB 1.1.3 and DataFusion 40-55 write (`SELECT id, {'a': dept, 'b': name}
 * AS s FROM emp`), against Spark SQL's named_struct over rows with NULLs, a duplicate and an
 * empty table; another producer's call stays an unknown function.
 */
class StructConstructorsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("""CREATE OR REPLACE TEMP VIEW people AS SELECT * FROM VALUES
      (1, 10, 'Ann'), (3, 20, 'Cid'), (3, 20, 'Cid'), (4, 30, NULL), (5, NULL, 'Eve'), (NULL, 10, 'Gus')
      AS people(id, dept, name)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW nobody AS SELECT * FROM people WHERE false")
  }

  private def people(table: String): Rel = readNamed(schema("id" -> i32(), "dept" -> i32(), "name" -> string()), table)

  private def stamped(plan: Plan, producer: String, minor: Int): Plan =
    plan.toBuilder.setVersion(Version.newBuilder().setMinorNumber(minor).setProducer(producer)).build()

  /** SELECT id, <struct of dept, name> AS s: root names depth first, as both producers write them. */
  private def structPlan(table: String, function: String, args: PlanBuilder => Seq[Expression]): Plan = {
    val b = new PlanBuilder()
    val f = b.fn("functions_undeclared", function)
    b.plan(emit(project(people(table), b.call(f, args(b): _*)), 0, 3), "id", "s", "a", "b")
  }

  private def duckDb(table: String): Plan =
    stamped(structPlan(table, "struct_pack", _ => Seq(field(1), field(2))), "DuckDB", 53)

  private def dataFusion(table: String): Plan = stamped(
    structPlan(table, "named_struct", _ => Seq(litString("a"), field(1), litString("b"), field(2))), "datafusion", 63)

  private def expected(table: String): Seq[Row] =
    spark.sql(s"SELECT id, named_struct('a', dept, 'b', name) AS s FROM $table").collect().toSeq

  private def readingsOf(plan: Plan): Seq[String] =
    PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active).readings.map(_.name)

  test("DuckDB's struct_pack and DataFusion's named_struct are the struct of their values, named by the root names") {
    for ((plan, reading) <- Seq(duckDb _ -> "duckdb-struct-pack", dataFusion _ -> "datafusion-named-struct");
      table <- Seq("people", "nobody")) {
      val p = plan(table)
      assert(readingsOf(p) == Seq(reading) || readingsOf(p).contains(reading), readingsOf(p))
      val df = run(p)
      assert(df.schema.fieldNames.toSeq == Seq("id", "s"))
      assert(df.schema("s").dataType.asInstanceOf[org.apache.spark.sql.types.StructType].fieldNames.toSeq ==
        Seq("a", "b"))
      assert(df.collect().toSeq.sortBy(_.toString) == expected(table).sortBy(_.toString), s"$reading on $table")
    }
    // Worked by hand: the duplicate stays, a NULL field is a NULL inside a struct that is not NULL.
    val rows = run(duckDb("people")).collect().toSeq
    assert(rows.count(_ == Row(3, Row(20, "Cid"))) == 2)
    assert(rows.contains(Row(4, Row(30, null))))
  }

  test("another producer's struct_pack or named_struct stays an unknown function") {
    for (p <- Seq(stamped(duckDb("people"), "someone", 53), stamped(dataFusion("people"), "DuckDB", 53),
        stamped(duckDb("people"), "datafusion", 63))) {
      assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
        run(p)
      }
    }
  }

  test("DataFusion's named_struct whose names are not string literals in the even places is refused") {
    val odd = stamped(structPlan("people", "named_struct", _ => Seq(litString("a"), field(1), litString("b"))),
      "datafusion", 63)
    val computedName = stamped(structPlan("people", "named_struct", _ => Seq(field(2), field(1))), "datafusion", 63)
    for (p <- Seq(odd, computedName)) {
      val e =
        assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].scalar_function") {
          run(p)
        }
      assert(e.getMessage.contains("pairs of a field name"), e.getMessage)
    }
  }
}
