package io.sparksubstrait.testing

import org.apache.spark.sql.SparkSession

/**
 * Small TPC-H tables as temp views, written in Spark SQL: every column in its TPC-H domain
 * (the words, brands, types, containers, segments, priorities, modes, nations and regions
 * the 22 queries select on), keys consistent across tables, values spread by hashing the
 * keys. Not dbgen's data, but every query finds rows, so comparing answers means something:
 * one order in a hundred has seven large lines, so Q18 finds orders above 300 units.
 */
object TpchGenerator {
  private val Parts = 2000
  private val Suppliers = 100
  private val Customers = 600
  private val Orders = 6000

  private def pick(words: Seq[String], hash: String): String =
    s"element_at(array(${words.map(w => s"'$w'").mkString(", ")}), CAST(pmod($hash, ${words.size}) AS INT) + 1)"
  private def h(key: String, salt: Int): String = s"abs(hash($key, $salt))"
  private def money(key: String, salt: Int, from: Int, to: Int): String =
    s"CAST(($from * 100 + pmod(${h(key, salt)}, ${(to - from) * 100})) / 100.0 AS DECIMAL(15,2))"

  private val Nations = Seq("ALGERIA" -> 0, "ARGENTINA" -> 1, "BRAZIL" -> 1, "CANADA" -> 1, "EGYPT" -> 4,
    "ETHIOPIA" -> 0,
    "FRANCE" -> 3, "GERMANY" -> 3, "INDIA" -> 2, "INDONESIA" -> 2, "IRAN" -> 4, "IRAQ" -> 4, "JAPAN" -> 2,
    "JORDAN" -> 4,
    "KENYA" -> 0, "MOROCCO" -> 0, "MOZAMBIQUE" -> 0, "PERU" -> 1, "CHINA" -> 2, "ROMANIA" -> 3, "SAUDI ARABIA" -> 4,
    "VIETNAM" -> 2, "RUSSIA" -> 3, "UNITED KINGDOM" -> 3, "UNITED STATES" -> 1)
  private val Colors = Seq("almond", "antique", "blue", "forest", "green", "lime", "navy", "red", "rose", "tan")
  private val Words = Seq("special", "requests", "Customer", "Complaints", "packages", "deposits", "final", "ironic")

