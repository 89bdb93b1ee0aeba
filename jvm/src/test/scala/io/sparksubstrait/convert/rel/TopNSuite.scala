package io.sparksubstrait
package convert.rel

import io.sparksubstrait.proto.{Expression, FetchMode, Rel}
import io.sparksubstrait.proto.FetchMode._
import io.sparksubstrait.proto.SortField.SortDirection._
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * TopNRel (spec 0.88+): a sort, an offset and a count, returning only the rows asked for
 * (ROWS_ONLY) or also those tied with the last one (WITH_TIES).
 *
 * people, by grp ASC NULLS LAST: a (ids 1, 3, 3, 5), b (2, NULL), NULL (4).
 */
class TopNSuite extends SparkSuite with SubstraitAssertions {
  private val people = Datasets.peopleSchema
  private val names = Seq("id", "name", "score", "grp")

  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerPeople(spark)
    spark.sql("CREATE OR REPLACE TEMP VIEW empty_people AS SELECT * FROM people WHERE false")
  }

  private def top(mode: FetchMode, offset: Option[Long], count: Option[Long], table: String = "people")(sorts: (
      Expression, io.sparksubstrait.proto.SortField.SortDirection)*): Rel =
    topN(readNamed(people, table), mode, offset, count, sorts: _*)

  private def ids(rel: Rel) = run(new PlanBuilder().plan(emit(rel, 0), "id"))
  private def groups(rel: Rel) = run(new PlanBuilder().plan(emit(rel, 3), "grp"))

  test("top-N ROWS_ONLY: Spark SQL's ORDER BY … LIMIT … OFFSET, in order, with NULL keys and duplicates") {
    val byIdName = Seq(field(0) -> SORT_DIRECTION_ASC_NULLS_FIRST, field(1) -> SORT_DIRECTION_DESC_NULLS_LAST)
    for ((offset, count, tail) <- Seq((None, Some(3L), "LIMIT 3"), (Some(2L), Some(3L), "LIMIT 3 OFFSET 2"),
        (Some(5L), None, "OFFSET 5"), (None, Some(0L), "LIMIT 0"), (Some(10L), Some(2L), "LIMIT 2 OFFSET 10"),
        (None, None, ""))) {
      assertSameRows(run(new PlanBuilder().plan(top(FETCH_MODE_ROWS_ONLY, offset, count)(byIdName: _*), names: _*)),
        spark.sql(s"SELECT * FROM people ORDER BY id ASC NULLS FIRST, name DESC NULLS LAST $tail"), ordered = true)
    }
    assertRows(run(new PlanBuilder().plan(top(FETCH_MODE_ROWS_ONLY, None, Some(2L), "empty_people")(byIdName: _*),
          names: _*)), Nil)
  }

  test("top-N WITH_TIES: the rows tied with the last one returned come too (rows worked out by hand)") {
    val byGroup = Seq(field(3) -> SORT_DIRECTION_ASC_NULLS_LAST)
    // Two rows reach into the four a's: all four come.
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(2L))(byGroup: _*)), Seq(Row(1), Row(3), Row(3), Row(5)))
    // Four rows end exactly at the last a: no tie beyond.
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(4L))(byGroup: _*)), Seq(Row(1), Row(3), Row(3), Row(5)))
    // Five reach the first b: both b's (ids 2 and NULL).
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(5L))(byGroup: _*)),
      Seq(Row(1), Row(3), Row(3), Row(5), Row(2), Row(null)))
    // The NULL group ties with itself at the end.
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(7L))(byGroup: _*)),
      Seq(Row(1), Row(3), Row(3), Row(5), Row(2), Row(null), Row(4)))
    // Offset 2, count 3: positions 3 to 5 (two a's, one b) and the other b; which a's are skipped is
    // the order's choice, so only the groups are checked.
    assertRows(groups(top(FETCH_MODE_WITH_TIES, Some(2L), Some(3L))(byGroup: _*)),
      Seq(Row("a"), Row("a"), Row("b"), Row("b")))
    // Count 0 returns nothing, tied or not; a NULL (absent) count returns everything after the offset.
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(0L))(byGroup: _*)), Nil)
    assertRows(groups(top(FETCH_MODE_WITH_TIES, Some(4L), None)(byGroup: _*)), Seq(Row("b"), Row("b"), Row(null)))
    // Descending with NULLs first: the NULL score (bob) alone; then 3.5 (ann).
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(1L))(field(2) -> SORT_DIRECTION_DESC_NULLS_FIRST)), Seq(Row(2)))
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(2L))(field(2) -> SORT_DIRECTION_DESC_NULLS_FIRST)),
      Seq(Row(2), Row(1)))
    // Two sort fields: ties need both equal. By (grp, score): a/1.0 twice (ids 3, 3) tie.
    val byGroupScore = Seq(field(3) -> SORT_DIRECTION_ASC_NULLS_LAST, field(2) -> SORT_DIRECTION_ASC_NULLS_LAST)
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(1L))(byGroupScore: _*)), Seq(Row(3), Row(3)))
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(3L))(byGroupScore: _*)), Seq(Row(3), Row(3), Row(5)))
    // In sort order, and nothing from an empty input.
    assertRows(ids(top(FETCH_MODE_WITH_TIES, Some(1L), Some(2L))(field(0) -> SORT_DIRECTION_DESC_NULLS_LAST)),
      Seq(Row(4), Row(3), Row(3)), ordered = true)
    assertRows(ids(top(FETCH_MODE_WITH_TIES, None, Some(2L), "empty_people")(byGroup: _*)), Nil)
  }

  test("top-N: no sort field, no mode, a negative count and a non-constant offset are the plan's errors") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.top_n") {
      run(b.plan(top(FETCH_MODE_ROWS_ONLY, None, Some(1L))(), names: _*))
    }
    assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.top_n") {
      run(b.plan(top(FETCH_MODE_UNSPECIFIED, None, Some(1L))(field(0) -> SORT_DIRECTION_ASC_NULLS_LAST), names: _*))
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.top_n.count") {
      run(b.plan(top(FETCH_MODE_WITH_TIES, None, Some(-1L))(field(0) -> SORT_DIRECTION_ASC_NULLS_LAST), names: _*))
    }
    val byField = top(FETCH_MODE_ROWS_ONLY, None, Some(1L))(field(0) -> SORT_DIRECTION_ASC_NULLS_LAST).toBuilder
    byField.getTopNBuilder.setOffset(field(0))
    assertPlanError("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
      "relations[0].root.input.top_n.offset.selection.direct_reference.struct_field.field") {
      run(b.plan(byField.build(), names: _*))
    }
  }
}
