package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{DdlRel, Expression, NamedObjectWrite, NamedStruct, Rel}
import io.sparksubstrait.proto.DdlRel.{DdlObject, DdlOp}
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * DdlRel's column defaults and views: tables created with `table_defaults` behave as the same
 * table created with DEFAULT clauses in Spark SQL; CREATE [OR REPLACE] VIEW makes a temporary
 * view of the converted `view_definition`, whose rows are the plan's; persistent views are refused.
 */
class DdlSuite extends SparkSuite with SubstraitAssertions {
  private def ddl(obj: DdlObject, op: DdlOp, names: Seq[String], tableSchema: Option[NamedStruct] = None,
    defaults: Seq[Expression] = Nil, view: Option[Rel] = None): Rel = {
    val d =
      DdlRel.newBuilder().setNamedObject(NamedObjectWrite.newBuilder().addAllNames(java.util.Arrays.asList(names: _*)))
        .setObject(obj).setOp(op)
    tableSchema.foreach(d.setTableSchema)
    if (defaults.nonEmpty) d.setTableDefaults(Expression.Literal.Struct.newBuilder().addAllFields(
        java.util.Arrays.asList(defaults.map(_.getLiteral): _*)))
    view.foreach(d.setViewDefinition)
    Rel.newBuilder().setDdl(d).build()
  }
  private def exec(root: Rel): Unit = run(new PlanBuilder().plan(root)).collect()
  private def allowed[T](body: => T): T = withConf("spark.substrait.allowWrites", "true")(body)

  private val columns = schema("id" -> i32(nullable = false), "name" -> string(), "amount" -> decimal(10, 2),
    "day" -> date(), "flag" -> bool())
  // 'it''s' (a quote to escape), 12.50, 2024-01-31 (day 19753); a NULL default is no default.
  private val defaults =
    Seq(litNull(i32()), litString("it's"), litDecimal(new java.math.BigDecimal("12.50"), 10, 2), litDate(19753),
      litNull(bool()))
  private val inserts = Seq("INSERT INTO %s (id) VALUES (1), (1)",
    "INSERT INTO %s VALUES (2, NULL, DEFAULT, NULL, true)",
    "INSERT INTO %s (id, flag) VALUES (3, NULL)", "INSERT INTO %s (id, name) VALUES (4, DEFAULT)")

