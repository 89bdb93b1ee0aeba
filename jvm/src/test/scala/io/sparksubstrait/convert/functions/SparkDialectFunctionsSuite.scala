package io.sparksubstrait
package convert.functions

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.Row

import io.sparksubstrait.proto.{Expression, Plan, SimpleExtensionURI}

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * substrait-java's Spark dialect (`extension:substrait:spark`, the URI `/spark.yml` before
 * 0.66): each function's rows against Spark SQL's function of the same name on the same data
 * and against rows worked out by hand (NULLs, a duplicate row, edge values, an empty table),
 * and what stays refused.
 */
class SparkDialectFunctionsSuite extends SparkSuite with SubstraitAssertions {
  private val Dialect = "extension:substrait:spark"

  override def beforeAll(): Unit = {
    super.beforeAll()
    // id 3 and 4 are a duplicate row; id 5 a NULL date, 6 a NULL day count.
    spark.sql("""CREATE OR REPLACE TEMP VIEW sd AS SELECT id, d, n, b, l, s, CAST(m AS DECIMAL(7,2)) AS m FROM VALUES
      (1, DATE'2024-02-28', 1, -8, -9223372036854775808L, 1, 12345.67),
      (2, DATE'2023-12-31', 1, 7, 7L, 33, -0.01),
      (3, DATE'1900-02-28', 1, -1, -1L, 65, 0.00),
      (4, DATE'1900-02-28', 1, -1, -1L, 65, 0.00),
      (5, NULL, 5, NULL, NULL, NULL, NULL),
      (6, DATE'1970-01-01', NULL, 2147483647, 9223372036854775807L, -1, 99999.99)
      AS t(id, d, n, b, l, s, m)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW sd_empty AS SELECT * FROM sd WHERE id < 0")
  }

  private val sdSchema = schema("id" -> i32(), "d" -> date(), "n" -> i32(), "b" -> i32(), "l" -> i64(),
    "s" -> i32(), "m" -> decimal(7, 2))

  /** (id, the call) over `table`, ordered by id; `call` builds the expression with b's anchors. */
  private def plan(table: String = "sd", b: PlanBuilder = new PlanBuilder())(call: PlanBuilder => Expression): Plan =
    b.plan(emit(project(readNamed(sdSchema, table), call(b)), 0, 7), "id", "r")

  private def values(p: Plan): Seq[Any] = run(p).collect().toSeq.sortBy(_.getInt(0)).map(_.get(1))

  private def sql(expr: String): Seq[Any] =
    spark.sql(s"SELECT id, $expr FROM sd").collect().toSeq.sortBy(_.getInt(0)).map(_.get(1))

  private def d(s: String) = java.sql.Date.valueOf(s)

  /** The same plan with its URNs written as the URIs of releases before 0.66. */
  private def withUris(p: Plan, uri: String): Plan = {
    val b = p.toBuilder.clearExtensionUrns()
    p.getExtensionUrnsList.asScala.foreach(u =>
      b.addExtensionUris(SimpleExtensionURI.newBuilder().setExtensionUriAnchor(u.getExtensionUrnAnchor).setUri(uri)))
    b.getExtensionsBuilderList.asScala.foreach { e =>
      val f = e.getExtensionFunctionBuilder
      f.setExtensionUriReference(f.getExtensionUrnReference).clearExtensionUrnReference()
    }
    b.build()
  }

  private val addDays = plan()(b => b.call(b.fn(Dialect, "add:date_i32"), field(1), field(2)))

  test("add:date_i32 is Spark's date_add: leap days, the year's end, a negative count, NULLs") {
    // 2024 is a leap year, 1900 is not; 1900-02-28 + 1 = 1900-03-01.
    val byHand = Seq(d("2024-02-29"), d("2024-01-01"), d("1900-03-01"), d("1900-03-01"), null, null)
    assert(values(addDays) == byHand)
    assert(values(addDays) == sql("date_add(d, n)"))
    assert(values(addDays) == sql("d + n"))
    val back = plan()(b => b.call(b.fn(Dialect, "add:date_i32"), field(1), litI32(-365)))
    assert(values(back) == sql("date_add(d, -365)"))
    assert(values(back).head == d("2023-02-28")) // 2024-02-28 less 365 days: 2024-02-29 comes after it
  }

  test("the releases before 0.66 name the dialect by the URI /spark.yml: read the same") {
    assert(values(withUris(addDays, "/spark.yml")) == sql("date_add(d, n)"))
  }

  test("TPC-DS q72's d_date + 5 as a filter, and an empty table") {
    // d + 5 > DATE'2024-01-01': ids 1, 2 (2023-12-31 + 5), not 1900's, not NULL.
    val b = new PlanBuilder()
    val cond = b.call(b.fn("functions_datetime", "gt:date_date"),
      b.call(b.fn(Dialect, "add:date_i32"), field(1), litI32(5)), litDate(19723)) // 2024-01-01
    val filtered = b.plan(emit(project(filter(readNamed(sdSchema, "sd"), cond), field(0)), 7), "id")
    assertRows(run(filtered), Seq(Row(1), Row(2)))
    assertSameRows(run(filtered), spark.sql("SELECT id FROM sd WHERE d + 5 > DATE'2024-01-01'"))
    assert(values(plan("sd_empty")(b => b.call(b.fn(Dialect, "add:date_i32"), field(1), field(2)))).isEmpty)
  }

  test("year:date is Spark's year") {
    val p = plan()(b => b.call(b.fn(Dialect, "year:date"), field(1)))
    assert(values(p) == Seq(2024, 2023, 1900, 1900, null, 1970))
    assert(values(p) == sql("year(d)"))
  }

  test("shift_right of an i32 and an i64 is Spark's shiftright: the count taken modulo the width") {
    val i32 = plan()(b => b.call(b.fn(Dialect, "shift_right:i32_i32"), field(3), field(5)))
    // -8 >> 1; 7 >> (33 mod 32 = 1); -1 >> (65 mod 32 = 1); NULL; 2147483647 >> (-1 mod 32 = 31).
    assert(values(i32) == Seq(-4, 3, -1, -1, null, 0))
    assert(values(i32) == sql("shiftright(b, s)"))
    val i64 = plan()(b => b.call(b.fn(Dialect, "shift_right:i64_i32"), field(4), field(5)))
    // Long.MinValue >> 1; 7 >> 33 (within 64 bits); -1 >> (65 mod 64 = 1); NULL; Long.MaxValue >> 63.
    assert(values(i64) == Seq(-4611686018427387904L, 0L, -1L, -1L, null, 0L))
    assert(values(i64) == sql("shiftright(l, s)"))
  }

  test("unscaled and make_decimal: a DECIMAL(7,2)'s unscaled i64 and back, as Spark's optimizer writes a sum") {
    val unscaled = plan()(b => b.call(b.fn(Dialect, "unscaled:dec"), field(6)))
    assert(values(unscaled) == Seq(1234567L, -1L, 0L, 0L, null, 9999999L))
    val back = plan()(b =>
      b.callWith(b.fn(Dialect, "make_decimal:i64"), Nil, Some(decimal(9, 2)),
        b.call(b.fn(Dialect, "unscaled:dec"), field(6))))
    assert(values(back) == sql("CAST(m AS DECIMAL(9,2))"))
    // SUM(m) as DecimalAggregates rewrites it: make_decimal(sum(unscaled(m))) as DECIMAL(17,2).
    val b = new PlanBuilder()
    val sum = aggregate(readNamed(sdSchema, "sd"), Nil,
      Seq(b.measure(b.fn("functions_arithmetic", "sum:i64"), Seq(b.call(b.fn(Dialect, "unscaled:dec"), field(6))))))
    val total = b.plan(emit(project(sum,
          b.callWith(b.fn(Dialect, "make_decimal:i64"), Nil, Some(decimal(17, 2)),
            field(0))), 1), "total")
    assertRows(run(total), Seq(Row(new java.math.BigDecimal("112345.65"))))
    assertSameRows(run(total), spark.sql("SELECT SUM(m) FROM sd"))
  }

  test("make_decimal beyond the declared precision is an error (never NULL, never another value)") {
    val b = new PlanBuilder()
    val p = b.plan(emit(project(readNamed(sdSchema, "sd"),
          b.callWith(b.fn(Dialect, "make_decimal:i64"), Nil, Some(decimal(5, 2)), litI64(100000L))), 7), "r")
    val e = intercept[Exception](run(p).collect())
    assert(causes(e).exists(_.isInstanceOf[ArithmeticException]), e.toString)
    val fits = b.plan(emit(project(readNamed(sdSchema, "sd_empty"),
          b.callWith(b.fn(Dialect, "make_decimal:i64"), Nil, Some(decimal(5, 2)), litI64(99999L))), 7), "r")
    assert(run(fits).collect().isEmpty)
  }

  test("refused: other argument types, unscaled of more than 18 digits, make_decimal without its type") {
    assertFailsWith("SUBSTRAIT_UNKNOWN_FUNCTION")(
      run(plan()(b => b.call(b.fn(Dialect, "add:date_i64"), field(1), field(4)))))
    assertFailsWith("SUBSTRAIT_UNKNOWN_FUNCTION")(run(plan()(b => b.call(b.fn(Dialect, "year:i32"), field(0)))))
    assertFailsWith("SUBSTRAIT_UNKNOWN_FUNCTION")(
      run(plan()(b => b.call(b.fn(Dialect, "shift_right:i64_i64"), field(4), field(4)))))
    assertFailsWith("SUBSTRAIT_UNSUPPORTED_FEATURE")(run(plan()(b =>
          b.call(b.fn(Dialect, "unscaled:dec"),
            litDecimal(new java.math.BigDecimal("1.00"), 19, 2)))))
    assertFailsWith("SUBSTRAIT_INVALID_PLAN")(run(plan()(b => b.call(b.fn(Dialect, "make_decimal:i64"), field(4)))))
  }

  test("the dialect's names are its own: add:date_i32 elsewhere stays refused, a bare add stays the standard add") {
    // The standard arithmetic add has no (date, i32) form.
    assertFailsWith("SUBSTRAIT_UNKNOWN_FUNCTION")(
      run(plan()(b => b.call(b.fn("functions_arithmetic", "add:date_i32"), field(1), field(2)))))
    // Another file named spark.yml is not the dialect.
    assertFailsWith("SUBSTRAIT_UNKNOWN_FUNCTION")(run(withUris(addDays, "https://example.com/ext/spark.yml")))
    // A plan naming no extension (DataFusion's bare names) resolves add over the standard ones.
    val bare = withUris(plan()(b => b.call(b.fn(Dialect, "add:i32_i32"), field(0), field(2))), "")
    assert(values(bare) == sql("id + n"))
    assertFailsWith("SUBSTRAIT_UNKNOWN_FUNCTION")(
      run(withUris(plan()(b => b.call(b.fn(Dialect, "year:date"), field(1))), "")))
  }
}
