package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{DdlRel, NamedObjectWrite, NamedStruct, Rel, WriteRel}
import io.sparksubstrait.proto.DdlRel.{DdlObject, DdlOp}
import io.sparksubstrait.proto.WriteRel.{CreateMode, OutputMode, WriteOp}
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * WriteRel (INSERT, CTAS with every create mode) and DdlRel (tables created, replaced and
 * dropped; views dropped) at a plan's root, with spark.substrait.allowWrites: the catalog and
 * the rows afterwards checked against what SQL statements leave.
 */
class WritesSuite extends SparkSuite with SubstraitAssertions {
  private val people = schema("id" -> i32(), "name" -> string())
  private val rows =
    Seq(Seq(litI32(1), litString("a")), Seq(litI32(2), litNull(string())), Seq(litI32(2), litNull(string())))

  private def named(names: String*) = NamedObjectWrite.newBuilder().addAllNames(java.util.Arrays.asList(names: _*))
  private def write(op: WriteOp, table: String, input: Rel, mode: CreateMode = CreateMode.CREATE_MODE_UNSPECIFIED,
    tableSchema: Option[NamedStruct] = None, output: OutputMode = OutputMode.OUTPUT_MODE_NO_OUTPUT): Rel = {
    val w =
      WriteRel.newBuilder().setNamedTable(named(table)).setOp(op).setInput(input).setCreateMode(mode).setOutput(output)
    tableSchema.foreach(w.setTableSchema)
    Rel.newBuilder().setWrite(w).build()
  }
  private def ddl(obj: DdlObject, op: DdlOp, name: String, tableSchema: Option[NamedStruct] = None): Rel = {
    val d = DdlRel.newBuilder().setNamedObject(named(name)).setObject(obj).setOp(op)
    tableSchema.foreach(d.setTableSchema)
    Rel.newBuilder().setDdl(d).build()
  }
  private def exec(root: Rel): Unit = {
    val b = new PlanBuilder()
    run(b.plan(root)).collect()
  }
  private def allowed[T](body: => T): T = withConf("spark.substrait.allowWrites", "true")(body)
  private def table(name: String): Seq[Row] = spark.table(name).collect().toSeq

  test(
    "DDL and INSERT: create a table from table_schema, insert rows with NULLs and duplicates, an empty insert, drop it") {
    allowed {
      exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_CREATE, "w_people", Some(people)))
      assert(spark.table("w_people").schema.map(f => f.name -> f.dataType.simpleString) ==
        Seq("id" -> "int", "name" -> "string"))
      exec(write(WriteOp.WRITE_OP_INSERT, "w_people", readVirtual(people, rows)))
      exec(write(WriteOp.WRITE_OP_INSERT, "w_people", filter(readVirtual(people, rows), litBool(false))))
      assertRows(spark.table("w_people"), Seq(Row(1, "a"), Row(2, null), Row(2, null)))
      exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_DROP, "w_people"))
      assert(!spark.catalog.tableExists("w_people"))
      exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_DROP_IF_EXIST, "w_people"))
      val missing = intercept[Exception](exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_DROP, "w_people")))
      assert(missing.getMessage.contains("TABLE_OR_VIEW_NOT_FOUND"), missing)
    }
  }

  test(
    "CTAS: the columns of table_schema; ERROR_IF_EXISTS, IGNORE_IF_EXISTS and APPEND_IF_EXISTS when the table exists") {
    allowed {
      spark.sql("DROP TABLE IF EXISTS w_ctas")
      val renamed = schema("key" -> i32(), "label" -> string())
      exec(write(WriteOp.WRITE_OP_CTAS, "w_ctas", readVirtual(people, rows), tableSchema = Some(renamed)))
      assert(spark.table("w_ctas").columns.toSeq == Seq("key", "label"))
      assertRows(spark.table("w_ctas"), Seq(Row(1, "a"), Row(2, null), Row(2, null)))
      val exists = intercept[Exception](exec(write(WriteOp.WRITE_OP_CTAS, "w_ctas", readVirtual(people, rows),
            tableSchema = Some(renamed))))
      assert(exists.getMessage.contains("TABLE_OR_VIEW_ALREADY_EXISTS") ||
          exists.getMessage.contains("TABLE_ALREADY_EXISTS"), exists)
      exec(write(WriteOp.WRITE_OP_CTAS, "w_ctas", readVirtual(people, rows.take(1)),
          CreateMode.CREATE_MODE_IGNORE_IF_EXISTS, Some(renamed)))
      assert(table("w_ctas").size == 3)
      exec(write(WriteOp.WRITE_OP_CTAS, "w_ctas", readVirtual(people, rows.take(1)),
          CreateMode.CREATE_MODE_APPEND_IF_EXISTS, Some(renamed)))
      assertRows(spark.table("w_ctas"), Seq(Row(1, "a"), Row(1, "a"), Row(2, null), Row(2, null)))
      // A type other than table_schema's is the plan's error.
      assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.write.table_schema.names[0]") {
        exec(write(WriteOp.WRITE_OP_CTAS, "w_other", readVirtual(people, rows),
            tableSchema = Some(schema("key" -> string(), "label" -> string()))))
      }
      spark.sql("DROP TABLE w_ctas")
    }
  }

  test("writes are refused without allowWrites, below the root, and where Spark cannot do what the plan asks") {
    val insert = write(WriteOp.WRITE_OP_INSERT, "w_none", readVirtual(people, rows))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.write")(exec(insert))
    allowed {
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.filter.input.write")(exec(filter(insert,
            litBool(true))))
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.write.output") {
        exec(write(WriteOp.WRITE_OP_INSERT, "w_none", readVirtual(people, rows),
            output = OutputMode.OUTPUT_MODE_MODIFIED_RECORDS))
      }
      // WriteRel UPDATE's records do not say which rows they replace (DELETE and UpdateRel: RowLevelWritesSuite).
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.write.op") {
        exec(write(WriteOp.WRITE_OP_UPDATE, "w_none", readVirtual(people, rows)))
      }
      assertPlanError("SUBSTRAIT_TABLE_NOT_FOUND", "relations[0].root.input.write.named_table.names") {
        exec(write(WriteOp.WRITE_OP_DELETE, "w_none", readVirtual(people, rows)))
      }
      // A view needs its definition (CREATE VIEW itself: DdlSuite).
      assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.ddl") {
        exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_CREATE, "w_view"))
      }
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.ddl.op") {
        exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_ALTER, "w_none", Some(people)))
      }
      assert(!spark.catalog.tableExists("w_none"))
    }
  }

  test("DROP VIEW and DROP VIEW IF EXISTS of a view the session has") {
    allowed {
      spark.sql("CREATE OR REPLACE TEMP VIEW w_temp AS SELECT 1 AS x")
      exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_DROP, "w_temp"))
      assert(!spark.catalog.tableExists("w_temp"))
      exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_DROP_IF_EXIST, "w_temp"))
    }
  }
}
