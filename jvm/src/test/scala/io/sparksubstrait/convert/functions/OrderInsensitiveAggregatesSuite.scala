package io.sparksubstrait
package convert.functions

import io.sparksubstrait.proto.{Expression, SortField}
import io.sparksubstrait.proto.SortField.SortDirection._
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Sort fields on an aggregate whose result no order changes (DataFusion writes
 * `COUNT(name ORDER BY name)` as `count` with a sort) are read and change nothing: rows
 * against DuckDB 1.1.3's answer to the same SQL with its ORDER BYs, on rows with NULLs,
 * duplicates, a group of NULLs only and an empty input. Order-dependent ones (a floating-point
 * sum, any_value) stay refused, and a sort field's bad reference is still refused.
 */
class OrderInsensitiveAggregatesSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("""CREATE OR REPLACE TEMP VIEW staff AS SELECT dept, name, v, CAST(d AS DECIMAL(7,2)) AS d, f FROM VALUES
      ('a', 'x', 1L, 1.50, 0.1D), ('a', 'y', 2L, 2.25, 0.2D), ('a', 'x', 2L, NULL, NULL), ('a', NULL, NULL, 1.50, 0.3D),
      ('b', NULL, NULL, NULL, NULL), ('c', 'z', 5L, 99999.99, 1.0D), (NULL, 'w', 7L, 0.01, 2.0D)
      AS t(dept, name, v, d, f)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW no_staff AS SELECT * FROM staff WHERE false")
  }

  private val staffSchema = schema("dept" -> string(), "name" -> string(), "v" -> i64(), "d" -> decimal(7, 2),
    "f" -> fp64())
  private val measure = "relations[0].root.input.aggregate.measures[0].measure"

  /**
   * SELECT [dept,] COUNT(name ORDER BY name), SUM(v ORDER BY name DESC), SUM(d ORDER BY name),
   * MIN(v ORDER BY name), MAX(d ORDER BY v), AVG(v ORDER BY name) FROM `table` [GROUP BY dept]
   */
  private def ordered(table: String, grouped: Boolean) = {
    val b = new PlanBuilder()
    def m(ext: String, fn: String, arg: Expression, sort: (Expression, SortField.SortDirection),
      output: Option[io.sparksubstrait.proto.Type] = None) =
      b.measure(b.fn(ext, fn), Seq(arg), sorts = Seq(sort), output = output)
    val measures = Seq(
      m("functions_aggregate_generic", "count:any", field(1), field(1) -> SORT_DIRECTION_ASC_NULLS_LAST),
      m("functions_arithmetic", "sum:i64", field(2), field(1) -> SORT_DIRECTION_DESC_NULLS_FIRST),
      m("functions_arithmetic_decimal", "sum:dec", field(3), field(1) -> SORT_DIRECTION_ASC_NULLS_FIRST),
      m("functions_arithmetic", "min:i64", field(2), field(1) -> SORT_DIRECTION_ASC_NULLS_LAST),
      m("functions_arithmetic_decimal", "max:dec", field(3), field(2) -> SORT_DIRECTION_DESC_NULLS_LAST),
      // DuckDB's AVG of a BIGINT is a DOUBLE: declared so, the exact mean rounded once.
      m("functions_arithmetic", "avg:i64", field(2), field(1) -> SORT_DIRECTION_ASC_NULLS_LAST, Some(fp64())))
    val groups = if (grouped) Seq(field(0)) else Nil
    val names = (if (grouped) Seq("dept") else Nil) ++ Seq("c", "sv", "sd", "mn", "mx", "av")
    b.plan(aggregate(readNamed(staffSchema, table), groups, measures), names: _*)
  }

  private def dec(s: String) = new java.math.BigDecimal(s)

  test(
    "count, sum of integers and decimals, min, max, avg of integers with sort fields: read, the order changes nothing") {
    // DuckDB 1.1.3, the same SQL over the same rows.
    assertRows(run(ordered("staff", grouped = true)),
      Seq(Row("a", 3L, 5L, dec("5.25"), 1L, dec("2.25"), 1.6666666666666667),
        Row("b", 0L, null, null, null, null, null),
        Row("c", 1L, 5L, dec("99999.99"), 5L, dec("99999.99"), 5.0),
        Row(null, 1L, 7L, dec("0.01"), 7L, dec("0.01"), 7.0)))
    assertRows(run(ordered("staff", grouped = false)), Seq(Row(5L, 17L, dec("100005.25"), 1L, dec("99999.99"), 3.4)))
    assertRows(run(ordered("no_staff", grouped = true)), Nil)
    assertRows(run(ordered("no_staff", grouped = false)), Seq(Row(0L, null, null, null, null, null)))
    // The same answers as Spark SQL, which has no ORDER BY inside these aggregates.
    assertSameRows(run(ordered("staff", grouped = true)),
      spark.sql("SELECT dept, COUNT(name), SUM(v), SUM(d), MIN(v), MAX(d), AVG(v) FROM staff GROUP BY dept"))
  }

  test("sort fields on an order-dependent aggregate stay refused; a sort field's bad reference is refused") {
    def one(ext: String, fn: String, arg: Expression, sort: Expression) = {
      val b = new PlanBuilder()
      val m = b.measure(b.fn(ext, fn), Seq(arg), sorts = Seq(sort -> SORT_DIRECTION_ASC_NULLS_LAST))
      b.plan(aggregate(readNamed(staffSchema, "staff"), Seq(field(0)), Seq(m)), "dept", "r")
    }
    // A floating-point sum rounds every partial sum: its last bits depend on the order.
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$measure.sorts[0]") {
      run(one("functions_arithmetic", "sum:fp64", field(4), field(1)))
    }
    // any_value with an order is DuckDB's first(): a value picked by position.
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$measure.sorts[0]") {
      run(one("functions_aggregate_generic", "any_value:any", field(1), field(2)))
    }
    // The sort fields are converted even where they change nothing.
    val bad = intercept[io.sparksubstrait.errors.SubstraitException] {
      run(one("functions_aggregate_generic", "count:any", field(1), field(9)))
    }
    assert(
      bad.getCondition == "SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE" && bad.getLocation.startsWith(s"$measure.sorts[0]"),
      bad.getMessage)
  }
}
