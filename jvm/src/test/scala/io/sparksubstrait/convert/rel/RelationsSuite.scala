package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{Expression, FetchRel, Rel}
import io.sparksubstrait.proto.JoinRel.JoinType._
import io.sparksubstrait.proto.SortField.SortDirection._
import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression
import org.apache.spark.sql.types.{ByteType, DecimalType, DoubleType, IntegerType, LongType, ShortType}

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

class RelationsSuite extends SparkSuite with SubstraitAssertions {
  private val people = Datasets.peopleSchema

  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerPeople(spark)
    spark.sql("CREATE OR REPLACE TEMP VIEW empty_people AS SELECT * FROM people WHERE false")
    spark.sql("CREATE TABLE default.items (item_id BIGINT, Label STRING, price DECIMAL(10,2)) USING parquet")
    spark.sql(
      "INSERT INTO default.items VALUES (10, 'pen', 1.50), (11, NULL, 2.25), (12, 'cup', NULL), (12, 'cup', NULL)")
    // Columns wider than the types ibis and Calcite declare for them (declared_types tests).
    spark.sql("CREATE TABLE default.wide_keys (k BIGINT, m INT, s SMALLINT, f FLOAT, x DOUBLE, d DECIMAL(12,2)) " +
      "USING parquet")
    spark.sql("INSERT INTO default.wide_keys VALUES (1, 1, 1, 1.5, 1.5, 1.25), (NULL, NULL, NULL, NULL, NULL, NULL), " +
      "(7, -7, 7, 0.1, 0.1, -9999.99), (7, -7, 7, 0.1, 0.1, -9999.99), (-100, 100, -100, -2.0, -2.0, 0.01)")
    spark.sql("CREATE TABLE default.empty_keys (k BIGINT) USING parquet")
    spark.sql("CREATE TABLE default.big_keys (k BIGINT, d DECIMAL(12,2)) USING parquet")
    spark.sql("INSERT INTO default.big_keys VALUES (1, 1.00), (3000000000, 12345.67), (NULL, NULL)")
  }

  test("named table: a temp view, all columns") {
    assertSameRows(run(new PlanBuilder().plan(readNamed(people, "people"), "id", "name", "score", "grp")),
      spark.sql("SELECT * FROM people"))
  }

  test("named tables: temp views by the relation rule alone (distinct reads of one view), others by the analyzer") {
    import org.apache.spark.sql.sparksubstrait.SparkShim
    spark.sql("CREATE OR REPLACE TEMP VIEW people_sql AS SELECT * FROM people WHERE id > 1")
    // Which names take the short path: DataFrame temp views (SQL ones only where the session stores their plan).
    assert(SparkShim.resolvedTempView(spark, Seq("people")).isDefined)
    assert(SparkShim.resolvedTempView(spark, Seq("spark_catalog", "default", "items")).isEmpty)
    assert(SparkShim.resolvedTempView(spark, Seq("no_such_view")).isEmpty)
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:any_any")
    def selfJoin(left: String, right: Seq[String]) = {
      val rel = join(readNamed(people, left), readNamed(people, right: _*), JOIN_TYPE_INNER,
        Some(b.call(eq, field(0), field(4))))
      run(b.plan(emit(rel, 0, 1, 5, 7), "id", "name", "other", "grp"))
    }
    // One view read twice: two reads with their own attributes, as FROM people a JOIN people b.
    assertSameRows(selfJoin("people", Seq("people")),
      spark.sql("SELECT a.id, a.name, b.name, b.grp FROM people a JOIN people b ON a.id = b.id"))
    assertSameRows(selfJoin("people", Seq("people_sql")),
      spark.sql("SELECT a.id, a.name, b.name, b.grp FROM people a JOIN people_sql b ON a.id = b.id"))
    // A temp view beside a catalog table: the analyzer's run for both.
    val items = schema("item_id" -> i64(), "Label" -> string(), "price" -> decimal(10, 2))
    val mixed = join(readNamed(people, "people"), readNamed(items, "spark_catalog", "default", "items"),
      JOIN_TYPE_INNER, Some(b.call(b.fn("functions_comparison", "lt:any_any"), field(0), field(4))))
    assertSameRows(run(b.plan(emit(mixed, 0, 4), "id", "item")),
      spark.sql("SELECT p.id, i.item_id FROM people p JOIN default.items i ON p.id < i.item_id"))
  }

  test("named table: multi-part name, case-insensitive names, columns subset and reordered by base_schema") {
    val s = schema("PRICE" -> decimal(10, 2), "item_ID" -> i64())
    val df = run(new PlanBuilder().plan(readNamed(s, "SPARK_CATALOG", "Default", "ITEMS"), "p", "i"))
    assertSameRows(df, spark.sql("SELECT price AS p, item_id AS i FROM spark_catalog.default.items"))
    assert(df.columns.toSeq == Seq("p", "i"))
  }

  test("named table: base_schema type, column and table mismatches are errors") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.read.named_table.base_schema.names[0]") {
      run(b.plan(readNamed(schema("item_id" -> string()), "items"), "x"))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.read.named_table.base_schema.names[1]") {
      run(b.plan(readNamed(schema("item_id" -> i64(), "nope" -> string()), "items"), "x", "y"))
    }
    assertPlanError("SUBSTRAIT_TABLE_NOT_FOUND", "relations[0].root.input.read.named_table.names") {
      run(b.plan(readNamed(schema("a" -> i64()), "no_such_table"), "a"))
    }
  }

  private val keysAt = "relations[0].root.input.read.named_table.base_schema.names[0]"

  test("declared types: an integer declared narrower than the table's is read through a checked narrowing") {
    val b = new PlanBuilder()
    def read(column: String, t: io.sparksubstrait.proto.Type, table: String = "wide_keys") =
      run(b.plan(readNamed(schema(column -> t), table), column))
    val cases = Seq(("k", i32(), IntegerType, "INT"), ("k", i16(), ShortType, "SMALLINT"),
      ("k", i8(), ByteType, "TINYINT"), ("m", i16(), ShortType, "SMALLINT"), ("m", i8(), ByteType, "TINYINT"),
      ("s", i8(), ByteType, "TINYINT"))
    for ((column, t, sparkType, sqlType) <- cases) {
      val df = read(column, t)
      assert(df.schema.head.dataType == sparkType, s"$column as $sqlType")
      // NULLs, duplicates and negative values: the rows Spark SQL reads, in the declared type.
      assertSameRows(df, spark.sql(s"SELECT CAST($column AS $sqlType) FROM wide_keys"))
    }
    assertRows(read("k", i32(), "empty_keys"), Nil)
    // A column declared required whose table column holds NULLs reads them, as for any type.
    assertSameRows(read("k", i32(false)), spark.sql("SELECT CAST(k AS INT) FROM wide_keys"))
    // The narrowed column in a real plan: a filter and a grouped count over it.
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val count = b.fn("functions_aggregate_generic", "count:any")
    val keys = readNamed(schema("k" -> i32(), "m" -> i32()), "wide_keys")
    assertSameRows(
      run(b.plan(aggregate(filter(keys, b.call(gt, field(0), litI32(-50))), Seq(field(0)),
            Seq(b.measure(count, Seq(field(1))))), "k", "n")),
      spark.sql("SELECT CAST(k AS INT), count(m) FROM wide_keys WHERE k > -50 GROUP BY k"))
  }

  test("declared types: a value beyond the declared type is SUBSTRAIT_VALUE_OUT_OF_RANGE naming column and value") {
    val b = new PlanBuilder()
    def edge(value: String, t: io.sparksubstrait.proto.Type): Seq[Row] = {
      spark.sql(s"CREATE OR REPLACE TEMP VIEW edge AS SELECT CAST($value AS BIGINT) AS k")
      run(b.plan(readNamed(schema("k" -> t), "edge"), "k")).collect().toSeq
    }
    def refused(value: String, t: io.sparksubstrait.proto.Type, declared: String): Unit = {
      val e = assertFailsWith("SUBSTRAIT_VALUE_OUT_OF_RANGE")(edge(value, t))
      assert(e.getLocation == keysAt, e.getMessage)
      assert(e.getMessage.contains(s"column k of table edge holds $value, which does not fit $declared"), e.getMessage)
    }
    assert(edge("2147483647", i32()) == Seq(Row(Int.MaxValue)))
    assert(edge("-2147483648", i32()) == Seq(Row(Int.MinValue)))
    refused("2147483648", i32(), "i32")
    refused("-2147483649", i32(), "i32")
    assert(edge("32767", i16()) == Seq(Row(Short.MaxValue)) && edge("-32768", i16()) == Seq(Row(Short.MinValue)))
    refused("32768", i16(), "i16")
    refused("-32769", i16(), "i16")
    assert(edge("127", i8()) == Seq(Row(Byte.MaxValue)) && edge("-128", i8()) == Seq(Row(Byte.MinValue)))
    refused("128", i8(), "i8")
    refused("-129", i8(), "i8")
    // From a Parquet table in generated code, below a filter the row passes: our error, never a wrapped value.
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val e = assertFailsWith("SUBSTRAIT_VALUE_OUT_OF_RANGE") {
      run(b.plan(filter(readNamed(schema("k" -> i32()), "big_keys"), b.call(gt, field(0), litI32(0))), "k")).collect()
    }
    assert(e.getMessage.contains("column k of table big_keys holds 3000000000"), e.getMessage)
    assert(e.getSqlState == "22003")
  }

  test("declared types: decimals with fewer integer digits are checked; wider types are widened exactly") {
    val b = new PlanBuilder()
    def read(table: String, columns: (String, io.sparksubstrait.proto.Type)*) =
      run(b.plan(readNamed(schema(columns: _*), table), columns.map(_._1): _*))
    val narrow = read("wide_keys", "d" -> decimal(7, 3))
    assert(narrow.schema.head.dataType == DecimalType(7, 3))
    assertSameRows(narrow, spark.sql("SELECT CAST(d AS DECIMAL(7,3)) FROM wide_keys"))
    val e = assertFailsWith("SUBSTRAIT_VALUE_OUT_OF_RANGE")(read("big_keys", "d" -> decimal(6, 2)).collect())
    assert(e.getMessage.contains("holds 12345.67, which does not fit decimal<6,2>"), e.getMessage)
    val wide = read("wide_keys", "m" -> i64(), "s" -> i32(), "f" -> fp64(), "d" -> decimal(20, 4))
    assert(wide.schema.map(_.dataType) == Seq(LongType, IntegerType, DoubleType, DecimalType(20, 4)))
    assertSameRows(wide,
      spark.sql("SELECT CAST(m AS BIGINT), CAST(s AS INT), CAST(f AS DOUBLE), CAST(d AS DECIMAL(20,4)) FROM wide_keys"))
    // What would change values stays refused: fp32 for fp64, fewer fraction digits, another kind.
    for ((column, t) <-
        Seq("x" -> fp32(), "d" -> decimal(12, 1), "d" -> decimal(20, 1), "k" -> string(), "k" -> fp64())) {
      assertPlanError("SUBSTRAIT_TYPE_MISMATCH", keysAt)(read("wide_keys", column -> t))
    }
  }

  test("declared types: an unsigned (user-defined) declared type is never narrowed or widened into") {
    val u8 = io.sparksubstrait.proto.Type.newBuilder().setUserDefined(io.sparksubstrait.proto.Type.UserDefined
        .newBuilder().setTypeReference(1).setNullability(io.sparksubstrait.proto.Type.Nullability.NULLABILITY_NULLABLE))
      .build()
    val p = new PlanBuilder().plan(readNamed(schema("k" -> u8), "wide_keys"), "k").toBuilder
    p.addExtensionUrns(
      io.sparksubstrait.proto.SimpleExtensionURN.newBuilder().setUrn("extension:io.substrait:unsigned_integers")
        .setExtensionUrnAnchor(9))
    p.addExtensions(io.sparksubstrait.proto.SimpleExtensionDeclaration.newBuilder().setExtensionType(
        io.sparksubstrait.proto.SimpleExtensionDeclaration.ExtensionType.newBuilder().setExtensionUrnReference(9)
          .setTypeAnchor(1).setName("u8")))
    // u8 is held in a short: read from the i64 column as an i16 it would admit -100.
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", keysAt)(run(p.build()))
  }

  test("declared types: the plan explorer names each column narrowed or widened") {
    val plan = new PlanBuilder().plan(readNamed(schema("k" -> i32(), "m" -> i64(), "s" -> i16()), "wide_keys"),
      "k", "m", "s")
    val text = SubstraitPlans.explain(spark, plan.toByteArray, null, null)
    assert(text.contains("column k: i64 in table wide_keys, read as the declared i32 (checked narrowing"), text)
    assert(text.contains("column m: i32 in table wide_keys, read as the declared i64 (widened)"), text)
    assert(!text.contains("column s:"), text)
  }

  test("virtual table: expressions form, values form, NULLs, duplicates, empty") {
    val s = schema("a" -> i32(), "b" -> string())
    val rows = Seq(Seq(litI32(1), litString("x")), Seq(litNull(i32()), litString("x")), Seq(litI32(1), litString("x")))
    val expected = Seq(Row(1, "x"), Row(null, "x"), Row(1, "x"))
    assertRows(run(new PlanBuilder().plan(readVirtual(s, rows), "a", "b")), expected)
    assertRows(run(new PlanBuilder().plan(readVirtualLegacy(s, rows), "a", "b")), expected)
    assertRows(run(new PlanBuilder().plan(readVirtual(s, Nil), "a", "b")), Nil)
  }

  test("virtual table: a NULL in a required column and a short row are errors") {
    val s = schema("a" -> i32(nullable = false))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.read.virtual_table.expressions[0].fields[0]") {
      run(new PlanBuilder().plan(readVirtual(s, Seq(Seq(litNull(i32())))), "a"))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.read.virtual_table.expressions[1]") {
      run(new PlanBuilder().plan(readVirtual(s, Seq(Seq(litI32(1)), Nil)), "a"))
    }
  }

  test("filter keeps rows whose condition is true, not NULL; read filter and projection") {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:fp64_fp64")
    assertSameRows(run(b.plan(filter(readNamed(people, "people"), b.call(gt, field(2), litFp64(0.5))), "id", "name",
          "score", "grp")),
      spark.sql("SELECT * FROM people WHERE score > 0.5"))
    // ReadRel.filter refers to base_schema fields; the projection then keeps name, id.
    val read = readNamed(people, "people").toBuilder
    read.getReadBuilder.setFilter(b.call(gt, field(2), litFp64(0.5)))
      .setProjection(io.sparksubstrait.proto.Expression.MaskExpression.newBuilder().setSelect(
          io.sparksubstrait.proto.Expression.MaskExpression.StructSelect.newBuilder()
            .addStructItems(io.sparksubstrait.proto.Expression.MaskExpression.StructItem.newBuilder().setField(1))
            .addStructItems(io.sparksubstrait.proto.Expression.MaskExpression.StructItem.newBuilder().setField(0))))
    assertSameRows(run(b.plan(read.build(), "n", "i")), spark.sql("SELECT name, id FROM people WHERE score > 0.5"))
  }

  test("project appends expressions to the input columns") {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val df = run(b.plan(project(readNamed(people, "people"), b.call(add, field(0), litI32(10))), "id", "name", "score",
        "grp", "id10"))
    assertSameRows(df, spark.sql("SELECT *, id + 10 FROM people"))
  }

  test(
    "fetch: offset and count, in the expression form (NULL or absent for all) and the legacy int64 form (-1 for all)") {
    val sorted = sort(readNamed(people, "people"), field(0) -> SORT_DIRECTION_ASC_NULLS_FIRST,
      field(1) -> SORT_DIRECTION_ASC_NULLS_FIRST)
    val names = Seq("id", "name", "score", "grp")
    def sql(tail: String) = spark.sql(s"SELECT * FROM people ORDER BY id ASC NULLS FIRST, name ASC NULLS FIRST $tail")
    for ((offset, count, tail) <- Seq((1L, 2L, "LIMIT 2 OFFSET 1"), (0L, 3L, "LIMIT 3"), (2L, -1L, "OFFSET 2"),
        (0L, 0L, "LIMIT 0"), (10L, 5L, "LIMIT 5 OFFSET 10"), (0L, -1L, ""))) {
      val current = if (count == -1) fetchAll(sorted, offset) else fetch(sorted, offset, count)
      assertSameRows(run(new PlanBuilder().plan(current, names: _*)), sql(tail), ordered = true)
      assertSameRows(run(new PlanBuilder().plan(fetchLegacy(sorted, offset, count), names: _*)), sql(tail),
        ordered = true)
    }
    // No count at all is every row too; a NULL offset is none.
    val bare = Rel.newBuilder().setFetch(FetchRel.newBuilder().setInput(sorted)
        .setOffsetExpr(Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setNull(i64())))).build()
    assertSameRows(run(new PlanBuilder().plan(bare, names: _*)), sql(""), ordered = true)
    // The current form has no -1: negative counts are invalid (the spec), as are negative legacy counts below -1.
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.fetch.count_expr") {
      run(new PlanBuilder().plan(fetch(sorted, 0, -1), names: _*))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.fetch.count_expr") {
      run(new PlanBuilder().plan(fetchLegacy(sorted, 0, -2), names: _*))
    }
  }

  test("sort: all four direction and null orderings") {
    for ((dir, sql) <- Seq(SORT_DIRECTION_ASC_NULLS_FIRST -> "ASC NULLS FIRST",
        SORT_DIRECTION_ASC_NULLS_LAST -> "ASC NULLS LAST",
        SORT_DIRECTION_DESC_NULLS_FIRST -> "DESC NULLS FIRST", SORT_DIRECTION_DESC_NULLS_LAST -> "DESC NULLS LAST")) {
      val plan = new PlanBuilder().plan(emit(sort(readNamed(people, "people"), field(2) -> dir, field(0) -> dir), 2, 0),
        "score", "id")
      assertSameRows(run(plan), spark.sql(s"SELECT score, id FROM people ORDER BY score $sql, id $sql"), ordered = true)
    }
  }

  test("sort by a comparison function is refused") {
    val bySort = io.sparksubstrait.proto.Rel.newBuilder().setSort(
      io.sparksubstrait.proto.SortRel.newBuilder().setInput(readNamed(people, "people"))
        .addSorts(
          io.sparksubstrait.proto.SortField.newBuilder().setExpr(field(0)).setComparisonFunctionReference(1))).build()
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.sort.sorts[0].comparison_function_reference") {
      run(new PlanBuilder().plan(bySort, "id", "name", "score", "grp"))
    }
  }

  test("sort: CLUSTERED keeps equal values (and NULLs) together") {
    val df = run(new PlanBuilder().plan(sort(readNamed(people, "people"), field(3) -> SORT_DIRECTION_CLUSTERED), "id",
        "name", "score", "grp"))
    assertSameRows(df, spark.sql("SELECT * FROM people"))
    val groups = df.collect().map(r => Option(r.getString(3))).toSeq
    val runs = groups.zip(groups.drop(1)).count { case (a, b) => a != b } + 1
    assert(runs == groups.distinct.size, s"values not contiguous: $groups")
  }

  test("emit: direct and remapped (reordered, repeated) on every relation kind") {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val count = b.fn("functions_aggregate_generic", "count:any")
    val base = readNamed(people, "people")
    val cases = Seq(
      emit(base, 3, 0, 0) -> "SELECT grp, id, id FROM people",
      emit(filter(base, b.call(gt, field(0), litI32(1))), 1, 0) -> "SELECT name, id FROM people WHERE id > 1",
      emit(project(base, b.call(gt, field(0), litI32(1))), 4, 1) -> "SELECT id > 1, name FROM people",
      emit(fetch(sort(base, field(0) -> SORT_DIRECTION_DESC_NULLS_LAST), 0, 2), 0) ->
        "SELECT id FROM people ORDER BY id DESC NULLS LAST LIMIT 2",
      emit(sort(base, field(1) -> SORT_DIRECTION_ASC_NULLS_LAST), 1, 1, 2) ->
        "SELECT name, name, score FROM people ORDER BY name ASC NULLS LAST",
      emit(aggregate(base, Seq(field(3)), Seq(b.measure(count, Seq(field(0))))), 1, 0) ->
        "SELECT count(id), grp FROM people GROUP BY grp")
    cases.foreach { case (rel, sql) =>
      val expected = spark.sql(sql)
      assertSameRows(run(b.plan(rel, expected.columns.indices.map(i => s"c$i"): _*)), expected)
    }
    assertPlanError("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
      "relations[0].root.input.read.common.emit.output_mapping[1]") {
      run(b.plan(emit(base, 0, 4), "a", "b"))
    }
  }

  test("aggregate: global, grouped, grouping without measures, DISTINCT, measure filter, empty input") {
    val b = new PlanBuilder()
    val sum = b.fn("functions_arithmetic", "sum:fp64")
    val count = b.fn("functions_aggregate_generic", "count:any")
    val countStar = b.fn("functions_aggregate_generic", "count")
    val gt = b.fn("functions_comparison", "gt:fp64_fp64")
    val base = readNamed(people, "people")
    val measures = Seq(b.measure(sum, Seq(field(2))), b.measure(count, Seq(field(1)), distinct = true),
      b.measure(countStar, Nil), b.measure(count, Seq(field(0)), filter = Some(b.call(gt, field(2), litFp64(0.5)))))
    val sqlMeasures = "sum(score), count(DISTINCT name), count(*), count(id) FILTER (WHERE score > 0.5)"
    assertSameRows(run(b.plan(aggregate(base, Nil, measures), "a", "b", "c", "d")),
      spark.sql(s"SELECT $sqlMeasures FROM people"))
    assertSameRows(run(b.plan(aggregate(base, Seq(field(3)), measures), "g", "a", "b", "c", "d")),
      spark.sql(s"SELECT grp, $sqlMeasures FROM people GROUP BY grp"))
    assertSameRows(run(b.plan(aggregate(base, Seq(field(3), field(1)), Nil), "g", "n")),
      spark.sql("SELECT DISTINCT grp, name FROM people"))
    // Empty input: a global aggregate still gives one row; a grouped one none.
    val empty = readNamed(people, "empty_people")
    assertSameRows(run(b.plan(aggregate(empty, Nil, measures), "a", "b", "c", "d")),
      spark.sql(s"SELECT $sqlMeasures FROM empty_people"))
    assertRows(run(b.plan(aggregate(empty, Seq(field(3)), measures), "g", "a", "b", "c", "d")), Nil)
  }

  test("aggregate: the legacy grouping_expressions form; disagreeing forms are an error") {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:any")
    val base = readNamed(people, "people")
    val legacy = base.toBuilder.clear().setAggregate(io.sparksubstrait.proto.AggregateRel.newBuilder().setInput(base)
        .addGroupings(io.sparksubstrait.proto.AggregateRel.Grouping.newBuilder().addGroupingExpressions(field(3)))
        .addMeasures(b.measure(count, Seq(field(0))))).build()
    assertSameRows(run(b.plan(legacy, "g", "c")), spark.sql("SELECT grp, count(id) FROM people GROUP BY grp"))
    val both = aggregate(base, Seq(field(3)), Seq(b.measure(count, Seq(field(0))))).toBuilder
    both.getAggregateBuilder.getGroupingsBuilder(0).addGroupingExpressions(field(1))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.aggregate.groupings[0]") {
      run(b.plan(both.build(), "g", "c"))
    }
  }

  test("aggregate: several grouping sets, shared columns, NULL for absent columns, the grouping-set index") {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:any")
    val sets = io.sparksubstrait.proto.AggregateRel.newBuilder().setInput(readNamed(people, "people"))
      .addGroupingExpressions(field(3)).addGroupingExpressions(field(1))
      .addGroupings(io.sparksubstrait.proto.AggregateRel.Grouping.newBuilder().addExpressionReferences(0))
      .addGroupings(io.sparksubstrait.proto.AggregateRel.Grouping.newBuilder().addExpressionReferences(
          0).addExpressionReferences(1))
      .addGroupings(io.sparksubstrait.proto.AggregateRel.Grouping.newBuilder())
      .addMeasures(b.measure(count, Seq(field(0))))
    val rel = io.sparksubstrait.proto.Rel.newBuilder().setAggregate(sets).build()
    val df = run(b.plan(rel, "grp", "name", "c", "set"))
    assert(df.schema.map(_.dataType.simpleString) == Seq("string", "string", "bigint", "int"))
    assertSameRows(df,
      spark.sql("""SELECT grp, name, count(id),
      CASE grouping_id() WHEN 1 THEN 0 WHEN 0 THEN 1 WHEN 3 THEN 2 END
      FROM people GROUP BY GROUPING SETS ((grp), (grp, name), ())"""))
    // All sets as SQL's GROUPING SETS: one scan feeding one Expand, beside the empty set's one sentinel row.
    val optimized = df.queryExecution.optimizedPlan
    assert(optimized.collect { case e: org.apache.spark.sql.catalyst.plans.logical.Expand => e }.size == 1, optimized)
    assert(optimized.collectLeaves().size == 2, optimized)
    assert(
      optimized.collectLeaves().count(_.isInstanceOf[org.apache.spark.sql.catalyst.plans.logical.LocalRelation]) == 1,
      optimized)
  }

  test(
    "aggregate: grouping sets in another order, a repeated set, a measure on a grouping column, DISTINCT, empty input") {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:any")
    // Output: the grouping expressions in order of first appearance in the sets, the measure, the set index.
    def agg(table: String, sets: Seq[Seq[Int]], names: Seq[String], distinct: Boolean = false) = {
      val a = io.sparksubstrait.proto.AggregateRel.newBuilder().setInput(readNamed(people, table))
        .addGroupingExpressions(field(3)).addGroupingExpressions(field(1))
        // count(grp) counts the input's values even in the sets without grp.
        .addMeasures(b.measure(count, Seq(field(3)), distinct = distinct))
      sets.foreach(set => a.addGroupings(groupingOf(set: _*)))
      run(b.plan(io.sparksubstrait.proto.Rel.newBuilder().setAggregate(a).build(), names: _*))
    }
    // (name), (grp): output (name, grp, c, set).
    assertSameRows(agg("people", Seq(Seq(1), Seq(0)), Seq("name", "grp", "c", "set")),
      spark.sql("""SELECT name, grp, count(grp),
      CASE grouping_id(name, grp) WHEN 1 THEN 0 WHEN 2 THEN 1 END FROM people GROUP BY GROUPING SETS ((name), (grp))"""))
    assertSameRows(agg("people", Seq(Seq(1), Seq(0)), Seq("name", "grp", "c", "set"), distinct = true),
      spark.sql("""
      SELECT name, grp, count(DISTINCT grp), CASE grouping_id(name, grp) WHEN 1 THEN 0 WHEN 2 THEN 1 END
      FROM people GROUP BY GROUPING SETS ((name), (grp))"""))
    // A repeated set gives its rows twice, told apart by the index.
    assertSameRows(agg("people", Seq(Seq(0), Seq(1, 0), Seq(0)), Seq("grp", "name", "c", "set")),
      spark.sql("""
      SELECT grp, NULL, count(grp), 0 FROM people GROUP BY grp UNION ALL
      SELECT grp, name, count(grp), 1 FROM people GROUP BY grp, name UNION ALL
      SELECT grp, NULL, count(grp), 2 FROM people GROUP BY grp"""))
    // No input rows: the empty grouping set still gives its one row, the others none. (Each grouping
    // expression is used by some set: one no set uses is refused, SpecRequirementsSuite.)
    assertRows(agg("empty_people", Seq(Seq(0), Seq(), Seq(1)), Seq("grp", "name", "c", "set")),
      Seq(Row(null, null, 0L, 1)))
  }

  test("aggregate: grouping sets with the empty set read the input once; NULL keys, FILTER, DISTINCT, empty input") {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:any")
    val countRows = b.fn("functions_aggregate_generic", "count:")
    val sum = b.fn("functions_arithmetic", "sum:fp64")
    val gt = b.fn("functions_comparison", "gt:fp64_fp64")
    // CUBE(grp, name): (grp, name), (grp), (name), (); grp and name both have NULL keys of real rows,
    // which the sentinel row's NULL keys must not disturb.
    def cube(table: String) = {
      val a = io.sparksubstrait.proto.AggregateRel.newBuilder().setInput(readNamed(people, table))
        .addGroupingExpressions(field(3)).addGroupingExpressions(field(1))
        .addMeasures(b.measure(count, Seq(field(0))))
        .addMeasures(b.measure(sum, Seq(field(2)), filter = Some(b.call(gt, field(2), litFp64(0.0)))))
        .addMeasures(b.measure(count, Seq(field(3)), distinct = true))
        .addMeasures(b.measure(countRows, Nil)) // count(*): the one measure the sentinel row would change
      Seq(Seq(0, 1), Seq(0), Seq(1), Seq()).foreach(set => a.addGroupings(groupingOf(set: _*)))
      run(b.plan(io.sparksubstrait.proto.Rel.newBuilder().setAggregate(a).build(), "grp", "name", "n", "s", "d", "rows",
          "set"))
    }
    val df = cube("people")
    val sql = spark.sql("""SELECT grp, name, count(id), sum(score) FILTER (WHERE score > 0), count(DISTINCT grp),
      count(*), CASE grouping_id(grp, name) WHEN 0 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE 3 END
      FROM people GROUP BY CUBE (grp, name)""")
    assertSameRows(df, sql)
    // As many Expands as the SQL's (the sets', and DISTINCT's own), over one read of the input.
    def expands(d: org.apache.spark.sql.DataFrame) =
      d.queryExecution.optimizedPlan.collect { case e: org.apache.spark.sql.catalyst.plans.logical.Expand => e }.size
    val optimized = df.queryExecution.optimizedPlan
    assert(expands(df) == expands(sql), optimized)
    assert(optimized.collectLeaves().size == 2, optimized) // the input, once, and the sentinel row
    // No input rows: the empty set's one row, each aggregate over no rows; Spark's CUBE gives none.
    assertRows(cube("empty_people"), Seq(Row(null, null, 0L, null, 0L, 0L, 3)))
    // A NULL-keyed group made of real rows only, next to the empty set: (name) keeps its NULL group.
    assertRows(cube("people").where("set = 2 AND name IS NULL"), Seq(Row(null, null, 2L, 2.0, 1L, 2L, 2)))
    // Only count(*) and the real-row count skip the sentinel by a FILTER; the other measures skip its NULLs.
    val filtered = df.queryExecution.analyzed.collectFirst {
      case a: org.apache.spark.sql.catalyst.plans.logical.Aggregate => a
    }.get
      .aggregateExpressions.flatMap(_.collect {
        case e: AggregateExpression
            if e.filter.exists(_.references.exists(
                _.name == "real_row")) => e
      })
    assert(filtered.size == 2, filtered)
  }

  test(
    "aggregate: grouping sets that all group by one constant (as our writer writes ROLLUP) are Spark's, no sentinel") {
    val b = new PlanBuilder()
    val count = b.fn("functions_aggregate_generic", "count:any")
    val countRows = b.fn("functions_aggregate_generic", "count:")
    // (0, grp, name), (0, grp), (0): ROLLUP (grp, name), each set also grouped by the constant 0,
    // so the last set is no empty set: no row over no rows, as Spark SQL's ROLLUP.
    def rollup(table: String) = {
      val a = io.sparksubstrait.proto.AggregateRel.newBuilder().setInput(readNamed(people, table))
        .addGroupingExpressions(litI32(0)).addGroupingExpressions(field(3)).addGroupingExpressions(field(1))
        .addMeasures(b.measure(count, Seq(field(0)))).addMeasures(b.measure(countRows, Nil))
      Seq(Seq(0, 1, 2), Seq(0, 1), Seq(0)).foreach(set => a.addGroupings(groupingOf(set: _*)))
      run(b.plan(io.sparksubstrait.proto.Rel.newBuilder().setAggregate(a).build(), "zero", "grp", "name", "n", "rows",
          "set"))
    }
    val df = rollup("people")
    assertSameRows(df,
      spark.sql("""SELECT 0, grp, name, count(id), count(*),
      CASE grouping_id(grp, name) WHEN 0 THEN 0 WHEN 1 THEN 1 ELSE 2 END FROM people GROUP BY ROLLUP (grp, name)"""))
    val optimized = df.queryExecution.optimizedPlan
    assert(optimized.collectLeaves().size == 1, optimized) // no sentinel row
    val keys = optimized.collectFirst { case a: org.apache.spark.sql.catalyst.plans.logical.Aggregate => a }.get
      .groupingExpressions
    assert(keys.size == 3, keys) // grp, name and Spark's grouping id: the constant is no key
    assertRows(rollup("empty_people"), Nil)
  }

  test("root names: top-level and nested struct fields depth first; a wrong count is an error") {
    val b = new PlanBuilder()
    val s = schema("a" -> i32(), "s" -> struct(i32(), string()), "x" -> i32(), "y" -> string())
    val rows = Seq(Seq(litI32(1),
        io.sparksubstrait.proto.Expression.newBuilder().setLiteral(
          io.sparksubstrait.proto.Expression.Literal.newBuilder().setStruct(
            io.sparksubstrait.proto.Expression.Literal.Struct.newBuilder()
              .addFields(litI32(2).getLiteral).addFields(litString("z").getLiteral))).build()))
    val nested = schema("a" -> i32(), "s" -> struct(i32(), string())).toBuilder.clearNames()
      .addAllNames(java.util.Arrays.asList("a", "s", "s1", "s2")).build()
    val vt = readVirtual(nested, rows)
    val df = run(b.plan(vt, "first", "inner", "x", "y"))
    assert(df.schema.simpleString == "struct<first:int,inner:struct<x:int,y:string>>")
    assertRows(df.selectExpr("first", "inner.x", "inner.y"), Seq(Row(1, 2, "z")))
    assertPlanError("SUBSTRAIT_ROOT_NAMES_MISMATCH", "relations[0].root.names") { run(b.plan(vt, "first", "inner")) }
    assert(s.getNamesCount == 4)
  }
}
