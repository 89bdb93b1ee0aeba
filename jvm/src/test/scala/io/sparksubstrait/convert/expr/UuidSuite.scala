package io.sparksubstrait
package convert.expr

import java.util.UUID

import io.sparksubstrait.proto.Expression.Cast.FailureBehavior
import io.sparksubstrait.proto.SortField.SortDirection
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * The uuid type and its literals: values are the 16 bytes, equal when the bytes are, ordered
 * by unsigned byte order (the spec's); casts to and from string use the canonical text.
 * Rows worked out by hand, with NULLs, duplicates and an empty table.
 */
class UuidSuite extends SparkSuite with SubstraitAssertions {
  // Chosen so that unsigned byte order differs from java.util.UUID's signed compareTo:
  // 80… sorts after 7f… by bytes, before it as a signed long.
  private val low = "00000000-0000-0000-0000-0000000000ff"
  private val mid = "7fffffff-ffff-ffff-ffff-ffffffffffff"
  private val high = "80000000-0000-0000-0000-000000000001"
  private val top = "ffffffff-0000-4000-8000-00000000abcd"
  private val s = schema("u" -> uuid(), "n" -> i32())
  private val rows = Seq(Seq(litUuid(high), litI32(1)), Seq(litUuid(low), litI32(2)), Seq(litNull(uuid()), litI32(3)),
    Seq(litUuid(top), litI32(4)), Seq(litUuid(mid), litI32(5)), Seq(litUuid(high), litI32(6)))
  private def u(text: String) = UUID.fromString(text)

  test("uuid literals and columns: java.util.UUID values, NULLs, duplicates, an empty table") {
    val df = run(new PlanBuilder().plan(readVirtual(s, rows), "u", "n"))
    assert(df.schema("u").dataType.typeName == "uuid")
    assertRows(df, Seq(Row(u(high), 1), Row(u(low), 2), Row(null, 3), Row(u(top), 4), Row(u(mid), 5), Row(u(high), 6)))
    assertRows(run(new PlanBuilder().plan(readVirtual(s, Nil), "u", "n")), Nil)
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].literal.uuid") {
      val short = io.sparksubstrait.proto.Expression.newBuilder().setLiteral(
        io.sparksubstrait.proto.Expression.Literal.newBuilder()
          .setUuid(com.google.protobuf.ByteString.copyFrom(Array[Byte](1, 2, 3)))).build()
      run(new PlanBuilder().plan(emit(project(readVirtual(s, rows), short), 2), "x"))
    }
  }

  test("uuid order is the unsigned byte order, NULLs first ascending; equality and grouping are by the bytes") {
    val sorted = sort(readVirtual(s, rows), field(0) -> SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST,
      field(1) -> SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST)
    assertRows(run(new PlanBuilder().plan(sorted, "u", "n")),
      Seq(Row(null, 3), Row(u(low), 2), Row(u(mid), 5), Row(u(high), 1), Row(u(high), 6), Row(u(top), 4)),
      ordered = true)
    val b = new PlanBuilder()
    val lt = b.call(b.fn("functions_comparison", "lt:any_any"), field(0), litUuid(high))
    assertRows(run(b.plan(filter(readVirtual(s, rows), lt), "u", "n")), Seq(Row(u(low), 2), Row(u(mid), 5)))
    val eq = b.call(b.fn("functions_comparison", "equal:any_any"), field(0), litUuid(high))
    assertRows(run(b.plan(filter(readVirtual(s, rows), eq), "u", "n")), Seq(Row(u(high), 1), Row(u(high), 6)))
    val count = b.measure(b.fn("functions_aggregate_generic", "count:any"), Seq(field(1)))
    assertRows(run(b.plan(aggregate(readVirtual(s, rows), Seq(field(0)), Seq(count)), "u", "c")),
      Seq(Row(null, 1L), Row(u(low), 1L), Row(u(mid), 1L), Row(u(high), 2L), Row(u(top), 1L)))
  }

  test(
    "casts: uuid to string writes the canonical lower-case text; string to uuid reads it (either case); others refused") {
    val b = new PlanBuilder()
    def one(e: io.sparksubstrait.proto.Expression) = b.plan(emit(project(readVirtual(s, rows.take(3)), e), 2), "x")
    assertRows(run(one(cast(field(0), string()))), Seq(Row(high), Row(low), Row(null)))
    assertRows(run(one(cast(litString("FFFFFFFF-0000-4000-8000-00000000ABCD"), uuid()))), Seq.fill(3)(Row(u(top))))
    // Text of another form: NULL when the plan asks for NULL, else the query fails.
    assertRows(run(one(cast(litString("{" + top + "}"), uuid(), FailureBehavior.FAILURE_BEHAVIOR_RETURN_NULL))),
      Seq.fill(3)(Row(null)))
    val e = intercept[Exception](run(one(cast(litString("ffffffff00004000800000000000abcd"), uuid(),
            FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION))).collect())
    assert(causes(e).exists(x =>
        String.valueOf(x.getMessage).contains("cannot cast")), e)
    // A round trip keeps the value; a uuid is no number and no binary.
    assertRows(run(one(cast(cast(field(0), string()), uuid()))), Seq(Row(u(high)), Row(u(low)), Row(null)))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.project.expressions[0].cast")(
      run(one(cast(field(0), i64()))))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.project.expressions[0].cast")(
      run(one(cast(field(0), binary()))))
  }
}
