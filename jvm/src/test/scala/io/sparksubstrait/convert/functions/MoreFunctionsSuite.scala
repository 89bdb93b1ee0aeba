package io.sparksubstrait
package convert.functions

import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Functions of the standard YAMLs that the spec's test files do not cover, each against rows
 * worked out by hand from the YAML's description (NULLs, duplicates, empty strings and
 * empty groups included).
 */
class MoreFunctionsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("""CREATE OR REPLACE TEMP VIEW words AS SELECT * FROM VALUES
      (1, 'hello World', 'l', 2L, 3L),
      (2, 'aaaa', 'aa', 1L, 0L),
      (3, '', 'x', 1L, 1L),
      (4, NULL, 'a', 1L, 1L),
      (5, 'ÉcoLE straße', 'É', 5L, 100L),
      (6, 'abc', NULL, NULL, 1L),
      (7, 'hello World', 'l', 2L, 3L)
      AS t(id, s, t, n, m)""")
    spark.sql("""CREATE OR REPLACE TEMP VIEW groups AS SELECT * FROM VALUES
      ('a', 1), ('a', 3), ('a', 3), ('a', NULL),
      ('b', 4), ('b', 1), ('b', 2), ('b', 3),
      ('c', NULL), ('c', NULL),
      ('d', 7)
      AS t(g, v)""")
  }

  private val wordsSchema = schema("id" -> i32(), "s" -> string(), "t" -> string(), "n" -> i64(), "m" -> i64())
  private val groupsSchema = schema("g" -> string(), "v" -> i32())

  /** `id` and one call of a functions_string function over `words`, ordered by id. */
  private def strings(name: String, options: (String, Seq[String])*)(
    args: PlanBuilder => Seq[io.sparksubstrait.proto.Expression]): Seq[Row] = {
    val b = new PlanBuilder()
    val call = b.callWith(b.fn("functions_string", name), options, None, args(b): _*)
    run(b.plan(emit(project(readNamed(wordsSchema, "words"), call), 0, 5), "id", "r")).collect().toSeq.sortBy(
      _.getInt(0))
  }

  private def column(rows: Seq[Row]): Seq[Any] = rows.map(_.get(1))

  test("swapcase and capitalize: every letter or ASCII only; NULL stays NULL") {
    // ß has no one-character upper case: it stays (Java's simple case mapping).
    assert(column(strings("swapcase:str")(_ => Seq(field(1)))) ==
      Seq("HELLO wORLD", "AAAA", "", null, "éCOle STRAßE", "ABC", "HELLO wORLD"))
    assert(column(strings("swapcase:str", "char_set" -> Seq("ASCII_ONLY"))(_ => Seq(field(1))))(4) == "ÉCOle STRAßE")
    assert(column(strings("capitalize:str")(_ => Seq(field(1)))) ==
      Seq("Hello World", "Aaaa", "", null, "ÉcoLE straße", "Abc", "Hello World"))
  }

  test("count_substring: non-overlapping occurrences, case-insensitive on request") {
    assert(
      column(strings("count_substring:str_str")(_ => Seq(field(1), field(2)))) == Seq(3L, 2L, 0L, null, 1L, null, 3L))
    assert(column(strings("count_substring:str_str", "case_sensitivity" -> Seq("CASE_INSENSITIVE"))(b =>
        Seq(field(1), litString("O")))) == Seq(2L, 0L, 0L, null, 1L, 0L, 2L))
  }

  test("replace_slice: delete length characters at start and insert; outside the string NULL") {
    assert(column(strings("replace_slice:str_i64_i64_str")(b => Seq(field(1), field(3), field(4), litString("XY")))) ==
      Seq("hXYo World", "XYaaaa", null, null, "ÉcoLXY", null, "hXYo World"))
    // Start past the end, and a negative length, give NULL.
    assert(column(
      strings("replace_slice:str_i64_i64_str")(b => Seq(field(1), litI64(12), litI64(0), litString("!")))).head == null)
    assert(column(
      strings("replace_slice:str_i64_i64_str")(b => Seq(field(1), litI64(1), litI64(-1), litString("!")))).head == null)
    assert(column(
      strings("replace_slice:str_i64_i64_str")(b => Seq(field(1), litI64(11), litI64(0), litString("!")))).head ==
      "hello Worl!d")
  }

  test("center: padding on both sides, the extra character right by default or left on request") {
    assert(column(strings("center:str_i32_str")(b => Seq(field(1), litI32(8), litString("*")))) ==
      Seq("hello World", "**aaaa**", "********", null, "ÉcoLE straße", "**abc***", "hello World"))
    assert(column(strings("center:str_i32_str", "padding" -> Seq("LEFT"))(b =>
        Seq(field(1), litI32(8), litString("*"))))(5) == "***abc**")
  }

  test("regexp_strpos and regexp_match_substring_all: from a position, the n-th match, groups") {
    assert(
      column(strings("regexp_strpos:str_str_i64_i64")(b => Seq(field(1), litString("l+"), litI64(1), litI64(2)))) ==
        Seq(10L, 0L, 0L, null, 0L, 0L, 10L))
    assert(
      column(strings("regexp_strpos:str_str_i64_i64")(b => Seq(field(1), litString("[a-z]"), field(3), litI64(1)))) ==
        Seq(2L, 1L, 0L, null, 7L, null, 2L))
    assert(column(strings("regexp_strpos:str_str_i64_i64", "case_sensitivity" -> Seq("CASE_INSENSITIVE"))(b =>
        Seq(field(1), litString("w"), litI64(1), litI64(1)))) == Seq(7L, 0L, 0L, null, 0L, 0L, 7L))
    assert(column(strings("regexp_match_substring_all:str_str_i64_i64")(b =>
        Seq(field(1), litString("(l+)(o?)"), litI64(1), litI64(1)))) ==
      Seq(Seq("ll", "l"), Seq(), Seq(), null, Seq(), Seq(), Seq("ll", "l")))
    assert(column(strings("regexp_match_substring_all:str_str_i64_i64")(b =>
        Seq(field(1), litString("[a-z]+"), litI64(5), litI64(0)))) ==
      Seq(Seq("o", "orld"), Seq(), Seq(), null, Seq("stra", "e"), Seq(), Seq("o", "orld")))
  }

  /** One measure per group of `groups` (g, v), as (group, value) ordered by group. */
  private def perGroup(ext: String, name: String, enums: Seq[String] = Nil, options: Seq[(String, Seq[String])] = Nil)
    : Seq[(String, Any)] = {
    val b = new PlanBuilder()
    val m = b.measure(b.fn(ext, name), Seq(field(1)), enums = enums, options = options)
    run(b.plan(aggregate(readNamed(groupsSchema, "groups"), Seq(field(0)), Seq(m)), "g", "r")).collect().toSeq
      .map(r => r.getString(0) -> r.get(1)).sortBy(_._1)
  }

  test("any_value: a value of the group (a non-NULL one when asked); NULL for an all-NULL group") {
    val any =
      perGroup("functions_aggregate_generic", "any_value:any", options = Seq("ignore_nulls" -> Seq("TRUE"))).toMap
    assert(Set[Any](1, 3).contains(any("a")) && Set[Any](1, 2, 3, 4).contains(any("b")), any)
    assert(any("c") == null && any("d") == 7, any)
    val anyAtAll = perGroup("functions_aggregate_generic", "any_value:any").toMap
    assert(Set[Any](1, 3, null).contains(anyAtAll("a")) && anyAtAll("c") == null && anyAtAll("d") == 7, anyAtAll)
  }

  test("mode: the most frequent non-NULL value; NULL for an all-NULL group") {
    val mode = perGroup("functions_arithmetic", "mode:i32").toMap
    assert(mode("a") == 3 && mode("c") == null && mode("d") == 7, mode)
  }

  test("median: exact, integers rounded by the rounding option; approximate within the range; NULL for no values") {
    def median(rounding: String) =
      perGroup("functions_arithmetic", "median:i32", Seq("EXACT"), Seq("rounding" -> Seq(rounding)))
    // a: 1, 3, 3 -> 3; b: 1, 2, 3, 4 -> 2.5; c: no values; d: 7.
    assert(median("TIE_TO_EVEN") == Seq("a" -> 3, "b" -> 2, "c" -> null, "d" -> 7))
    assert(median("TIE_AWAY_FROM_ZERO").map(_._2) == Seq(3, 3, null, 7))
    assert(median("TRUNCATE").map(_._2) == Seq(3, 2, null, 7))
    assert(median("CEILING").map(_._2) == Seq(3, 3, null, 7))
    assert(median("FLOOR").map(_._2) == Seq(3, 2, null, 7))
    val approx = perGroup("functions_arithmetic", "median:i32", Seq("APPROXIMATE")).toMap
    assert(approx("a") == 3 && Set[Any](2, 3).contains(approx("b")) && approx("c") == null && approx("d") == 7, approx)
    // A decimal median is no YAML overload: without a rounding option (how a half unit of the
    // scale rounds), refused; with one, exact in the argument's type. v as DECIMAL(10,0):
    // a: 1, 3, 3 -> 3; b: 1, 2, 3, 4 -> 2.5 (a half unit); c: no values; d: 7.
    def decimalMedian(options: Seq[(String, Seq[String])]) = {
      val b = new PlanBuilder()
      val m = b.measure(b.fn("functions_arithmetic", "median:dec"), Seq(cast(field(1), decimal(10, 0))),
        enums = Seq("EXACT"), options = options)
      run(b.plan(aggregate(readNamed(groupsSchema, "groups"), Seq(field(0)), Seq(m)), "g", "r"))
    }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.aggregate.measures[0].measure") {
      decimalMedian(Nil)
    }
    def dec(v: String) = new java.math.BigDecimal(v)
    assertRows(decimalMedian(Seq("rounding" -> Seq("TIE_TO_EVEN"))),
      Seq(Row("a", dec("3")), Row("b", dec("2")), Row("c", null), Row("d", dec("7"))))
    assertRows(decimalMedian(Seq("rounding" -> Seq("TIE_AWAY_FROM_ZERO"))),
      Seq(Row("a", dec("3")), Row("b", dec("3")), Row("c", null), Row("d", dec("7"))))
  }

  test("sum0: the sum, zero for an all-NULL group and for no rows at all") {
    assert(perGroup("functions_arithmetic", "sum0:i32") == Seq("a" -> 7L, "b" -> 10L, "c" -> 0L, "d" -> 7L))
    val b = new PlanBuilder()
    val m = b.measure(b.fn("functions_arithmetic", "sum0:i32"), Seq(field(1)))
    assertRows(run(b.plan(aggregate(filter(readNamed(groupsSchema, "groups"), litBool(false)), Nil, Seq(m)), "r")),
      Seq(Row(0L)))
  }

  test("approx_count_distinct of functions_aggregate_decimal_output; datetime min and max") {
    // The YAML's result is DECIMAL(38, 0).
    assert(perGroup("functions_aggregate_decimal_output", "approx_count_distinct:any") ==
      Seq("a" -> 2L, "b" -> 4L, "c" -> 0L, "d" -> 1L).map { case (g, n) => g -> new java.math.BigDecimal(n) })
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW days AS SELECT * FROM VALUES (DATE'2024-02-29'), (NULL), (DATE'1999-12-31'), (DATE'2024-02-29') AS t(d)")
    val b = new PlanBuilder()
    val ms = Seq("min:date", "max:date").map(f => b.measure(b.fn("functions_datetime", f), Seq(field(0))))
    assertRows(run(b.plan(aggregate(readNamed(schema("d" -> date()), "days"), Nil, ms), "lo", "hi")),
      Seq(Row(java.sql.Date.valueOf("1999-12-31"), java.sql.Date.valueOf("2024-02-29"))))
  }

  test(
    "index_in: the 0-based index of the first equal element; NULL when absent, for a NULL needle, and for NaN on request") {
    val b = new PlanBuilder()
    val call = b.call(b.fn("functions_set", "index_in:any_list"), field(1), listOf(litI32(3), litI32(1), litI32(3)))
    val rows = run(b.plan(project(readNamed(groupsSchema, "groups"), call), "g", "v", "r")).collect().toSeq
    assert(rows.map(r => Option(r.get(1)) -> r.get(2)).distinct.toMap ==
      Map(Some(1) -> 1L, Some(3) -> 0L, Some(4) -> null, Some(2) -> null, None -> null, Some(7) -> null))
    def nan(options: (String, Seq[String])*) = {
      val nb = new PlanBuilder()
      val c = nb.callWith(nb.fn("functions_set", "index_in:any_list"), options, None, litFp64(Double.NaN),
        listOf(litFp64(1.0), litFp64(Double.NaN)))
      run(nb.plan(emit(project(readNamed(groupsSchema, "groups"), c), 2), "r")).collect().head.get(0)
    }
    assert(nan() == 1L && nan("nan_equality" -> Seq("NAN_IS_NOT_NAN")) == null)
  }

  test(
    "string_agg: non-NULL values joined in the sort fields' order, DISTINCT, NULL for none; other ordered aggregates are errors") {
    // e: ties on k (a and b at 1) and a NULL key. Rows tying on every sort field come ordered
    // by the value (StringFunctions' tie-break), on Spark 3.5 (collect_list sorted) as on 4.x (listagg).
    spark.sql("""CREATE OR REPLACE TEMP VIEW tags AS SELECT * FROM VALUES
      ('a', 'x', 2), ('a', 'y', 1), ('a', NULL, 3), ('a', 'x', 4),
      ('b', NULL, 1), ('b', NULL, 2),
      ('c', 'z', NULL), ('c', 'w', 5),
      ('d', '', 1), ('d', 'q', 2),
      ('e', 'b', 1), ('e', 'a', 1), ('e', 'c', NULL), ('e', NULL, 1), ('e', 'a', 2)
      AS t(g, s, k)""")
    val sch = schema("g" -> string(), "s" -> string(), "k" -> i32())
    import io.sparksubstrait.proto.SortField.SortDirection._
    def agg(table: String, groups: Seq[io.sparksubstrait.proto.Expression],
      sorts: Seq[(io.sparksubstrait.proto.Expression, io.sparksubstrait.proto.SortField.SortDirection)],
      distinct: Boolean = false, separator: io.sparksubstrait.proto.Expression = litString(","),
      fn: String = "string_agg:str_str",
      args: Seq[io.sparksubstrait.proto.Expression] = Nil) = {
      val b = new PlanBuilder()
      val ext = if (fn.startsWith("string_agg")) "functions_string"
      else if (fn.startsWith("any_value")) "functions_aggregate_generic" else "functions_arithmetic"
      val m = b.measure(b.fn(ext, fn), if (args.nonEmpty) args else Seq(field(1), separator), distinct = distinct,
        sorts = sorts)
      b.plan(aggregate(readNamed(sch, table), groups, Seq(m)), (groups.indices.map(i => s"g$i") :+ "r"): _*)
    }
    val measure = "relations[0].root.input.aggregate.measures[0].measure"
    // The rows worked out by hand, on every Spark; on Spark 4 also Spark SQL's listagg, the
    // tie-break written out.
    def check(sorts: Seq[(io.sparksubstrait.proto.Expression, io.sparksubstrait.proto.SortField.SortDirection)],
      expected: Seq[Row], within: String, distinct: Boolean = false): Unit = {
      val df = run(agg("tags", Seq(field(0)), sorts, distinct))
      assertRows(df, expected)
      if (!org.apache.spark.SPARK_VERSION.startsWith("3.")) {
        val d = if (distinct) "DISTINCT" else ""
        assertSameRows(df,
          spark.sql(s"SELECT g, listagg($d s, ',') WITHIN GROUP (ORDER BY $within) FROM tags GROUP BY g"))
      }
    }
    check(Seq(field(2) -> SORT_DIRECTION_ASC_NULLS_LAST),
      Seq(Row("a", "y,x,x"), Row("b", null), Row("c", "w,z"), Row("d", ",q"), Row("e", "a,b,a,c")),
      "k ASC NULLS LAST, s")
    check(Seq(field(2) -> SORT_DIRECTION_ASC_NULLS_FIRST),
      Seq(Row("a", "y,x,x"), Row("b", null), Row("c", "z,w"), Row("d", ",q"), Row("e", "c,a,b,a")),
      "k ASC NULLS FIRST, s")
    check(Seq(field(2) -> SORT_DIRECTION_DESC_NULLS_FIRST),
      Seq(Row("a", "x,x,y"), Row("b", null), Row("c", "z,w"), Row("d", "q,"), Row("e", "c,a,a,b")),
      "k DESC NULLS FIRST, s")
    check(Seq(field(2) -> SORT_DIRECTION_DESC_NULLS_LAST),
      Seq(Row("a", "x,x,y"), Row("b", null), Row("c", "w,z"), Row("d", "q,"), Row("e", "a,a,b,c")),
      "k DESC NULLS LAST, s")
    // Two sort fields: the second breaks the first's ties (the value is a key: no tie-break added).
    check(Seq(field(1) -> SORT_DIRECTION_DESC_NULLS_LAST, field(2) -> SORT_DIRECTION_ASC_NULLS_FIRST),
      Seq(Row("a", "y,x,x"), Row("b", null), Row("c", "z,w"), Row("d", "q,"), Row("e", "c,b,a,a")),
      "s DESC NULLS LAST, k ASC NULLS FIRST")
    // A repeated key changes nothing.
    check(Seq(field(2) -> SORT_DIRECTION_DESC_NULLS_LAST, field(2) -> SORT_DIRECTION_ASC_NULLS_FIRST),
      Seq(Row("a", "x,x,y"), Row("b", null), Row("c", "w,z"), Row("d", "q,"), Row("e", "a,a,b,c")),
      "k DESC NULLS LAST, s")
    check(Seq(field(1) -> SORT_DIRECTION_ASC_NULLS_LAST),
      Seq(Row("a", "x,y"), Row("b", null), Row("c", "w,z"), Row("d", ",q"), Row("e", "a,b,c")), "s ASC NULLS LAST",
      distinct = true)
    check(Seq(field(1) -> SORT_DIRECTION_DESC_NULLS_FIRST),
      Seq(Row("a", "y,x"), Row("b", null), Row("c", "z,w"), Row("d", "q,"), Row("e", "c,b,a")), "s DESC NULLS FIRST",
      distinct = true)
    // No sort fields: any order of the values is right.
    val unordered =
      run(agg("tags", Seq(field(0)), Nil)).collect().map(r => r.getString(0) -> Option(r.getString(1))).toMap
    assert(unordered("a").map(_.split(",").sorted.toSeq).contains(Seq("x", "x", "y")) && unordered("b").isEmpty,
      unordered)
    val unorderedDistinct =
      run(agg("tags", Seq(field(0)), Nil, distinct = true)).collect().map(r => r.getString(0) -> r.getString(1)).toMap
    assert(unorderedDistinct("e").split(",").sorted.toSeq == Seq("a", "b", "c"), unorderedDistinct)
    // A global string_agg of no rows is one NULL.
    spark.sql("CREATE OR REPLACE TEMP VIEW no_tags AS SELECT * FROM tags WHERE false")
    assertRows(run(agg("no_tags", Nil, Seq(field(2) -> SORT_DIRECTION_ASC_NULLS_LAST))), Seq(Row(null)))
    assertRows(run(agg("no_tags", Nil, Nil)), Seq(Row(null)))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$measure.sorts[0]") {
      run(agg("tags", Seq(field(0)), Seq(field(2) -> SORT_DIRECTION_ASC_NULLS_LAST), distinct = true))
    }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$measure.arguments[1]") {
      run(agg("tags", Seq(field(0)), Nil, separator = field(0)))
    }
    // A NULL separator: every group's value is NULL (the YAML's MIRROR nullability).
    assertRows(run(agg("tags", Seq(field(0)), Seq(field(2) -> SORT_DIRECTION_ASC_NULLS_LAST),
          separator = litNull(string()))),
      Seq(Row("a", null), Row("b", null), Row("c", null), Row("d", null), Row("e", null)))
    // Sort fields on an aggregate whose answer depends on the order but whose Spark counterpart
    // ignores it (any_value: DuckDB's ordered first()): an error, not dropped.
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$measure.sorts[0]") {
      run(agg("tags", Seq(field(0)), Seq(field(2) -> SORT_DIRECTION_ASC_NULLS_LAST), fn = "any_value:any",
          args = Seq(field(2))))
    }
  }

  test("string_agg over four partitions: each group's values in the sort fields' order, as sorted here in Scala") {
    // Many rows per group, arriving in several partitions (so in no fixed order), with NULL keys,
    // NULL values and ties on the key; the expected strings are sorted by the driver.
    spark.range(0, 3000, 1, 4).selectExpr("CAST(id % 7 AS STRING) AS g",
      "IF(id % 17 = 0, NULL, concat('v', (id * 31) % 50)) AS s",
      "IF(id % 11 = 0, NULL, CAST((id * 7919) % 13 AS INT)) AS k").createOrReplaceTempView("many_tags")
    import io.sparksubstrait.proto.SortField.SortDirection._
    val b = new PlanBuilder()
    val m = b.measure(b.fn("functions_string", "string_agg:str_str"), Seq(field(1), litString("|")),
      sorts = Seq(field(2) -> SORT_DIRECTION_DESC_NULLS_FIRST))
    val sch = schema("g" -> string(), "s" -> string(), "k" -> i32())
    val df = run(b.plan(aggregate(readNamed(sch, "many_tags"), Seq(field(0)), Seq(m)), "g", "r"))
    // k DESC NULLS FIRST, then the value ascending (the tie-break).
    val byKey: Ordering[(Option[Int], String)] = Ordering.by[(Option[Int], String), (Int, Int, String)] {
      case (k, s) => (if (k.isEmpty) 0 else 1, -k.getOrElse(0), s)
    }
    val expected = spark.table("many_tags").collect().toSeq.filter(!_.isNullAt(1))
      .groupBy(_.getString(0)).map { case (g, rows) =>
        Row(g,
          rows.map(r => (Option(r.get(2)).map(_.asInstanceOf[Int]), r.getString(1))).sorted(byKey).map(_._2)
            .mkString("|"))
      }.toSeq
    assertRows(df, expected)
  }
}
