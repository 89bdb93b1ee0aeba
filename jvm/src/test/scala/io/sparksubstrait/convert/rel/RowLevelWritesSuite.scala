package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{Expression, NamedObjectWrite, NamedStruct, NamedTable, Rel, UpdateRel, WriteRel}
import io.sparksubstrait.proto.WriteRel.{OutputMode, WriteOp}
import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.expressions.Exists
import org.apache.spark.sql.catalyst.plans.logical.DeleteFromTable
import org.apache.spark.sql.types.{IntegerType, StringType, StructType}

import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{PlanBuilder, RowLevelTestCatalog, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * WriteRel DELETE and UpdateRel on tables whose format deletes and updates rows (a test DSv2
 * catalog with row-level operations, [[RowLevelTestCatalog]]), with the rows afterwards
 * checked against hand-worked answers and against the same SQL DELETE / UPDATE run on a copy;
 * and the errors: Spark's v1 file tables, allowWrites off, below the root, malformed plans.
 */
class RowLevelWritesSuite extends SparkSuite with SubstraitAssertions {
  private val people = schema("id" -> i32(), "name" -> string())
  private val sparkPeople = new StructType().add("id", IntegerType).add("name", StringType)
  // Duplicates, a NULL id and NULL names.
  private val start = Seq(Row(1, "a"), Row(2, null), Row(2, null), Row(3, "c"), Row(null, "d"), Row(4, null))

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.conf.set("spark.sql.catalog.rl", classOf[RowLevelTestCatalog].getName)
  }

  private def define(table: String, rows: Seq[Row] = start): Unit =
    RowLevelTestCatalog.define(s"ns.$table", sparkPeople, rows)
  private def named(table: String) = NamedObjectWrite.newBuilder().addNames("rl").addNames("ns").addNames(table)
  private def delete(table: String, input: Rel, tableSchema: Option[NamedStruct] = None,
    output: OutputMode = OutputMode.OUTPUT_MODE_NO_OUTPUT, names: Option[NamedObjectWrite.Builder] = None): Rel = {
    val w = WriteRel.newBuilder().setNamedTable(names.getOrElse(named(table))).setOp(WriteOp.WRITE_OP_DELETE).setInput(
      input).setOutput(output)
    tableSchema.foreach(w.setTableSchema)
    Rel.newBuilder().setWrite(w).build()
  }
  private def update(names: Seq[String], condition: Option[Expression], sets: (Int, Expression)*): Rel = {
    val u =
      UpdateRel.newBuilder().setNamedTable(NamedTable.newBuilder().addAllNames(java.util.Arrays.asList(names: _*)))
        .setTableSchema(people)
    condition.foreach(u.setCondition)
    sets.foreach { case (c, e) =>
      u.addTransformations(UpdateRel.TransformExpression.newBuilder().setColumnTarget(c).setTransformation(e))
    }
    Rel.newBuilder().setUpdate(u).build()
  }
  private def exec(b: PlanBuilder, root: Rel): Unit = run(b.plan(root)).collect()
  private def allowed[T](body: => T): T = withConf("spark.substrait.allowWrites", "true")(body)
  private def rows(table: String) = spark.table(s"rl.ns.$table")

  test(
    "WriteRel DELETE removes every table row equal to an input record, NULL matching NULL; duplicates; an empty input") {
    allowed {
      define("d1")
      val b = new PlanBuilder()
      // (2, NULL) twice in the input and in the table; (NULL, d); (9, z) is in no row.
      val records = Seq(Seq(litI32(2), litNull(string())), Seq(litI32(2), litNull(string())),
        Seq(litNull(i32()), litString("d")), Seq(litI32(9), litString("z")))
      exec(b, delete("d1", readVirtual(people, records)))
      assertRows(rows("d1"), Seq(Row(1, "a"), Row(3, "c"), Row(4, null)))
      // (4, 'x') is not (4, NULL): nothing goes.
      exec(b, delete("d1", readVirtual(people, Seq(Seq(litI32(4), litString("x"))))))
      // An empty input deletes nothing.
      exec(b, delete("d1", filter(readVirtual(people, records), litBool(false))))
      assertRows(rows("d1"), Seq(Row(1, "a"), Row(3, "c"), Row(4, null)))
      // table_schema names the columns in another order: the input follows it.
      exec(b,
        delete("d1", readVirtual(schema("name" -> string(), "id" -> i32()), Seq(Seq(litString("a"), litI32(1)))),
          Some(schema("name" -> string(), "id" -> i32()))))
      assertRows(rows("d1"), Seq(Row(3, "c"), Row(4, null)))
    }
  }

  test("WriteRel DELETE whose input reads the table (DELETE FROM t WHERE id > 1) leaves what SQL's DELETE leaves") {
    allowed {
      define("d2")
      define("d2_sql")
      val b = new PlanBuilder()
      val gt = b.fn("functions_comparison", "gt:i32_i32")
      exec(b, delete("d2", filter(readNamed(people, "rl", "ns", "d2"), b.call(gt, field(0), litI32(1)))))
      spark.sql("DELETE FROM rl.ns.d2_sql WHERE id > 1")
      assertSameRows(rows("d2"), rows("d2_sql"))
      assertRows(rows("d2"), Seq(Row(1, "a"), Row(null, "d")))
    }
  }

  /** The DELETE command the plan converts to, not run: its condition says which form was chosen. */
  private def deleteCondition(b: PlanBuilder, root: Rel) =
    ReadPipeline.read(spark, PlanDecoder.fromBytes(b.plan(root).toByteArray, PlanLimits.active)) match {
      case d: DeleteFromTable => d.condition
      case other => fail(s"not a DELETE: ${other.treeString}")
    }
  private def isExistsForm(b: PlanBuilder, root: Rel) = deleteCondition(b, root).exists(_.isInstanceOf[Exists])

  /** The ReadRel `rel` with its own `filter`. */
  private def withReadFilter(rel: Rel, condition: Expression): Rel =
    rel.toBuilder.setRead(rel.getRead.toBuilder.setFilter(condition)).build()

  test("WriteRel DELETE of the table's own rows meeting filters is SQL's DELETE FROM t WHERE c (no subquery)") {
    allowed {
      val b = new PlanBuilder()
      val gt = b.fn("functions_comparison", "gt:i32_i32")
      val isNull = b.fn("functions_comparison", "is_null:any")
      val notEq = b.fn("functions_comparison", "not_equal:any_any")
      val read = readNamed(people, "rl", "ns", "f1")
      // The read's own filter, then two FilterRels: id > 1 AND name IS NULL AND id <> 4
      // (NULL for the NULL id: that row stays). Both copies of (2, NULL) go.
      val shapes = Seq(
        "id > 1 AND name IS NULL AND id <> 4" -> filter(filter(withReadFilter(read, b.call(gt, field(0), litI32(1))),
            b.call(isNull, field(1))), b.call(notEq, field(0), litI32(4))),
        "id <> 3" -> filter(read, b.call(notEq, field(0), litI32(3))),
        "false" -> filter(read, litBool(false)),
        "true" -> read)
      for (((where, input), i) <- shapes.zipWithIndex; rows0 <- Seq(start, Nil)) {
        define("f1", rows0)
        define("f1_sql", rows0)
        val root = delete("f1", input)
        assert(!isExistsForm(b, root), s"$where: ${deleteCondition(b, root)}")
        exec(b, root)
        spark.sql(s"DELETE FROM rl.ns.f1_sql WHERE $where")
        assertSameRows(rows("f1"), rows("f1_sql"))
        if (i == 0 && rows0.nonEmpty) // worked by hand as well
          assertRows(rows("f1"), Seq(Row(1, "a"), Row(3, "c"), Row(null, "d"), Row(4, null)))
      }
      // table_schema lists the columns in another order: the read's base_schema in that order
      // is the same form.
      define("f1", start)
      define("f1_sql", start)
      val swapped = schema("name" -> string(), "id" -> i32())
      val root = delete("f1", filter(readNamed(swapped, "rl", "ns", "f1"), b.call(gt, field(1), litI32(2))),
        Some(swapped))
      assert(!isExistsForm(b, root))
      exec(b, root)
      spark.sql("DELETE FROM rl.ns.f1_sql WHERE id > 2")
      assertSameRows(rows("f1"), rows("f1_sql"))
    }
  }

  test("WriteRel DELETE keeps the EXISTS form for a non-deterministic condition and for every other input shape") {
    allowed {
      define("f2")
      define("f2_other")
      val b = new PlanBuilder()
      val gt = b.fn("functions_comparison", "gt:i32_i32")
      val urn = "extension:org.example:row_level"
      // rand() makes the condition non-deterministic: rows equal on every column could differ.
      // It keeps the EXISTS form, which Spark then refuses (as it refuses SQL's DELETE … WHERE
      // rand() …): nothing is deleted.
      SubstraitPlans.registerSqlFunction(spark, urn, "noisy_gt", "$1 + rand() > $2")
      val read = readNamed(people, "rl", "ns", "f2")
      try {
        val noisy = b.call(b.fn(urn, "noisy_gt:i32_i32"), field(0), litI32(1))
        val e = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.write")(exec(b,
            delete("f2", filter(read, noisy))))
        assert(e.getMessage.contains("exists("), e.getMessage)
      } finally SubstraitPlans.unregisterFunction(spark, urn, "noisy_gt")
      assertRows(rows("f2"), start)
      val otherRows = filter(readNamed(people, "rl", "ns", "f2_other"), b.call(gt, field(0), litI32(1)))
      val others = Seq(
        "a read of another table" -> otherRows,
        "a read whose columns are in another order" ->
          emit(project(filter(readNamed(schema("name" -> string(), "id" -> i32()), "rl", "ns", "f2"),
                b.call(gt, field(1), litI32(1))), field(1), field(0)), 2, 3),
        "an emit on the filter" -> emit(filter(read, b.call(gt, field(0), litI32(1))), 0, 1),
        "records of a virtual table" -> readVirtual(people, Seq(Seq(litI32(1), litString("a")))))
      others.foreach { case (what, input) => assert(isExistsForm(b, delete("f2", input)), what) }
      // The EXISTS form over another table's rows deletes what SQL's EXISTS deletes.
      define("f2_sql")
      RowLevelTestCatalog.define("ns.f2_other", sparkPeople, Seq(Row(2, null), Row(null, "d"), Row(3, "x")))
      exec(b, delete("f2", otherRows))
      spark.sql("""DELETE FROM rl.ns.f2_sql t WHERE EXISTS (SELECT 1 FROM rl.ns.f2_other o
        WHERE o.id > 1 AND o.id <=> t.id AND o.name <=> t.name)""")
      assertSameRows(rows("f2"), rows("f2_sql"))
      assertRows(rows("f2"), Seq(Row(1, "a"), Row(3, "c"), Row(null, "d"), Row(4, null)))
    }
  }

  test("UpdateRel sets the target columns of the rows meeting the condition, from the rows before the update") {
    allowed {
      define("u1")
      define("u1_sql")
      val b = new PlanBuilder()
      val eq = b.fn("functions_comparison", "equal:any_any")
      val add = b.fn("functions_arithmetic", "add:i32_i32")
      // id = 2 is NULL for the NULL id: that row stays. Both columns are set from the old row.
      exec(b,
        update(Seq("rl", "ns", "u1"), Some(b.call(eq, field(0), litI32(2))), 1 -> litString("two"),
          0 -> b.call(add, field(0), litI32(10))))
      spark.sql("UPDATE rl.ns.u1_sql SET name = 'two', id = id + 10 WHERE id = 2")
      assertSameRows(rows("u1"), rows("u1_sql"))
      assertRows(rows("u1"),
        Seq(Row(1, "a"), Row(12, "two"), Row(12, "two"), Row(3, "c"), Row(null, "d"), Row(4, null)))
      // A condition true nowhere changes nothing; NULL assigned to a nullable column.
      exec(b, update(Seq("rl", "ns", "u1"), Some(litBool(false)), 1 -> litString("never")))
      exec(b, update(Seq("rl", "ns", "u1"), Some(b.call(eq, field(1), litString("c"))), 1 -> litNull(string())))
      assertRows(rows("u1"),
        Seq(Row(1, "a"), Row(12, "two"), Row(12, "two"), Row(3, null), Row(null, "d"), Row(4, null)))
    }
  }

  test("UPDATE of every row (condition true) and of an empty table") {
    allowed {
      define("u2")
      define("u3", Nil)
      val b = new PlanBuilder()
      exec(b, update(Seq("rl", "ns", "u2"), Some(litBool(true)), 1 -> litString("z")))
      assertRows(rows("u2"), start.map(r => Row(r.get(0), "z")))
      exec(b, update(Seq("rl", "ns", "u3"), Some(litBool(true)), 1 -> litString("z")))
      assertRows(rows("u3"), Nil)
    }
  }

  test(
    "row-level writes are refused on tables whose format cannot do them, without allowWrites, below the root and when malformed") {
    val b = new PlanBuilder()
    define("e1")
    val records = readVirtual(people, Seq(Seq(litI32(1), litString("a"))))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.write")(exec(b, delete("e1", records)))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.update") {
      exec(b, update(Seq("rl", "ns", "e1"), Some(litBool(true)), 1 -> litString("z")))
    }
    allowed {
      spark.sql("DROP TABLE IF EXISTS rl_v1")
      spark.sql("CREATE TABLE rl_v1 (id INT, name STRING) USING parquet")
      spark.sql("INSERT INTO rl_v1 VALUES (1, 'a'), (2, NULL)")
      val v1 = Some(NamedObjectWrite.newBuilder().addNames("rl_v1"))
      val e = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.write")(exec(b,
          delete("rl_v1", records, names = v1)))
      assert(e.getMessage.contains("row-level DELETE"), e.getMessage)
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.update") {
        exec(b, update(Seq("rl_v1"), Some(litBool(true)), 1 -> litString("z")))
      }
      assertRows(spark.table("rl_v1"), Seq(Row(1, "a"), Row(2, null)))
      spark.sql("DROP TABLE rl_v1")

      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.filter.input.update") {
        exec(b, filter(update(Seq("rl", "ns", "e1"), Some(litBool(true)), 1 -> litString("z")), litBool(true)))
      }
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.write.output") {
        exec(b, delete("e1", records, output = OutputMode.OUTPUT_MODE_MODIFIED_RECORDS))
      }
      assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.write.input") {
        exec(b, delete("e1", readVirtual(schema("id" -> i32()), Seq(Seq(litI32(1))))))
      }
      assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.write.input") {
        exec(b,
          delete("e1",
            readVirtual(schema("id" -> string(), "name" -> string()), Seq(Seq(litString("1"), litString("a"))))))
      }
      assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.write.table_schema") {
        exec(b, delete("e1", readVirtual(schema("id" -> i32()), Seq(Seq(litI32(1)))), Some(schema("id" -> i32()))))
      }
      assertPlanError("SUBSTRAIT_TABLE_NOT_FOUND", "relations[0].root.input.update.named_table.names") {
        exec(b, update(Seq("rl", "ns", "missing"), Some(litBool(true)), 1 -> litString("z")))
      }
      assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.update")(exec(b,
          update(Seq("rl", "ns", "e1"), None, 1 -> litString("z"))))
      assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.update")(exec(b,
          update(Seq("rl", "ns", "e1"), Some(litBool(true)))))
      assertPlanError("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
        "relations[0].root.input.update.transformations[0].column_target") {
        exec(b, update(Seq("rl", "ns", "e1"), Some(litBool(true)), 2 -> litString("z")))
      }
      assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.update.transformations[0].transformation") {
        exec(b, update(Seq("rl", "ns", "e1"), Some(litBool(true)), 0 -> litString("z")))
      }
      assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.update.transformations") {
        exec(b, update(Seq("rl", "ns", "e1"), Some(litBool(true)), 1 -> litString("y"), 1 -> litString("z")))
      }
      // WriteRel UPDATE: its records do not say which rows they replace.
      val w = WriteRel.newBuilder().setNamedTable(named("e1")).setOp(WriteOp.WRITE_OP_UPDATE).setInput(records)
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.write.op")(exec(b,
          Rel.newBuilder().setWrite(w).build()))
    }
    assertRows(rows("e1"), start)
  }
}
