package io.sparksubstrait.testing

import org.apache.spark.sql.SparkSession

/** A small deterministic TPC-H `lineitem` (with some NULL discounts), and the TPC-H DDL for isthmus. */
object TpchData {
  val LineitemDdl: String =
    """CREATE TABLE LINEITEM (L_ORDERKEY BIGINT NOT NULL, L_PARTKEY BIGINT NOT NULL, L_SUPPKEY BIGINT NOT NULL,
      |L_LINENUMBER INTEGER, L_QUANTITY DECIMAL(15,2), L_EXTENDEDPRICE DECIMAL(15,2), L_DISCOUNT DECIMAL(15,2),
      |L_TAX DECIMAL(15,2), L_RETURNFLAG CHAR(1), L_LINESTATUS CHAR(1), L_SHIPDATE DATE, L_COMMITDATE DATE,
      |L_RECEIPTDATE DATE, L_SHIPINSTRUCT CHAR(25), L_SHIPMODE CHAR(10), L_COMMENT VARCHAR(44))""".stripMargin

  def registerLineitem(spark: SparkSession, rows: Int = 6000): Unit = spark.sql(s"""
    CREATE OR REPLACE TEMP VIEW lineitem AS SELECT
      id DIV 4 + 1 AS l_orderkey, (id * 7) % 200 + 1 AS l_partkey, (id * 13) % 10 + 1 AS l_suppkey,
      CAST(id % 4 + 1 AS INT) AS l_linenumber,
      CAST((id * 17) % 50 + 1 AS DECIMAL(15,2)) AS l_quantity,
      CAST(((id * 37) % 10000) / 100.0 + 900 AS DECIMAL(15,2)) AS l_extendedprice,
      CAST(IF(id % 97 = 0, NULL, ((id * 7) % 11) / 100.0) AS DECIMAL(15,2)) AS l_discount,
      CAST(((id * 5) % 9) / 100.0 AS DECIMAL(15,2)) AS l_tax,
      element_at(array('A', 'N', 'R'), CAST(id % 3 + 1 AS INT)) AS l_returnflag,
      IF(id % 2 = 0, 'F', 'O') AS l_linestatus,
      date_add(DATE'1992-01-01', CAST((id * 7) % 2500 AS INT)) AS l_shipdate,
      date_add(DATE'1992-01-15', CAST((id * 5) % 2500 AS INT)) AS l_commitdate,
      date_add(DATE'1992-02-01', CAST((id * 3) % 2500 AS INT)) AS l_receiptdate,
      'DELIVER IN PERSON' AS l_shipinstruct, 'AIR' AS l_shipmode, concat('comment ', id) AS l_comment
    FROM range(0, $rows)""")

  val Q6: String =
    """select sum(l_extendedprice * l_discount) as revenue from lineitem where l_shipdate >= date '1994-01-01'
      |and l_shipdate < date '1994-01-01' + interval '1' year and l_discount between 0.06 - 0.01 and 0.06 + 0.01
      |and l_quantity < 24""".stripMargin

  val Q1: String =
    """select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price,
      |sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
      |sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge, avg(l_quantity) as avg_qty,
      |avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order
      |from lineitem where l_shipdate <= date '1998-12-01' - interval '120' day (3)
      |group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus""".stripMargin
}
