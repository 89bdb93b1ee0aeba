package io.sparksubstrait.testing

import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import io.sparksubstrait.proto.Plan
import org.apache.spark.sql.SparkSession

/**
 * The real producers' plans of tests/fixtures/producers (DuckDB, DataFusion, isthmus, ibis,
 * substrait builders, every release the fixtures hold) and the tables they read
 * (tables.json: NULLs, duplicates, an empty table), for JVM suites such as the fuzzer.
 */
object ProducerFixtures {
  private val folder: Path = Paths.get("tests/fixtures/producers")

  /** Every fixture plan, in path order. */
  def plans(): Seq[Plan] = {
    if (!Files.isDirectory(folder)) return Nil
    val walk = Files.walk(folder)
    try walk.iterator().asScala.filter(p => p.toString.endsWith(".bin")).toSeq.sortBy(_.toString)
        .map(p => Plan.parseFrom(Files.readAllBytes(p)))
    finally walk.close()
  }

  /** Registers tables.json's tables as temporary views of the session. */
  def registerTables(spark: SparkSession): Unit = {
    val file = folder.resolve("tables.json")
    if (!Files.exists(file)) return
    val root = new ObjectMapper().readTree(file.toFile)
    root.properties().asScala.foreach { entry =>
      val columns =
        entry.getValue.get("columns").elements().asScala.toSeq.map(c => (c.get(0).asText, sparkType(c.get(1).asText)))
      val rows = entry.getValue.get("rows").elements().asScala.toSeq
      val select = columns.map { case (name, t) => s"CAST(NULL AS $t) AS $name" }.mkString(", ")
      // One VALUES relation, not a UNION ALL of one-row SELECTs: Spark 4.3 itself fails some
      // queries over such unions at run time (a UnionExec under a broadcast anti join does not
      // deserialize in its task: `SELECT dept_id FROM dept EXCEPT SELECT 10 FROM emp`), which
      // the fuzzer would count against the plan rather than against the fixture's table.
      val body = if (rows.isEmpty) s"SELECT $select WHERE false"
      else {
        val casts = columns.zipWithIndex.map { case ((name, t), i) => s"CAST(c$i AS $t) AS $name" }.mkString(", ")
        val values = rows.map(r => columns.indices.map(i => literal(r.get(i))).mkString("(", ", ", ")")).mkString(", ")
        s"SELECT $casts FROM VALUES $values AS v(${columns.indices.map(i => s"c$i").mkString(", ")})"
      }
      spark.sql(s"CREATE OR REPLACE TEMP VIEW ${entry.getKey} AS $body")
    }
  }

  private def sparkType(duckdb: String): String = if (duckdb == "VARCHAR") "STRING" else duckdb

  private def literal(v: JsonNode): String =
    if (v == null || v.isNull) "NULL"
    else if (v.isTextual) "'" + v.asText.replace("'", "''") + "'"
    else v.asText
}
