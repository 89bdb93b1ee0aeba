package io.sparksubstrait
package producers

import io.sparksubstrait.proto.{Expression, Plan, Rel, SortField, Version}
import io.sparksubstrait.proto.Expression.Subquery
import io.sparksubstrait.proto.Expression.Subquery.SetPredicate
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.decode.readings.{AppliedReading, Reading}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * ibis-substrait's readings (decode/readings: ZeroBasedSubstring, SortNullsFirst,
 * DecimalProductType, CorrelationAsLocalReference, FloatLiteralDecimalCast) on hand-built plans in the shapes ibis-substrait 2.29.1 to 4.0.1
 * write (stamped producer "ibis-substrait", spec 0.24 to 0.52), against Spark SQL on the
 * same rows (NULLs, duplicates, an empty table); the same plans stamped by another producer,
 * or stamped by nobody (ibis-substrait 2.x before 2.29), are read by the spec alone.
 */
class IbisReadingsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("""CREATE OR REPLACE TEMP VIEW people AS SELECT name, k, CAST(p AS DECIMAL(10,2)) AS p,
      CAST(q AS DECIMAL(10,2)) AS q FROM VALUES
      ('Ann', 3L, 10.25, 0.07), ('Ann', 3L, 10.25, 0.07), ('bob', NULL, 1.15, 0.05), (NULL, 1L, NULL, 0.10),
      ('', 2L, 0.05, NULL), ('Cidney', NULL, 999.99, 0.99) AS people(name, k, p, q)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW nobody AS SELECT * FROM people WHERE false")
    spark.sql(
      """CREATE OR REPLACE TEMP VIEW hires AS SELECT id, CAST(d AS DATE) AS hired, CAST(x AS DOUBLE) AS x FROM VALUES
      (1, '2020-01-15', 1.5), (2, '2019-12-31', 2.5), (2, '2019-12-31', 2.5), (3, '2020-01-01', -2.5), (4, NULL, 0.5),
      (5, '2021-06-30', NULL), (6, '2020-01-01', 2.4999) AS hires(id, d, x)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW nohires AS SELECT * FROM hires WHERE false")
    // TPC-H Q4's tables in little: order 1 has a late line, 2 and 3 lines on time, 4 and 5 none;
    // the NULL-keyed line is late. `ontime` has no late line but the NULL-keyed one.
    spark.sql("""CREATE OR REPLACE TEMP VIEW ords AS SELECT * FROM VALUES (1L, '1-URGENT'), (2L, '1-URGENT'),
      (3L, '2-HIGH'), (4L, '2-HIGH'), (5L, '3-LOW') AS ords(o_orderkey, o_priority)""")
    spark.sql("""CREATE OR REPLACE TEMP VIEW lines AS SELECT l, CAST(c AS DATE) AS c, CAST(r AS DATE) AS r FROM VALUES
      (1L, '2020-01-01', '2020-01-05'), (1L, '2020-01-01', '2020-01-01'), (2L, '2020-01-09', '2020-01-02'),
      (3L, '2020-01-03', '2020-01-03'), (NULL, '2020-01-01', '2020-02-01') AS lines(l, c, r)""")
    spark.sql("CREATE OR REPLACE TEMP VIEW ontime AS SELECT * FROM lines WHERE l IS NULL OR c >= r")
    // TPC-H Q11 in little: each part's value, kept where it exceeds a fraction of the total.
    spark.sql("""CREATE OR REPLACE TEMP VIEW stock AS SELECT k, CAST(v AS DECIMAL(15,2)) AS v FROM VALUES
      (1, 0.01), (2, 5.00), (2, 0.00), (3, 95.00), (4, 0.00), (5, NULL) AS stock(k, v)""")
  }

  private val hires = schema("id" -> i32(), "hired" -> date(), "x" -> fp64())

  /** emp.filter(emp.hired >= "2020-01-01") as ibis-substrait writes it: gte of a date and a string. */
  private def sinceplan(table: String, text: String, swapped: Boolean = false): Plan = {
    val b = new PlanBuilder()
    val cmp = b.fn("functions_comparison", if (swapped) "lte:any_any" else "gte:any_any")
    val args = if (swapped) Seq(litString(text), field(1)) else Seq(field(1), litString(text))
    b.plan(project(filter(readNamed(hires, table), b.call(cmp, args: _*)), field(0)), "id", "hired", "x", "out")
  }

  test("ibis-date-string-comparison: a string literal compared with a date is that date, as ibis compares them") {
    val plan = ibis(sinceplan("hires", "2020-01-01"))
    assert(names(plan) == Seq("ibis-date-string-comparison"))
    val expected = spark.sql("SELECT id FROM hires WHERE hired >= DATE '2020-01-01'")
    assertSameRows(run(plan).select("out"), expected)
    assertRows(run(plan).select("out"), Seq(Row(1), Row(3), Row(5), Row(6)))
    assertSameRows(run(ibis(sinceplan("hires", "2020-01-01", swapped = true), 24)).select("out"), expected)
    assertSameRows(run(ibis(sinceplan("nohires", "2020-01-01"))).select("out"), spark.sql("SELECT id FROM nohires"))
    // A string that is no ISO date, and another producer's plan, are not read so: refused as before.
    Seq(ibis(sinceplan("hires", "soon")), stamped(sinceplan("hires", "2020-01-01"), "isthmus", 87)).foreach { p =>
      val e = intercept[io.sparksubstrait.errors.SubstraitException](run(p).collect())
      assert(e.getCondition == "SUBSTRAIT_UNKNOWN_FUNCTION" &&
          e.getLocation.endsWith("filter.condition.scalar_function"), e.getMessage)
    }
    assert(names(stamped(sinceplan("hires", "2020-01-01"), "isthmus", 87)).isEmpty)
  }

  /** emp.filter(emp.hired.between(lo, hi)) as ibis-substrait 4.0.1 writes TPC-H Q7, Q8: between of a date and two strings. */
  private def betweenPlan(table: String, lo: Expression, hi: Expression): Plan = {
    val b = new PlanBuilder()
    val between = b.fn("functions_comparison", "between:any_any_any")
    b.plan(project(filter(readNamed(hires, table), b.call(between, field(1), lo, hi)), field(0)), "id", "hired", "x",
      "out")
  }

  test("ibis-date-string-comparison: between a date and two string literals compares dates, as ibis does") {
    val plan = ibis(betweenPlan("hires", litString("2019-12-31"), litString("2020-01-15")))
    assert(names(plan) == Seq("ibis-date-string-comparison"))
    assert(
      readingsOf(plan).head.where == Seq(
        "relations[0].root.input.project.input.filter.condition: '2019-12-31' read as a date",
        "relations[0].root.input.project.input.filter.condition: '2020-01-15' read as a date"),
      readingsOf(plan).head.where)
    val expected = spark.sql("SELECT id FROM hires WHERE hired BETWEEN DATE '2019-12-31' AND DATE '2020-01-15'")
    assertSameRows(run(plan).select("out"), expected)
    // Both bounds inclusive, the duplicate kept, the NULL date out.
    assertRows(run(plan).select("out"), Seq(Row(1), Row(2), Row(2), Row(3), Row(6)))
    // One bound a date literal already, the other a string: the string read.
    assertSameRows(run(ibis(betweenPlan("hires", litDate(18262), litString("2020-12-31")))).select("out"),
      spark.sql("SELECT id FROM hires WHERE hired BETWEEN DATE '2020-01-01' AND DATE '2020-12-31'"))
    // Bounds the wrong way round: no row, as SQL's BETWEEN.
    assertRows(run(ibis(betweenPlan("hires", litString("2020-12-31"), litString("2020-01-01")))).select("out"), Nil)
    assertRows(run(ibis(betweenPlan("nohires", litString("2019-12-31"), litString("2020-01-15")))).select("out"), Nil)
    // A bound that is no ISO date (all or nothing), and another producer's plan: refused as before, nothing read.
    val refused = Seq(ibis(betweenPlan("hires", litString("2019-12-31"), litString("2020-13-01"))),
      ibis(betweenPlan("hires", litString("soon"), litString("later"))),
      stamped(betweenPlan("hires", litString("2019-12-31"), litString("2020-01-15")), "isthmus", 87),
      unstamped(betweenPlan("hires", litString("2019-12-31"), litString("2020-01-15"))))
    refused.foreach { p =>
      assert(names(p).isEmpty, p)
      assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION",
        "relations[0].root.input.project.input.filter.condition.scalar_function") {
        run(p).collect()
      }
    }
  }

  /** emp.x.cast("int64") as ibis-substrait writes it: a plain cast of an fp64 column. */
  private def castPlan(table: String): Plan =
    new PlanBuilder().plan(project(readNamed(hires, table), cast(field(2), i64())), "id", "hired", "x", "n")

  /** The same cast under a filter whose function is declared with an extension URN (the round added beside it). */
  private def filteredCastPlan(): Plan = {
    val b = new PlanBuilder()
    val notNull = b.fn("functions_comparison", "is_not_null:any")
    b.plan(project(filter(readNamed(hires, "hires"), b.call(notNull, field(0))), cast(field(2), i32())), "id", "hired",
      "x", "n")
  }

  test("ibis-float-to-integer-cast: a float cast to an integer rounds ties to even, as ibis' DuckDB engine does") {
    val plan = ibis(castPlan("hires"))
    assert(names(plan) == Seq("ibis-float-to-integer-cast"))
    assertSameRows(run(plan).select("id", "n"), spark.sql("SELECT id, CAST(bround(x, 0) AS BIGINT) FROM hires"))
    // DuckDB: CAST(1.5 AS BIGINT) = 2, CAST(2.5 AS BIGINT) = 2, CAST(-2.5 AS BIGINT) = -2, CAST(0.5 AS BIGINT) = 0.
    assertRows(run(plan).select("id", "n"),
      Seq(Row(1, 2L), Row(2, 2L), Row(2, 2L), Row(3, -2L), Row(4, 0L), Row(5, null), Row(6, 2L)))
    assertSameRows(run(ibis(castPlan("nohires"))).select("n"), spark.sql("SELECT CAST(x AS BIGINT) FROM nohires"))
    assertSameRows(run(ibis(filteredCastPlan())).select("n"),
      spark.sql("SELECT CAST(bround(x, 0) AS INT) FROM hires WHERE id IS NOT NULL"))
    // Another producer's cast is Spark's (truncation), as the spec leaves it.
    val other = stamped(castPlan("hires"), "isthmus", 87)
    assert(names(other).isEmpty)
    assertSameRows(run(other).select("id", "n"), spark.sql("SELECT id, CAST(x AS BIGINT) FROM hires"))
  }

  private val people = schema("name" -> string(), "k" -> i64(), "p" -> decimal(10, 2), "q" -> decimal(10, 2))

  private def stamped(plan: Plan, producer: String, minor: Int): Plan =
    plan.toBuilder.setVersion(Version.newBuilder().setMinorNumber(minor).setProducer(producer)).build()
  private def ibis(plan: Plan, minor: Int = 52): Plan = stamped(plan, "ibis-substrait", minor)
  private def unstamped(plan: Plan): Plan = plan.toBuilder.clearVersion().build()

  private def readingsOf(plan: Plan): Seq[AppliedReading] =
    PlanDecoder.fromBytes(plan.toByteArray, PlanLimits.active).readings
  private def names(plan: Plan): Seq[String] = readingsOf(plan).map(_.name)

  /** substring(name, start, 2) over `table`, as ibis-substrait 4 writes it: the start cast to i32. */
  private def substringPlan(table: String, start: io.sparksubstrait.proto.Expression): Plan = {
    val b = new PlanBuilder()
    val substring = b.fn("functions_string", "substring:str_i32_i32")
    b.plan(project(readNamed(people, table), b.call(substring, field(0), start, cast(litI8(2), i32()))), "name", "k",
      "p", "q", "s")
  }

  test("ibis-zero-based-substring: a constant start n is the 1-based position n + 1, as ibis' engine reads it") {
    // ibis' name.substr(1, 2): the 2nd and 3rd characters ("nn" of "Ann"; NULL stays NULL; "" stays "").
    val plan = ibis(substringPlan("people", cast(litI8(1), i32())))
    assert(names(plan) == Seq("ibis-zero-based-substring"))
    assertSameRows(run(plan).select("s"), spark.sql("SELECT substring(name, 2, 2) FROM people"))
    assertRows(run(plan).select("s"), Seq(Row("nn"), Row("nn"), Row("ob"), Row(null), Row(""), Row("id")))
    // A start of 0 is the first character; a bare i64 literal (older ibis) reads the same way.
    assertSameRows(run(ibis(substringPlan("people", litI64(0)), 24)).select("s"),
      spark.sql("SELECT substring(name, 1, 2) FROM people"))
    assertSameRows(run(ibis(substringPlan("nobody", litI8(1)))).select("s"),
      spark.sql("SELECT substring(name, 2, 2) FROM nobody"))
    // A NULL start gives NULL whatever base it is counted in.
    assertRows(run(ibis(substringPlan("people", litNull(i32())))).select("s").distinct(), Seq(Row(null)))
  }

  test("ibis-zero-based-substring: a start that is not a non-negative constant is refused, not guessed") {
    val at = "relations[0].root.input.project.expressions[0].scalar_function.arguments[1].value"
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", at) { run(ibis(substringPlan("people", cast(field(1), i32())))) }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", at) { run(ibis(substringPlan("people", litI32(-2)))) }
  }

  test("ibis-zero-based-substring: other producers' and unstamped plans count from 1, as the spec says") {
    Seq(stamped(substringPlan("people", cast(litI8(1), i32())), "isthmus", 87),
      unstamped(substringPlan("people", cast(litI8(1), i32())))).foreach { plan =>
      assert(names(plan).isEmpty)
      assertSameRows(run(plan).select("s"), spark.sql("SELECT substring(name, 1, 2) FROM people"))
    }
  }

  /** order_by(desc(k), name).limit(n) as ibis-substrait writes it: every key NULLS FIRST. */
  private def orderPlan(table: String, n: Long): Plan = {
    val sorted = sort(readNamed(people, table), field(1) -> SortField.SortDirection.SORT_DIRECTION_DESC_NULLS_FIRST,
      field(0) -> SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST)
    new PlanBuilder().plan(project(fetch(sorted, 0, n), field(1), field(0)), "name", "k", "p", "q", "k2", "name2")
  }

  test("ibis-sort-nulls-first: a known bug, run as written (NULLs first) with a warning naming it") {
    val plan = ibis(orderPlan("people", 4))
    val applied = readingsOf(plan)
    assert(applied.map(_.name) == Seq("ibis-sort-nulls-first"))
    assert(applied.head.kind == Reading.KnownBug && applied.head.isWarning && applied.head.where.size == 2)
    val expected = "SELECT k, name FROM %s ORDER BY k DESC NULLS FIRST, name NULLS FIRST LIMIT %d"
    assertSameRows(run(plan).select("k2", "name2"), spark.sql(expected.format("people", 4)), ordered = true)
    assertRows(run(plan).select("k2", "name2"),
      Seq(Row(null, "Cidney"), Row(null, "bob"), Row(3L, "Ann"), Row(3L, "Ann")), ordered = true)
    assertSameRows(run(ibis(orderPlan("nobody", 4))).select("k2", "name2"), spark.sql(expected.format("nobody", 4)),
      ordered = true)
    assert(run(plan).queryExecution.logical.toString.contains("readings=[ibis-sort-nulls-first]"))
    // Another producer's plan with the same explicit directions is no bug: no reading, same rows.
    assert(names(stamped(orderPlan("people", 4), "isthmus", 87)).isEmpty)
    assert(names(unstamped(orderPlan("people", 4))).isEmpty)
  }

  /** SELECT p * q, and SUM(p * q), with the product declared as ibis does: DECIMAL(10,2). */
  private def productPlans(table: String): (Plan, Plan) = {
    val b = new PlanBuilder()
    val multiply = b.fn("functions_arithmetic_decimal", "multiply:dec_dec")
    val sum = b.fn("functions_arithmetic_decimal", "sum:dec")
    val product = b.callWith(multiply, Nil, Some(decimal(10, 2)), field(2), field(3))
    val rows = b.plan(project(readNamed(people, table), product), "name", "k", "p", "q", "pq")
    val total =
      b.plan(aggregate(project(readNamed(people, table), product), Nil, Seq(b.measure(sum, Seq(field(4))))), "total")
    (rows, total)
  }

  test("ibis-decimal-product-type: a known bug, the product rounded to the declared scale as the plan says") {
    val (rows, total) = productPlans("people")
    val applied = readingsOf(ibis(rows))
    assert(applied.map(_.name) == Seq("ibis-decimal-product-type") && applied.head.isWarning)
    // 10.25 * 0.07 = 0.7175 declared DECIMAL(10,2): 0.72 (half up); 1.15 * 0.05 = 0.0575: 0.06;
    // 999.99 * 0.99 = 989.9901: 989.99. Exact, the sum would be 991.4826; as declared it is 991.49.
    assertRows(run(ibis(rows)).select("pq"),
      Seq(Row(BigDecimal("0.72").bigDecimal), Row(BigDecimal("0.72").bigDecimal),
        Row(BigDecimal("0.06").bigDecimal), Row(null), Row(null), Row(BigDecimal("989.99").bigDecimal)))
    assertSameRows(run(ibis(total)), spark.sql("SELECT sum(CAST(p * q AS DECIMAL(10,2))) FROM people"))
    assertRows(run(ibis(total)).selectExpr("CAST(total AS STRING)"), Seq(Row("991.49")))
    val (_, empty) = productPlans("nobody")
    assertRows(run(ibis(empty)), Seq(Row(null)))
    // Another producer's declared type is its contract too, but no bug is named for it.
    assert(names(stamped(total, "isthmus", 87)).isEmpty && names(unstamped(total)).isEmpty)
  }

  private def sub(f: Subquery.Builder => Subquery.Builder): Expression =
    Expression.newBuilder().setSubquery(f(Subquery.newBuilder())).build()
  private def exists(r: Rel): Expression =
    sub(_.setSetPredicate(
        SetPredicate.newBuilder().setPredicateOp(SetPredicate.PredicateOp.PREDICATE_OP_EXISTS).setTuples(r)))
  private def scalarOf(r: Rel): Expression = sub(_.setScalar(Subquery.Scalar.newBuilder().setInput(r)))

  private val ords = schema("o_orderkey" -> i64(), "o_priority" -> string())
  private val lines = schema("l" -> i64(), "c" -> date(), "r" -> date())

  /**
   * TPC-H Q4 as ibis-substrait 4.0.1 writes it: count orders by priority where EXISTS a late line of
   * the order, `lines.l == ords.o_orderkey` written `equal(field 0, correlation)`: ibis writes
   * field 0 (o_orderkey's number in ords) as a plain reference, which in the subquery is l itself.
   */
  private def q4Plan(linesTable: String, correlation: Expression): Plan = {
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:any_any")
    val lt = b.fn("functions_comparison", "lt:any_any")
    val and = b.fn("functions_boolean", "and:bool")
    val count = b.fn("functions_aggregate_generic", "count")
    val late = filter(readNamed(lines, linesTable),
      b.call(and, b.call(eq, field(0), correlation), b.call(lt, field(1), field(2))))
    b.plan(aggregate(filter(readNamed(ords, "ords"), exists(late)), Seq(field(1)), Seq(b.measure(count, Nil))),
      "o_priority", "order_count")
  }

  test("ibis-correlation-as-local-reference: a known bug, the subquery's equal(x, x) run as written with a warning") {
    val plan = ibis(q4Plan("lines", field(0)))
    val applied = readingsOf(plan)
    assert(applied.map(_.name) == Seq("ibis-correlation-as-local-reference") && applied.head.isWarning, applied)
    assert(
      applied.head.where == Seq(
        "relations[0].root.input.aggregate.input.filter.condition.subquery.set_predicate.tuples" +
          ".filter.condition.scalar_function.arguments[0].value.scalar_function: equal(field 0, itself)"),
      applied.head.where)
    // As written the subquery is not correlated: some line with a non-NULL key is late (order 1's), so every order counts.
    val asWritten =
      "SELECT o_priority, count(*) FROM ords WHERE EXISTS (SELECT 1 FROM %s WHERE l = l AND c < r) GROUP BY o_priority"
    assertSameRows(run(plan), spark.sql(asWritten.format("lines")))
    assertRows(run(plan), Seq(Row("1-URGENT", 2L), Row("2-HIGH", 2L), Row("3-LOW", 1L)))
    // Without such a line (only the NULL-keyed one is late: NULL = NULL is not true) no order counts.
    assertRows(run(ibis(q4Plan("ontime", field(0)))), Nil)
    assertSameRows(run(ibis(q4Plan("ontime", field(0)))), spark.sql(asWritten.format("ontime")))
    assert(run(plan).queryExecution.logical.toString.contains("readings=[ibis-correlation-as-local-reference]"))
    val explained = SubstraitPlans.explain(spark, plan.toByteArray, null, null)
    assert(explained.contains("ibis-correlation-as-local-reference") && explained.contains("equal(field 0, itself)"),
      explained)
    // The query it came from (the correlation as an outer reference, as the spec writes it) counts order 1 only: no reading.
    val meant = ibis(q4Plan("lines", outerField(0)))
    assert(names(meant).isEmpty)
    assertRows(run(meant), Seq(Row("1-URGENT", 1L)))
    assertSameRows(run(meant),
      spark.sql(
        "SELECT o_priority, count(*) FROM ords o WHERE EXISTS (SELECT 1 FROM lines WHERE l = o.o_orderkey AND c < r) GROUP BY o_priority"))
    // Another producer's equal(x, x) is its question (no warning); outside a subquery no correlation was meant.
    assert(names(stamped(q4Plan("lines", field(0)), "isthmus", 87)).isEmpty &&
      names(unstamped(q4Plan("lines", field(0)))).isEmpty)
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:any_any")
    assert(names(ibis(b.plan(filter(readNamed(lines, "lines"), b.call(eq, field(0), field(0))), "l", "c",
            "r"))).isEmpty)
  }

  private val stock = schema("k" -> i32(), "v" -> decimal(15, 2))

  /**
   * TPC-H Q11 as ibis-substrait 4.0.1 writes it: the parts whose summed value exceeds `fraction`
   * of the total, `total * 0.0001` written `multiply(total, CAST(0.0001 AS DECIMAL(38,2)))` declared DECIMAL(38,2).
   */
  private def q11Plan(fraction: Double): Plan = {
    val b = new PlanBuilder()
    val sum = b.fn("functions_arithmetic_decimal", "sum:dec")
    val multiply = b.fn("functions_arithmetic_decimal", "multiply:dec_dec")
    val gt = b.fn("functions_comparison", "gt:any_any")
    val total = scalarOf(aggregate(readNamed(stock, "stock"), Nil, Seq(b.measure(sum, Seq(field(1))))))
    val threshold = b.callWith(multiply, Nil, Some(decimal(38, 2)), total, cast(litFp64(fraction), decimal(38, 2)))
    val byPart = aggregate(readNamed(stock, "stock"), Seq(field(0)), Seq(b.measure(sum, Seq(field(1)))))
    b.plan(filter(byPart, b.call(gt, field(1), threshold)), "k", "value")
  }

  test(
    "ibis-float-literal-decimal-cast: a known bug, the fraction cast to the sum's scale run as written with a warning") {
    val plan = ibis(q11Plan(0.0001))
    val applied = readingsOf(plan)
    assert(applied.map(_.name) == Seq("ibis-decimal-product-type", "ibis-float-literal-decimal-cast") &&
      applied.forall(_.isWarning))
    assert(applied.last.where.size == 1 &&
        applied.last.where.head.endsWith("arguments[1].value.cast: 1.0E-4 cast to DECIMAL(38,2)"),
      applied.last.where)
    // Total 100.01; as written the threshold is 100.01 * 0.00 = 0: parts 1, 2 and 3 (4 sums to 0.00, 5 to NULL).
    assertRows(run(plan),
      Seq(Row(1, BigDecimal("0.01").bigDecimal), Row(2, BigDecimal("5.00").bigDecimal),
        Row(3, BigDecimal("95.00").bigDecimal)))
    assertSameRows(run(plan),
      spark.sql("""SELECT k, sum(v) FROM stock GROUP BY k
      HAVING sum(v) > (SELECT sum(v) FROM stock) * CAST(0.0001 AS DECIMAL(38,2))"""))
    // ibis' engine multiplies by the double 0.0001: threshold 0.010001, part 1 is out.
    assert(
      spark.sql("SELECT k FROM stock GROUP BY k HAVING sum(v) > (SELECT sum(v) FROM stock) * 0.0001D").collect().map(
        _.getInt(0)).toSet == Set(2, 3))
    assert(SubstraitPlans.explain(spark, plan.toByteArray, null, null).contains("ibis-float-literal-decimal-cast"))
    // A fraction the scale holds is the same number: no warning (the product's declared type still is).
    assert(names(ibis(q11Plan(0.25))) == Seq("ibis-decimal-product-type"))
    assert(names(stamped(q11Plan(0.0001), "isthmus", 87)).isEmpty)
  }

  test(
    "ibis-substrait 4.0.1's TPC-H Q7 and Q21: a dropped select list leaves functions over the wrong columns, refused where the types say so") {
    val b = new PlanBuilder()
    val sum = b.fn("functions_arithmetic_decimal", "sum:dec")
    val ne = b.fn("functions_comparison", "not_equal:any_any")
    // Q7: the measure's argument numbered by the dropped select (volume, column 6) reads the join's s_comment, a string.
    val q7 = ibis(b.plan(aggregate(readNamed(people, "people"), Seq(field(1)), Seq(b.measure(sum, Seq(field(0))))), "k",
        "revenue"))
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.aggregate.measures[0].measure") { run(q7) }
    // Q21: the outer l1_suppkey written as the subquery's column of that number, there a string.
    val inner = filter(readNamed(people, "people"), b.call(ne, field(1), field(0)))
    val q21 = ibis(b.plan(filter(readNamed(people, "people"), exists(inner)), "name", "k", "p", "q"))
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION",
      "relations[0].root.input.filter.condition.subquery.set_predicate.tuples.filter.condition.scalar_function") {
      run(q21)
    }
  }

  /** TPC-H Q9's shape: the measure numbered by a select list not written, `sum:dec` over column `col` of people. */
  private def q9Plan(signature: String, col: Int): Plan = {
    val b = new PlanBuilder()
    val sum = b.fn("functions_arithmetic_decimal", signature)
    b.plan(aggregate(readNamed(people, "people"), Seq(field(0)), Seq(b.measure(sum, Seq(field(col))))), "name", "total")
  }

  test(
    "ibis-measure-over-another-column: a known bug, an aggregate declared sum:dec over an i64 column run as written with a warning") {
    val plan = ibis(q9Plan("sum:dec", 1))
    val applied = readingsOf(plan)
    assert(applied.map(_.name) == Seq("ibis-measure-over-another-column") && applied.head.isWarning)
    assert(applied.head.where == Seq("relations[0].root.input.aggregate.measures[0].measure: sum:dec over i64"),
      applied.head.where)
    assertSameRows(run(plan), spark.sql("SELECT name, sum(k) FROM people GROUP BY name"))
    assertRows(run(plan), Seq(Row("Ann", 6L), Row("bob", null), Row(null, 1L), Row("", 2L), Row("Cidney", null)))
    assert(SubstraitPlans.explain(spark, plan.toByteArray, null, null).contains("sum:dec over i64"))
    // A signature that agrees with its column, another producer's plan, or an unstamped one: nothing to warn of.
    Seq(ibis(q9Plan("sum:dec", 2)), ibis(q9Plan("sum:i64", 1)), ibis(q9Plan("sum:any", 1)),
      stamped(q9Plan("sum:dec", 1), "isthmus", 87), unstamped(q9Plan("sum:dec", 1))).foreach(p =>
      assert(names(p).isEmpty, p))
  }
}