  def register(spark: SparkSession): Unit = {
    def view(name: String, sql: String): Unit = spark.sql(s"CREATE OR REPLACE TEMP VIEW $name AS $sql")
    view("region",
      "SELECT * FROM VALUES (0, 'AFRICA', 'c'), (1, 'AMERICA', 'c'), (2, 'ASIA', 'c'), (3, 'EUROPE', 'c'), " +
        "(4, 'MIDDLE EAST', 'c') AS t(r_regionkey, r_name, r_comment)")
    view("nation",
      "SELECT * FROM VALUES " + Nations.zipWithIndex.map { case ((n, r), i) => s"($i, '$n', $r, 'c')" }.mkString(", ") +
        " AS t(n_nationkey, n_name, n_regionkey, n_comment)")
    def comment(key: String) =
      s"concat_ws(' ', ${pick(Words, h(key, 91))}, ${pick(Words, h(key, 92))}, ${pick(Words, h(key, 93))})"
    view("part",
      s"""SELECT id AS p_partkey,
      concat_ws(' ', ${pick(Colors, h("id", 1))}, ${pick(Colors, h("id", 2))}) AS p_name,
      concat('Manufacturer#', pmod(${h("id", 3)}, 5) + 1) AS p_mfgr,
      concat('Brand#', pmod(${h("id", 3)}, 5) + 1, pmod(${h("id", 4)}, 5) + 1) AS p_brand,
      concat_ws(' ', ${pick(Seq("STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"), h("id", 5))},
        ${pick(Seq("ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"), h("id", 6))},
        ${pick(Seq("TIN", "NICKEL", "BRASS", "STEEL", "COPPER"), h("id", 7))}) AS p_type,
      CAST(pmod(${h("id", 8)}, 50) + 1 AS INT) AS p_size,
      concat_ws(' ', ${pick(Seq("SM", "LG", "MED", "JUMBO", "WRAP"), h("id", 9))},
        ${pick(Seq("CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"), h("id", 10))}) AS p_container,
      ${money("id", 11, 900, 2000)} AS p_retailprice, ${comment("id")} AS p_comment
      FROM range(1, ${Parts + 1})""")
    view("supplier",
      s"""SELECT id AS s_suppkey, concat('Supplier#', id) AS s_name, concat('addr', id) AS s_address,
      CAST(pmod(${h("id", 12)}, 25) AS INT) AS s_nationkey,
      concat(CAST(pmod(${h("id", 12)}, 25) + 10 AS STRING), '-555-', id) AS s_phone,
      ${money("id", 13, -999, 9999)} AS s_acctbal, ${comment("id")} AS s_comment
      FROM range(1, ${Suppliers + 1})""")
    // Four suppliers per part, as dbgen gives.
    view("partsupp",
      s"""SELECT p.id AS ps_partkey, pmod(p.id + k.id * ${Suppliers / 4}, $Suppliers) + 1 AS ps_suppkey,
      CAST(pmod(${h("p.id * 4 + k.id", 14)}, 9999) + 1 AS BIGINT) AS ps_availqty,
      ${money("p.id * 4 + k.id", 15, 1, 1000)} AS ps_supplycost, 'c' AS ps_comment
      FROM range(1, ${Parts + 1}) p CROSS JOIN range(0, 4) k""")
    view("customer",
      s"""SELECT id AS c_custkey, concat('Customer#', id) AS c_name, concat('addr', id) AS c_address,
      CAST(pmod(${h("id", 16)}, 25) AS INT) AS c_nationkey,
      concat(CAST(pmod(${h("id", 16)}, 25) + 10 AS STRING), '-555-', id) AS c_phone,
      ${money("id", 17, -999, 9999)} AS c_acctbal,
      ${pick(Seq("AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"), h("id", 18))} AS c_mktsegment,
      ${comment("id")} AS c_comment
      FROM range(1, ${Customers + 1})""")
    // A third of the customers place no order (Q13, Q22 count them).
    view("orders",
      s"""SELECT id AS o_orderkey,
      pmod(${h("id", 19)}, ${Customers / 3 * 2}) DIV 2 * 3 + pmod(id, 2) + 1 AS o_custkey,
      ${pick(Seq("F", "O", "P"), h("id", 20))} AS o_orderstatus, ${money("id", 21, 1000, 400000)} AS o_totalprice,
      date_add(DATE'1992-01-01', CAST(pmod(${h("id", 22)}, 2400) AS INT)) AS o_orderdate,
      ${pick(Seq("1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"), h("id", 23))} AS o_orderpriority,
      concat('Clerk#', pmod(id, 20)) AS o_clerk, 0 AS o_shippriority, ${comment("id")} AS o_comment
      FROM range(1, ${Orders + 1})""")
    view("lineitem",
      s"""SELECT o.o_orderkey AS l_orderkey, ps.ps_partkey AS l_partkey, ps.ps_suppkey AS l_suppkey,
      n.id AS l_linenumber,
      CAST(CASE WHEN pmod(o.o_orderkey, 100) = 6 THEN 46 + pmod(${h("o.o_orderkey * 8 + n.id", 24)}, 5)
        ELSE pmod(${h("o.o_orderkey * 8 + n.id", 24)}, 50) + 1 END AS DECIMAL(15,2)) AS l_quantity,
      ${money("o.o_orderkey * 8 + n.id", 25, 900, 100000)} AS l_extendedprice,
      CAST(pmod(${h("o.o_orderkey * 8 + n.id", 26)}, 11) / 100.0 AS DECIMAL(15,2)) AS l_discount,
      CAST(pmod(${h("o.o_orderkey * 8 + n.id", 27)}, 9) / 100.0 AS DECIMAL(15,2)) AS l_tax,
      ${pick(Seq("R", "A", "N"), h("o.o_orderkey * 8 + n.id", 28))} AS l_returnflag,
      ${pick(Seq("O", "F"), h("o.o_orderkey * 8 + n.id", 29))} AS l_linestatus,
      date_add(o.o_orderdate, CAST(pmod(${h("o.o_orderkey * 8 + n.id", 30)}, 121) + 1 AS INT)) AS l_shipdate,
      date_add(o.o_orderdate, CAST(pmod(${h("o.o_orderkey * 8 + n.id", 31)}, 61) + 30 AS INT)) AS l_commitdate,
      date_add(o.o_orderdate, CAST(pmod(${h("o.o_orderkey * 8 + n.id", 30)}, 121) + 1 + pmod(${h(
          "o.o_orderkey * 8 + n.id", 32)}, 30) + 1 AS INT)) AS l_receiptdate,
      ${pick(Seq("DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"),
          h("o.o_orderkey * 8 + n.id", 33))} AS l_shipinstruct,
      ${pick(Seq("REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"),
          h("o.o_orderkey * 8 + n.id", 34))} AS l_shipmode,
      'c' AS l_comment
      FROM orders o JOIN range(1, 8) n
        ON n.id <= CASE WHEN pmod(o.o_orderkey, 100) = 6 THEN 7 ELSE pmod(o.o_orderkey, 7) + 1 END
      JOIN partsupp ps ON ps.ps_partkey = pmod(${h("o.o_orderkey * 8 + n.id", 35)}, $Parts) + 1
        AND ps.ps_suppkey = pmod(ps.ps_partkey + pmod(${h("o.o_orderkey * 8 + n.id", 36)}, 4) * ${Suppliers /
          4}, $Suppliers) + 1""")
    // Materialised once: the views above hash on every read.
    Seq("part", "supplier", "partsupp", "customer", "orders", "lineitem").foreach { t =>
      spark.table(t).cache().count()
    }
  }
}
