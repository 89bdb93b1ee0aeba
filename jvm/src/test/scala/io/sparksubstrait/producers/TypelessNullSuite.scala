package io.sparksubstrait
package producers

import scala.io.Source

import com.google.protobuf.util.JsonFormat
import io.sparksubstrait.proto.{Expression, Plan, SetRel, Type, Version}
import org.apache.spark.sql.Row
import org.apache.spark.sql.types.{ArrayType, IntegerType, StringType}

import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * DuckDB's typeless NULL (a null literal whose type has no kind) where the plan fixes its type
 * elsewhere (decode/readings/TypelessNullByContext): the plans DuckDB 1.1.3 wrote for the SQL
 * below (jvm/src/test/resources/producers/duckdb-1.1.3/), run over tables with NULLs and
 * duplicates and over empty ones, compared with DuckDB 1.1.3's own rows for the same SQL on
 * the same data (worked out with the duckdb Python package) and with Spark SQL; the same plans
 * stamped by another producer, or by none, and DuckDB's where nothing fixes the type, are
 * refused at the NULL (SUBSTRAIT_MISSING_FIELD).
 */
class TypelessNullSuite extends SparkSuite with SubstraitAssertions {
  private def tables(empty: Boolean): Unit = {
    val where = if (empty) "WHERE false" else ""
    spark.sql(s"""CREATE OR REPLACE TEMP VIEW emp AS SELECT * FROM VALUES
      (1, 'Ann', 10), (2, CAST(NULL AS STRING), 10), (2, NULL, 10), (CAST(NULL AS INT), 'Gus', CAST(NULL AS INT))
      AS emp(id, name, dept) $where""")
    spark.sql(s"""CREATE OR REPLACE TEMP VIEW dept AS SELECT * FROM VALUES
      (10, 'Sales', 5000L), (CAST(NULL AS INT), 'x', CAST(NULL AS BIGINT)), (10, 'Sales', 5000L)
      AS dept(dept_id, dname, budget) $where""")
  }

  override def beforeAll(): Unit = { super.beforeAll(); tables(empty = false) }

  /** A plan DuckDB wrote (`get_substrait_json`; 1.1.3 stamps "DuckDB" and spec 0.53, 1.0.3 spec 0.48). */
  private def written(name: String, release: String = "1.1.3"): Plan = {
    val src = Source.fromResource(s"producers/duckdb-$release/typeless_null_$name.json")
    val b = Plan.newBuilder()
    try JsonFormat.parser().merge(src.mkString, b)
    finally src.close()
    b.build()
  }

  private def stamped(plan: Plan, producer: String, minor: Int): Plan =
    plan.toBuilder.setVersion(Version.newBuilder().setMinorNumber(minor).setProducer(producer)).build()

  private def unstamped(plan: Plan): Plan = plan.toBuilder.clearVersion().build()