  test(
    "CREATE TABLE with table_defaults: omitted and DEFAULT values as a Spark SQL table with the same DEFAULT clauses") {
    allowed {
      spark.sql("DROP TABLE IF EXISTS d_sub")
      spark.sql("DROP TABLE IF EXISTS d_sql")
      exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_CREATE, Seq("d_sub"), Some(columns), defaults))
      spark.sql(
        "CREATE TABLE d_sql (id INT NOT NULL, name STRING DEFAULT 'it\\'s', amount DECIMAL(10,2) DEFAULT 12.50, " +
          "day DATE DEFAULT DATE'2024-01-31', flag BOOLEAN) USING parquet")
      // The same columns with the same defaults as Spark resolved them (CURRENT_DEFAULT keeps each one's source text).
      def columnsOf(t: String) = spark.table(t).schema.map(f =>
        (f.name, f.dataType, f.nullable,
          if (f.metadata.contains("EXISTS_DEFAULT")) f.metadata.getString("EXISTS_DEFAULT") else ""))
      assert(columnsOf("d_sub") == columnsOf("d_sql"), spark.table("d_sub").schema.json)
      assertRows(spark.table("d_sub"), Nil)
      for (table <- Seq("d_sub", "d_sql"); insert <- inserts) spark.sql(insert.format(table))
      assertSameRows(spark.table("d_sub"), spark.table("d_sql"))
      // Worked by hand too: the duplicates of row 1 and the defaults where a value was omitted.
      val day = java.sql.Date.valueOf("2024-01-31")
      val amount = new java.math.BigDecimal("12.50")
      assertRows(spark.table("d_sub"),
        Seq(Row(1, "it's", amount, day, null), Row(1, "it's", amount, day, null),
          Row(2, null, amount, null, true), Row(3, "it's", amount, day, null), Row(4, "it's", amount, day, null)))
      spark.sql("DROP TABLE d_sub")
      spark.sql("DROP TABLE d_sql")
    }
  }

  test("table_defaults of another type or count, and defaults where no table is created, are errors") {
    allowed {
      assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.ddl.table_defaults.fields[1]") {
        exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_CREATE, Seq("d_bad"), Some(columns),
            defaults.updated(1, litI32(5))))
      }
      assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.ddl.table_defaults.fields") {
        exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_CREATE, Seq("d_bad"), Some(columns), defaults.take(2)))
      }
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.ddl.table_defaults") {
        exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_DROP, Seq("d_bad"), None, defaults))
      }
      assert(!spark.catalog.tableExists("d_bad"))
    }
  }

  private val kv = schema("k" -> i32(), "v" -> string())
  private val kvRows =
    Seq(Seq(litI32(1), litString("a")), Seq(litI32(2), litNull(string())), Seq(litI32(2), litNull(string())),
      Seq(litNull(i32()), litString("n")))

  test("CREATE VIEW and CREATE OR REPLACE VIEW: a temporary view of the converted plan, named by table_schema") {
    allowed {
      spark.sql("DROP VIEW IF EXISTS d_view")
      val b = new PlanBuilder()
      val positive =
        filter(readVirtual(kv, kvRows), b.call(b.fn("functions_comparison", "gt:i32_i32"), field(0), litI32(1)))
      val named = schema("key" -> i32(), "label" -> string())
      run(b.plan(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_CREATE, Seq("d_view"), Some(named),
            view = Some(positive)))).collect()
      assert(spark.table("d_view").columns.toSeq == Seq("key", "label"))
      assertRows(spark.table("d_view"), Seq(Row(2, null), Row(2, null)))
      assertSameRows(spark.sql("SELECT count(*), count(label) FROM d_view"), spark.sql("SELECT 2L, 0L"))
      // CREATE of an existing view fails as Spark's does; CREATE OR REPLACE replaces it (here with an empty relation).
      val exists = intercept[org.apache.spark.sql.AnalysisException] {
        exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_CREATE, Seq("d_view"), Some(named),
            view = Some(readVirtual(kv, kvRows))))
      }
      assert(exists.getMessage.contains("ALREADY_EXISTS"), exists.getMessage)
      exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_CREATE_OR_REPLACE, Seq("d_view"), Some(named),
          view = Some(readVirtual(kv, Nil))))
      assertRows(spark.table("d_view"), Nil)
      exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_CREATE_OR_REPLACE, Seq("d_view"), Some(named),
          view = Some(readVirtual(kv, kvRows))))
      assertRows(spark.table("d_view"), Seq(Row(1, "a"), Row(2, null), Row(2, null), Row(null, "n")))
      exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_DROP, Seq("d_view")))
      assert(!spark.catalog.tableExists("d_view"))
      // global_temp.<name>: a global temporary view.
      run(b.plan(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_CREATE_OR_REPLACE, Seq("global_temp", "d_global"),
            Some(named),
            view = Some(positive)))).collect()
      assertRows(spark.table("global_temp.d_global"), Seq(Row(2, null), Row(2, null)))
      spark.sql("DROP VIEW global_temp.d_global")
    }
  }

  test("persistent views, views without a definition or names, and a definition on another operation are errors") {
    allowed {
      val rel = Some(readVirtual(kv, kvRows))
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.ddl.named_object.names") {
        exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_CREATE, Seq("default", "d_kept"), Some(kv), view = rel))
      }
      assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.ddl")(exec(ddl(DdlObject.DDL_OBJECT_VIEW,
            DdlOp.DDL_OP_CREATE, Seq("d_v"), Some(kv))))
      assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.ddl")(exec(ddl(DdlObject.DDL_OBJECT_VIEW,
            DdlOp.DDL_OP_CREATE, Seq("d_v"), None, view = rel)))
      assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.ddl.view_definition") {
        exec(ddl(DdlObject.DDL_OBJECT_TABLE, DdlOp.DDL_OP_CREATE, Seq("d_v"), Some(kv), view = rel))
      }
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.ddl.op") {
        exec(ddl(DdlObject.DDL_OBJECT_VIEW, DdlOp.DDL_OP_ALTER, Seq("d_v"), Some(kv), view = None))
      }
      assert(!spark.catalog.tableExists("d_v") && !spark.catalog.tableExists("d_kept"))
    }
  }
}
