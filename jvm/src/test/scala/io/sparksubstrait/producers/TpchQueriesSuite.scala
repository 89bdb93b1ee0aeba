package io.sparksubstrait
package producers

import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{SparkSuite, SubstraitAssertions, TpchGenerator, TpchSchema}

/**
 * The 22 TPC-H queries as isthmus (Calcite) writes them in Substrait, run through the
 * converter, against the same query text in Spark SQL on the same generated tables. isthmus
 * declares Calcite's result types (AVG of DECIMAL(15,2) is DECIMAL(15,2)), so numbers agree
 * within rounding to the declared scale; everything else must be equal. Q11 and Q15 are
 * spelled the way Calcite accepts (the same queries).
 */
class TpchQueriesSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); TpchGenerator.register(spark) }

  /** Values as comparable text: numbers as doubles, so types and scales do not matter, only values. */
  private def numbers(row: Row): Seq[Any] = row.toSeq.map {
    case d: java.math.BigDecimal => d.doubleValue
    case n: java.lang.Number => n.doubleValue
    case other => other
  }

  private def close(a: Any, b: Any): Boolean = (a, b) match {
    // Calcite rounds an average to the declared scale (2): half a cent, plus float noise.
    case (x: Double, y: Double) => math.abs(x - y) <= 0.0051 + 1e-9 * math.abs(y)
    case _ => a == b
  }

  private def key(r: Seq[Any]): String = r.map {
    case d: Double => f"$d%.1f"
    case other => String.valueOf(other)
  }.mkString("|")

  private def text(n: Int): String = TpchSchema.calciteSpelling(n, TpchSchema.query(n))

  for (n <- TpchSchema.QueryNumbers) {
    test(f"TPC-H Q$n%02d from isthmus gives Spark SQL's rows") {
      val sql = text(n)
      TpchSchema.isthmus(sql) match {
        case Left(why) => cancel(s"isthmus made no plan: $why")
        case Right(plan) =>
          val expected = spark.sql(sql).collect().toSeq.map(numbers)
          val actual = run(plan).collect().toSeq.map(numbers)
          assert(expected.nonEmpty, "the generated data gives this query no rows")
          assert(actual.size == expected.size, s"${actual.size} rows, SQL gives ${expected.size}")
          val (a, e) = (actual.sortBy(key), expected.sortBy(key))
          a.zip(e).foreach { case (x, y) =>
            assert(x.size == y.size && x.zip(y).forall { case (p, q) => close(p, q) }, s"row $x, SQL gives $y")
          }
      }
    }
  }
}
