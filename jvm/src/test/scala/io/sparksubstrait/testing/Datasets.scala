package io.sparksubstrait.testing

import org.apache.spark.sql.SparkSession

import io.sparksubstrait.testing.PlanBuilder._

/** Shared test tables, with NULLs, duplicates, zeros, negatives and special floats. */
object Datasets {

  /** `nums`: column order a, b, x, y, p, q, d, e, dt, s. */
  val numsSchema = schema("a" -> i32(), "b" -> i32(), "x" -> fp64(), "y" -> fp64(), "p" -> bool(), "q" -> bool(),
    "d" -> decimal(10, 2), "e" -> decimal(10, 2), "dt" -> date(), "s" -> string())

  def registerNums(spark: SparkSession): Unit = spark.sql("""
    CREATE OR REPLACE TEMP VIEW nums AS SELECT
      CAST(a AS INT) a, CAST(b AS INT) b, CAST(x AS DOUBLE) x, CAST(y AS DOUBLE) y, p, q,
      CAST(d AS DECIMAL(10,2)) d, CAST(e AS DECIMAL(10,2)) e, CAST(dt AS DATE) dt, s
    FROM VALUES
      (7, 2, 2.5, 0.5, true, true, 10.25, 3.00, '1994-01-31', 'x'),
      (-7, 2, -2.5, 4.0, true, false, -10.25, 0.25, '1996-02-29', 'y'),
      (7, -3, 0.0, -1.5, false, NULL, 0.00, -3.10, '1998-12-01', NULL),
      (-7, -3, NULL, 2.0, NULL, true, NULL, 1.00, NULL, 'x'),
      (NULL, 5, 1.0, NULL, NULL, NULL, 5.50, NULL, '2000-01-01', 'z'),
      (0, 1, 9.0, 3.0, false, false, 99999999.99, 0.01, '1970-01-01', ''),
      (7, 2, 2.5, 0.5, true, true, 10.25, 3.00, '1994-01-31', 'x')
    AS t(a, b, x, y, p, q, d, e, dt, s)""")

  /** `people`: id, name, score, grp, with NULLs in every column and a duplicated row. */
  val peopleSchema = schema("id" -> i32(), "name" -> string(), "score" -> fp64(), "grp" -> string())

  def registerPeople(spark: SparkSession): Unit = spark.sql("""
    CREATE OR REPLACE TEMP VIEW people AS SELECT * FROM VALUES
      (1, 'ann', 3.5D, 'a'), (2, 'bob', CAST(NULL AS DOUBLE), 'b'), (3, NULL, 1.0D, 'a'), (3, NULL, 1.0D, 'a'),
      (5, 'cat', 2.0D, 'a'), (4, 'dan', -2.0D, NULL), (NULL, 'eve', 0.0D, 'b') AS t(id, name, score, grp)""")

  /** `sales`: k1, k2, v, for grouping: a duplicated row, a NULL in each column. */
  def registerSales(spark: SparkSession): Unit = spark.sql("""
    CREATE OR REPLACE TEMP VIEW sales AS SELECT * FROM VALUES
      (1, 'a', 10L), (1, 'a', 10L), (1, 'b', 5L), (2, 'a', NULL), (NULL, 'c', 7L), (3, NULL, 1L)
      AS sales(k1, k2, v)""")
}

/**
 * The join inputs `l` (k, v) and `r` (k, w), with NULL keys, duplicates and matches of
 * several rows, and `r0`, an empty `r`: registered for the suite that mixes this in.
 */
trait JoinTables extends SparkSuite {
  protected val lSchema = schema("k" -> i32(), "v" -> string())
  protected val rSchema = schema("k" -> i32(), "w" -> string())

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW l AS SELECT * FROM VALUES (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (4, NULL) AS t(k, v)")
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW r AS SELECT * FROM VALUES (2, 'x'), (2, 'y'), (3, 'z'), (NULL, 'm'), (4, 'x') AS t(k, w)")
    spark.sql("CREATE OR REPLACE TEMP VIEW r0 AS SELECT * FROM r WHERE false")
  }
}
