package io.sparksubstrait.testing

import java.nio.charset.StandardCharsets

import org.apache.spark.sql.SparkSession

/**
 * The eight TPC-H tables with the column types DuckDB's `dbgen` writes (so the same
 * declarations fit the bench's parquet files), and the 22 TPC-H queries
 * (test resources tpch/qNN.sql, the text DuckDB's tpch extension ships).
 */
object TpchSchema {

  /** (table, columns as name and SQL type), all columns NOT NULL as dbgen declares them. */
  val Tables: Seq[(String, Seq[(String, String)])] = {
    def cols(spec: String): Seq[(String, String)] =
      spec.split(",\\s*(?=[a-z])").toSeq.map(_.trim.split(" ", 2)).map(a => a(0) -> a(1))
    val money = "DECIMAL(15,2)"
    Seq(
      "part" -> cols(s"p_partkey BIGINT, p_name VARCHAR, p_mfgr VARCHAR, p_brand VARCHAR, p_type VARCHAR, " +
        s"p_size INTEGER, p_container VARCHAR, p_retailprice $money, p_comment VARCHAR"),
      "supplier" -> cols(s"s_suppkey BIGINT, s_name VARCHAR, s_address VARCHAR, s_nationkey INTEGER, " +
        s"s_phone VARCHAR, s_acctbal $money, s_comment VARCHAR"),
      "partsupp" ->
        cols(s"ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty BIGINT, ps_supplycost $money, ps_comment VARCHAR"),
      "customer" -> cols(s"c_custkey BIGINT, c_name VARCHAR, c_address VARCHAR, c_nationkey INTEGER, " +
        s"c_phone VARCHAR, c_acctbal $money, c_mktsegment VARCHAR, c_comment VARCHAR"),
      "orders" -> cols(s"o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus VARCHAR, o_totalprice $money, " +
        "o_orderdate DATE, o_orderpriority VARCHAR, o_clerk VARCHAR, o_shippriority INTEGER, o_comment VARCHAR"),
      "lineitem" -> cols(s"l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber BIGINT, " +
        s"l_quantity $money, l_extendedprice $money, l_discount $money, l_tax $money, l_returnflag VARCHAR, " +
        "l_linestatus VARCHAR, l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR, " +
        "l_shipmode VARCHAR, l_comment VARCHAR"),
      "nation" -> cols("n_nationkey INTEGER, n_name VARCHAR, n_regionkey INTEGER, n_comment VARCHAR"),
      "region" -> cols("r_regionkey INTEGER, r_name VARCHAR, r_comment VARCHAR"))
  }

  /** CREATE TABLE statements for isthmus (Calcite). */
  val IsthmusDdl: Seq[String] = Tables.map { case (t, cs) =>
    s"CREATE TABLE ${t.toUpperCase} (${cs.map { case (n, ty) => s"${n.toUpperCase} $ty NOT NULL" }.mkString(", ")})"
  }

  /** The Spark schema of a table, as a DDL column list. */
  def sparkColumns(table: String): String =
    Tables.find(_._1 == table).get._2.map { case (n, ty) => s"$n ${if (ty == "VARCHAR") "STRING" else ty}" }.mkString(
      ", ")

  val QueryNumbers: Seq[Int] = 1 to 22

  /** Query `n`'s text without its final semicolon (isthmus and spark.sql take one statement). */
  def query(n: Int): String = {
    val in = getClass.getResourceAsStream(f"/tpch/q$n%02d.sql")
    try new String(in.readAllBytes(), StandardCharsets.UTF_8).trim.stripSuffix(";")
    finally in.close()
  }

  /**
   * A query's text as Calcite (isthmus) accepts it; the same query: Calcite reserves VALUE
   * (Q11's alias) and groups by no select alias (Q15's supplier_no).
   */
  def calciteSpelling(n: Int, text: String): String = n match {
    case 11 => text.replace("AS value", "AS part_value").replace("value DESC", "part_value DESC")
    case 15 => text.replaceAll("GROUP BY\\s+supplier_no", "GROUP BY l_suppkey")
    case _ => text
  }

  /** Empty parquet tables of the TPC-H schema in the session catalog (plans do not depend on data). */
  def createEmptyTables(spark: SparkSession): Unit = Tables.foreach { case (t, _) =>
    spark.sql(s"CREATE TABLE IF NOT EXISTS $t (${sparkColumns(t)}) USING parquet")
  }

  /** isthmus' plan for `sql`, or why isthmus could not make one. */
  def isthmus(sql: String): Either[String, io.sparksubstrait.proto.Plan] = try {
    Right(Isthmus.plan(sql, IsthmusDdl: _*))
  } catch {
    case e: Exception => Left(
        s"${e.getClass.getSimpleName}: ${Option(e.getMessage).getOrElse("").linesIterator.toSeq.headOption.getOrElse("")}")
  }
}