  private def readingsOf(plan: Plan): Seq[String] =
    PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active).readings.map(_.name)

  private val reading = "duckdb-typeless-null-by-context"

  /** The plan refused at `at` as its own producer's, as another producer's and as nobody's. */
  private def refusedUnlessDuckDb(plan: Plan, at: String): Unit =
    Seq(stamped(plan, "datafusion", 85), stamped(plan, "isthmus", 77), unstamped(plan)).foreach { other =>
      assert(!readingsOf(other).contains(reading))
      val e = assertPlanError("SUBSTRAIT_MISSING_FIELD", at)(run(other))
      assert(e.getMessage.contains("the NULL's type"), e.getMessage)
    }

  private def withEmptyTables(body: => Unit): Unit =
    try { tables(empty = true); body }
    finally tables(empty = false)

  test("DuckDB: a NULL column of a UNION ALL branch has the other branch's type") {
    // SELECT id, name FROM emp UNION ALL SELECT dept_id, NULL FROM dept
    val plan = written("union_null")
    assert(readingsOf(plan).contains(reading))
    val df = run(plan)
    assert(df.schema.map(_.dataType) == Seq(IntegerType, StringType))
    // DuckDB 1.1.3's rows.
    assertRows(df,
      Seq(Row(1, "Ann"), Row(2, null), Row(2, null), Row(null, "Gus"), Row(10, null), Row(null, null),
        Row(10, null)))
    assertSameRows(df, spark.sql("SELECT id, name FROM emp UNION ALL SELECT dept_id, NULL FROM dept"))
    withEmptyTables(assertRows(run(plan), Nil))
    refusedUnlessDuckDb(plan, "relations[0].root.input.set.inputs[1].project.expressions[1].literal.null")
    // The plan explorer names the reading and the place.
    val explained = SubstraitPlans.explain(spark, plan.toByteArray, null, java.util.Collections.emptyMap())
    assert(explained.contains(reading) && explained.contains("NULL column 1 of"), explained)
    // DuckDB 1.0.3 writes the same plan (spec 0.48).
    val older = written("union_null", "1.0.3")
    assert(readingsOf(older).contains(reading))
    assertSameRows(run(older), df)
  }

  test("DuckDB: a NULL element of a list has the other elements' type") {
    // SELECT id, [id, NULL] AS l FROM emp
    val plan = written("list_null")
    assert(readingsOf(plan).contains(reading))
    val df = run(plan)
    assert(df.schema("l").dataType == ArrayType(IntegerType, containsNull = true))
    assertRows(df, Seq(Row(1, Seq(1, null)), Row(2, Seq(2, null)), Row(2, Seq(2, null)), Row(null, Seq(null, null))))
    withEmptyTables(assertRows(run(plan), Nil))
    refusedUnlessDuckDb(plan, "relations[0].root.input.project.expressions[1].nested.list.values[1].literal.null")
  }

  test("DuckDB: a NULL argument of IS NOT DISTINCT FROM has the other argument's type") {
    // SELECT id FROM emp WHERE id IS NOT DISTINCT FROM NULL
    val plan = written("indf")
    assert(readingsOf(plan).contains(reading))
    assertRows(run(plan), Seq(Row(null)))
    assertSameRows(run(plan), spark.sql("SELECT id FROM emp WHERE id <=> NULL"))
    withEmptyTables(assertRows(run(plan), Nil))
    refusedUnlessDuckDb(plan,
      "relations[0].root.input.project.input.filter.condition.scalar_function.arguments[1].value.literal.null")
    // DuckDB 1.0.3's plan of `dept IS NOT DISTINCT FROM NULL`: Gus' row (dept NULL), by hand and in Spark SQL.
    val older = written("indf", "1.0.3")
    assert(readingsOf(older).contains(reading))
    assertRows(run(older), Seq(Row(null)))
    assertSameRows(run(older), spark.sql("SELECT id FROM emp WHERE dept <=> NULL"))
  }

  private val untypedNull: Expression = litNull(Type.newBuilder().build())
  private val empSchema = schema("id" -> i32(), "name" -> string(), "dept" -> i32())
  private val deptSchema = schema("dept_id" -> i32(), "dname" -> string(), "budget" -> i64())
  private def duckDb(plan: Plan): Plan = stamped(plan, "DuckDB", 53)

  test("DuckDB: the NULL may be in the first branch, and of a UNION (distinct)") {
    // SELECT NULL, name FROM emp UNION SELECT dept_id, dname FROM dept, as DuckDB writes its branches.
    def plan(op: SetRel.SetOp) = duckDb(new PlanBuilder().plan(set(op,
          emit(project(readNamed(empSchema, "emp"), untypedNull, field(1)), 3, 4),
          emit(project(readNamed(deptSchema, "dept"), field(0), field(1)), 3, 4)), "n", "name"))
    val all = run(plan(SetRel.SetOp.SET_OP_UNION_ALL))
    assert(all.schema.map(_.dataType) == Seq(IntegerType, StringType))
    // DuckDB 1.1.3: SELECT NULL, name FROM emp UNION ALL SELECT dept_id, dname FROM dept.
    assertRows(all,
      Seq(Row(null, "Ann"), Row(null, null), Row(null, null), Row(null, "Gus"), Row(10, "Sales"),
        Row(null, "x"), Row(10, "Sales")))
    assertSameRows(run(plan(SetRel.SetOp.SET_OP_UNION_DISTINCT)),
      spark.sql("SELECT NULL, name FROM emp UNION SELECT dept_id, dname FROM dept"))
    assertRows(run(plan(SetRel.SetOp.SET_OP_UNION_DISTINCT)),
      Seq(Row(null, "Ann"), Row(null, null), Row(null, "Gus"),
        Row(10, "Sales"), Row(null, "x")))
  }

  test("DuckDB: a list literal's NULL element has the other elements' type") {
    val listLit = Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setList(
        Expression.Literal.List.newBuilder().addValues(litI32(1).getLiteral).addValues(untypedNull.getLiteral)
          .addValues(litI32(3).getLiteral))).build()
    val plan = duckDb(new PlanBuilder().plan(emit(project(readNamed(empSchema, "emp"), listLit), 3), "l"))
    assert(readingsOf(plan).contains(reading))
    assertRows(run(plan), Seq.fill(4)(Row(Seq(1, null, 3))))
    assertSameRows(run(plan), spark.sql("SELECT array(1, NULL, 3) FROM emp"))
    withEmptyTables(assertRows(run(plan), Nil))
  }

  test("DuckDB: where nothing fixes the NULL's type it stays the plan's error") {
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:any_any")
    // Every branch NULL in the column; a list of NULLs only; NULL = NULL.
    val bothNull = duckDb(b.plan(set(SetRel.SetOp.SET_OP_UNION_ALL,
          emit(project(readNamed(empSchema, "emp"), untypedNull), 3),
          emit(project(readNamed(deptSchema, "dept"), untypedNull), 3)), "n"))
    assertPlanError("SUBSTRAIT_MISSING_FIELD",
      "relations[0].root.input.set.inputs[0].project.expressions[0].literal.null")(run(bothNull))
    val onlyNulls = duckDb(b.plan(emit(project(readNamed(empSchema, "emp"), listOf(untypedNull, untypedNull)), 3), "l"))
    assertPlanError("SUBSTRAIT_MISSING_FIELD",
      "relations[0].root.input.project.expressions[0].nested.list.values[0].literal.null")(run(onlyNulls))
    val nullEqNull = duckDb(b.plan(filter(readNamed(empSchema, "emp"), b.call(eq, untypedNull, untypedNull)), "id",
        "name", "dept"))
    assertPlanError("SUBSTRAIT_MISSING_FIELD",
      "relations[0].root.input.filter.condition.scalar_function.arguments[0].value.literal.null")(run(nullEqNull))
    Seq(bothNull, onlyNulls, nullEqNull).foreach(p => assert(!readingsOf(p).contains(reading)))
  }
}
