package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.SetRel.SetOp._
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** SetRel: the spec's own examples (worked by hand), NULL matching NULL, and SQL on three inputs. */
class SetsSuite extends SparkSuite with SubstraitAssertions {
  private val s = schema("x" -> i32())
  private def vt(values: Option[Int]*) = readVirtual(s, values.map(v => Seq(v.map(litI32).getOrElse(litNull(i32())))))
  private def ints(values: Int*) = vt(values.map(Some(_)): _*)
  private def rows(values: Option[Int]*) = values.map(v => Row(v.orNull))
  private def setOf(op: io.sparksubstrait.proto.SetRel.SetOp, inputs: io.sparksubstrait.proto.Rel*) =
    run(new PlanBuilder().plan(set(op, inputs: _*), "x"))

  test("the spec's examples, with exact duplicate counts") {
    def r(v: Int*) = rows(v.map(Some(_)): _*)
    assertRows(setOf(SET_OP_MINUS_PRIMARY, ints(1, 2, 2, 3, 3, 3, 4), ints(1, 2), ints(3)), r(4))
    assertRows(setOf(SET_OP_MINUS_PRIMARY_ALL, ints(1, 2, 2, 3, 3, 3, 3), ints(1, 2, 3, 4), ints(3)), r(2, 3, 3))
    assertRows(setOf(SET_OP_INTERSECTION_PRIMARY, ints(1, 2, 2, 3, 3, 3, 4), ints(1, 2, 3, 5), ints(2, 3, 6)),
      r(1, 2, 3))
    assertRows(setOf(SET_OP_INTERSECTION_MULTISET, ints(1, 2, 3, 4), ints(2, 3), ints(3, 4)), r(3))
    assertRows(setOf(SET_OP_INTERSECTION_MULTISET_ALL, ints(1, 2, 2, 3, 3, 3, 4), ints(1, 2, 3, 3, 5),
        ints(2, 3, 3, 6)), r(2, 3, 3))
    assertRows(setOf(SET_OP_UNION_DISTINCT, ints(1, 2, 2, 3, 3, 3, 4), ints(2, 3, 5), ints(1, 6)), r(1, 2, 3, 4, 5, 6))
    assertRows(setOf(SET_OP_UNION_ALL, ints(1, 2, 2, 3, 3, 3, 4), ints(2, 3, 5), ints(1, 6)),
      r(1, 2, 2, 3, 3, 3, 4, 2, 3, 5, 1, 6))
  }

  test("NULL matches NULL") {
    val (n, one, two, three, four) = (None, Some(1), Some(2), Some(3), Some(4))
    assertRows(setOf(SET_OP_MINUS_PRIMARY, vt(n, one, three), vt(n, two, four)), rows(one, three))
    assertRows(setOf(SET_OP_INTERSECTION_MULTISET, vt(n, one, three), vt(n, two, three)), rows(n, three))
    assertRows(setOf(SET_OP_UNION_DISTINCT, vt(n, one, three), vt(n, two, four)), rows(n, one, two, three, four))
  }

  test("the same input on both sides, an empty input, and SQL's EXCEPT ALL / INTERSECT ALL on tables") {
    spark.sql("CREATE OR REPLACE TEMP VIEW sa AS SELECT * FROM VALUES (1), (1), (2), (NULL), (NULL) AS t(x)")
    spark.sql("CREATE OR REPLACE TEMP VIEW sb AS SELECT * FROM VALUES (1), (NULL), (3) AS t(x)")
    val a = readNamed(s, "sa")
    val b = readNamed(s, "sb")
    assertSameRows(setOf(SET_OP_MINUS_PRIMARY_ALL, a, b), spark.sql("SELECT * FROM sa EXCEPT ALL SELECT * FROM sb"))
    assertSameRows(setOf(SET_OP_INTERSECTION_MULTISET_ALL, a, a),
      spark.sql("SELECT * FROM sa INTERSECT ALL SELECT * FROM sa"))
    assertSameRows(setOf(SET_OP_MINUS_PRIMARY, a, a), spark.sql("SELECT * FROM sa EXCEPT SELECT * FROM sa"))
    assertRows(setOf(SET_OP_UNION_ALL, a, vt()), rows(Some(1), Some(1), Some(2), None, None))
    assertRows(setOf(SET_OP_INTERSECTION_MULTISET, a, vt()), Nil)
  }

  test("minus multiset: every copy of a primary record not present in all secondaries, NULL matching NULL") {
    val (n, one, two, three, four) = (None, Some(1), Some(2), Some(3), Some(4))
    def r(v: Int*) = rows(v.map(Some(_)): _*)
    // The spec's example, then duplicates: a kept record keeps all its copies, and a record in
    // only some secondaries is kept, one in every secondary (however often) is removed.
    assertRows(setOf(SET_OP_MINUS_MULTISET, ints(1, 2, 3, 4), ints(1, 2), ints(1, 2, 3)), r(3, 4))
    assertRows(setOf(SET_OP_MINUS_MULTISET, ints(1, 1, 2, 3, 3, 4), ints(1, 3, 3), ints(3, 4)), r(1, 1, 2, 4))
    assertRows(setOf(SET_OP_MINUS_MULTISET, vt(n, n, one, two), vt(n, two), vt(two, n, n)), rows(one))
    assertRows(setOf(SET_OP_MINUS_MULTISET, vt(n, one, one), vt(three, four)), rows(n, one, one))
    assertRows(setOf(SET_OP_MINUS_MULTISET, vt(one, two), vt()), rows(one, two))
    assertRows(setOf(SET_OP_MINUS_MULTISET, vt(), vt(one)), Nil)
    // Independently: the same records by SQL's NOT EXISTS with NULL-safe matching.
    spark.sql("CREATE OR REPLACE TEMP VIEW mp AS SELECT * FROM VALUES (1), (1), (2), (NULL), (NULL), (5) AS t(x)")
    spark.sql("CREATE OR REPLACE TEMP VIEW ms1 AS SELECT * FROM VALUES (1), (NULL), (5), (5) AS t(x)")
    spark.sql("CREATE OR REPLACE TEMP VIEW ms2 AS SELECT * FROM VALUES (NULL), (2), (5) AS t(x)")
    assertSameRows(setOf(SET_OP_MINUS_MULTISET, readNamed(s, "mp"), readNamed(s, "ms1"), readNamed(s, "ms2")),
      spark.sql(
        "SELECT * FROM mp WHERE NOT (EXISTS (SELECT 1 FROM ms1 WHERE ms1.x <=> mp.x) AND EXISTS (SELECT 1 FROM ms2 WHERE ms2.x <=> mp.x))"))
  }

  test("mismatched input types and a single input are errors") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.set.inputs[1]") {
      run(b.plan(set(SET_OP_UNION_ALL, ints(1), readVirtual(schema("y" -> string()), Seq(Seq(litString("a"))))), "x"))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.set.inputs") {
      run(b.plan(set(SET_OP_UNION_ALL, ints(1)), "x"))
    }
  }
}
