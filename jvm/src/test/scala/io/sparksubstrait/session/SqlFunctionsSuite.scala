package io.sparksubstrait
package session

import com.google.protobuf.util.JsonFormat

import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** The SQL table functions substrait(X'…') and substrait_json('…'). */
class SqlFunctionsSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerPeople(spark) }

  private def plan = {
    val b = new PlanBuilder()
    b.plan(filter(readNamed(Datasets.peopleSchema, "people"),
        b.call(b.fn("functions_comparison", "gt:fp64_fp64"), field(2), litFp64(0.5))),
      "id", "name", "score", "grp")
  }
  private def hex(bytes: Array[Byte]) = bytes.map("%02X".format(_)).mkString

  test("substrait(X'…') and substrait_json('…') give the plan's rows, in SQL that uses them further") {
    val expected = spark.sql("SELECT * FROM people WHERE score > 0.5")
    assertSameRows(spark.sql(s"SELECT * FROM substrait(X'${hex(plan.toByteArray)}')"), expected)
    val json = JsonFormat.printer().omittingInsignificantWhitespace().print(plan).replace("'", "''")
    assertSameRows(spark.sql(s"SELECT * FROM substrait_json('$json')"), expected)
    assertSameRows(spark.sql(s"SELECT grp, count(*) FROM substrait(X'${hex(plan.toByteArray)}') GROUP BY grp"),
      spark.sql("SELECT grp, count(*) FROM people WHERE score > 0.5 GROUP BY grp"))
  }

  test("a root index chooses among several roots") {
    val b = new PlanBuilder()
    val two =
      plan.toBuilder.addRelations(b.plan(emit(readNamed(Datasets.peopleSchema, "people"), 1), "only").getRelations(
          0)).build()
    assertSameRows(spark.sql(s"SELECT * FROM substrait(X'${hex(two.toByteArray)}', 1)"),
      spark.sql("SELECT name FROM people"))
  }

  test("wrong arguments and bad plans raise the project's error") {
    def error(sql: String): SubstraitException = {
      val e = intercept[Exception](spark.sql(sql).collect())
      causes(e).collectFirst { case s: SubstraitException => s }
        .getOrElse(fail(s"not our error: $e"))
    }
    assert(error("SELECT * FROM substrait('not binary')").getCondition == "SUBSTRAIT_TYPE_MISMATCH")
    assert(error("SELECT * FROM substrait(X'0102FF')").getCondition == "SUBSTRAIT_MALFORMED_PLAN")
    assert(error("SELECT * FROM substrait_json('{}', 'x')").getCondition == "SUBSTRAIT_TYPE_MISMATCH")
    assert(error("SELECT * FROM substrait_json('{}')").getCondition == "SUBSTRAIT_NO_ROOT")
    assert(spark.sql("SELECT 1").count() == 1)
  }
}
