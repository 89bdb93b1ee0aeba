package io.sparksubstrait
package decode

import com.google.protobuf.UnknownFieldSet
import io.sparksubstrait.proto.{JoinRel, Plan, Version}
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.PlanDecoder
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Checks made before conversion: spec versions, unknown enum values, references, anchors, root names. */
class ValidationSuite extends SparkSuite with SubstraitAssertions {
  private val left = readVirtual(schema("k" -> i32(), "v" -> string()),
    Seq(Seq(litI32(1), litString("a")), Seq(litI32(2), litNull(string())), Seq(litI32(2), litString("b"))))
  private val right = readVirtual(schema("k" -> i32()), Seq(Seq(litI32(2)), Seq(litNull(i32()))))

  private def joined(b: PlanBuilder): Plan =
    b.plan(join(left, right, JoinRel.JoinType.JOIN_TYPE_INNER,
        Some(b.call(b.fn("functions_comparison", "equal:any_any"), field(0), field(2)))), "k", "v", "k2")

  private def stamped(p: Plan, major: Int, minor: Int, patch: Int): Plan =
    p.toBuilder.setVersion(Version.newBuilder().setMajorNumber(major).setMinorNumber(minor).setPatchNumber(patch)
        .setProducer("future-producer")).build()

  private def withJoinType(p: Plan, number: Int): Plan = {
    val b = p.toBuilder
    b.getRelationsBuilder(0).getRootBuilder.getInputBuilder.getJoinBuilder.setTypeValue(number)
    b.build()
  }

  test("a plan stamped with a newer spec version runs when everything in it is understood") {
    assert(PlanDecoder.SupportedVersion == io.sparksubstrait.proto.SpecVersion.VERSION)
    for (p <- Seq(stamped(joined(new PlanBuilder()), 0, 199, 0), stamped(joined(new PlanBuilder()), 1, 0, 0))) {
      assertRows(run(p), Seq(Row(2, null, 2), Row(2, "b", 2)))
    }
  }

  test("a newer plan with a field this consumer does not know: both versions and the location") {
    val b = stamped(joined(new PlanBuilder()), 0, 188, 1).toBuilder
    b.getRelationsBuilder(0).getRootBuilder.getInputBuilder.getJoinBuilder.setUnknownFields(
      UnknownFieldSet.newBuilder().addField(77, UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build())
    val e = assertPlanError("SUBSTRAIT_UNSUPPORTED_VERSION", "relations[0].root.input.join") { run(b.build()) }
    assert(
      e.getMessage.contains("field number 77 of substrait.JoinRel") &&
        e.getMessage.contains(s"Substrait ${PlanDecoder.SupportedVersion}") &&
        e.getMessage.contains("Substrait 0.188.1"), e.getMessage)
    assert(e.isInstanceOf[errors.SubstraitUnsupportedException])
  }

  test("an enum value the proto does not define: unknown (same version) or unsupported version (newer)") {
    val e = assertPlanError("SUBSTRAIT_UNKNOWN_FIELD", "relations[0].root.input.join.type") {
      run(withJoinType(joined(new PlanBuilder()), 42))
    }
    assert(e.getMessage.contains("value 42 of enum substrait.JoinRel.JoinType"), e.getMessage)
    val newer = assertPlanError("SUBSTRAIT_UNSUPPORTED_VERSION", "relations[0].root.input.join.type") {
      run(stamped(withJoinType(joined(new PlanBuilder()), 42), 0, 190, 0))
    }
    assert(newer.getMessage.contains("Substrait 0.190.0"), newer.getMessage)
    // The same through JSON (numeric enum values pass protobuf's JSON parser).
    val json = com.google.protobuf.util.JsonFormat.printer().print(joined(new PlanBuilder()))
      .replace("\"JOIN_TYPE_INNER\"", "42")
    assertPlanError("SUBSTRAIT_UNKNOWN_FIELD", "relations[0].root.input.join.type") {
      SubstraitPlans.readJson(spark, json)
    }
  }

  test("references, anchors and root names are checked against the plan before anything runs") {
    val b = new PlanBuilder()
    // Join condition referring past the joined width (3 columns).
    val wide = b.plan(join(left, right, JoinRel.JoinType.JOIN_TYPE_INNER,
        Some(b.call(b.fn("functions_comparison", "equal:any_any"), field(0), field(3)))), "k", "v", "k2")
    assertPlanError("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
      "relations[0].root.input.join.expression.scalar_function.arguments[1].value.selection.direct_reference.struct_field.field") {
      run(wide)
    }
    // A negative field index.
    assertPlanError("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
      "relations[0].root.input.project.expressions[0].selection.direct_reference.struct_field.field") {
      run(b.plan(project(left, field(-1)), "k", "v", "x"))
    }
    // An aggregate function anchor nobody declared.
    val agg = aggregate(left, Seq(field(0)), Seq(b.measure(9999, Seq(field(0)))))
    assertPlanError("SUBSTRAIT_UNDECLARED_ANCHOR",
      "relations[0].root.input.aggregate.measures[0].measure.function_reference") {
      run(b.plan(agg, "k", "n"))
    }
    // Too few and too many root names.
    assertPlanError("SUBSTRAIT_ROOT_NAMES_MISMATCH", "relations[0].root.names") {
      run(new PlanBuilder().plan(left, "k"))
    }
    assertPlanError("SUBSTRAIT_ROOT_NAMES_MISMATCH", "relations[0].root.names") {
      run(new PlanBuilder().plan(left, "k", "v", "w"))
    }
  }

  // Found by FuzzSuite (each was a foreign exception or SUBSTRAIT_CONVERSION_FAILED before).

  test("a list of mixed types is a type mismatch where it is written, in a filter, a project and below an aggregate") {
    val b = new PlanBuilder()
    val mixed = listOf(litI64(1), litI32(9))
    val e = assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.filter.condition") {
      run(b.plan(filter(left, mixed), "k", "v"))
    }
    assert(e.getMessage.contains("array of (i64, i32)"), e.getMessage)
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.project.expressions[0]") {
      run(b.plan(project(left, mixed), "k", "v", "l"))
    }
    val agg =
      aggregate(project(left, mapOf(litI32(1) -> litString("a"), litI64(2) -> litString("b"))), Seq(field(2)), Nil)
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.aggregate.input.project.expressions[0]") {
      run(b.plan(agg, "m"))
    }
  }

  test("inline rows: a value whose cast fails is the plan's error; casts use the session time zone") {
    val bad = readVirtual(schema("n" -> i32()), Seq(Seq(litI32(1)), Seq(cast(litString("a"), i32()))))
    val e =
      assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.read.virtual_table.expressions[1].fields[0]") {
        run(new PlanBuilder().plan(bad, "n"))
      }
    assert(e.getMessage.contains("CAST_INVALID_INPUT"), e.getMessage)
    // A string read as a timestamp with zone needs the session's zone (it was None.get before).
    val ts = readVirtual(schema("t" -> precisionTimestampTz(6)),
      Seq(Seq(cast(litString("2024-03-01 10:00:00"), precisionTimestampTz(6))), Seq(litNull(precisionTimestampTz(6)))))
    assertSameRows(run(new PlanBuilder().plan(ts, "t")),
      spark.sql("SELECT CAST('2024-03-01 10:00:00' AS TIMESTAMP) AS t UNION ALL SELECT CAST(NULL AS TIMESTAMP)"))
  }

  test("an interval literal beyond the months Spark can hold is the plan's error") {
    val e = assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.project.expressions[0].literal.interval_year_to_month") {
      run(new PlanBuilder().plan(project(left, litIntervalYear(1, Int.MaxValue)), "k", "v", "i"))
    }
    assert(e.getMessage.contains("1 years and 2147483647 months"), e.getMessage)
  }

  test("a list element as a sort key runs (element_at failed Spark's codegen there); offsets past the end are NULL") {
    val b = new PlanBuilder()
    val second = fieldOf(listOf(field(0), litI32(9)), listSeg(1))
    val sorted = fetch(sort(left,
        second -> io.sparksubstrait.proto.SortField.SortDirection.SORT_DIRECTION_DESC_NULLS_LAST,
        field(0) -> io.sparksubstrait.proto.SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST), 1, 3)
    assertRows(run(b.plan(sorted, "k", "v")), Seq(Row(2, null), Row(2, "b")))
    val far = project(left, fieldOf(listOf(field(0), litI32(9)), listSeg(Int.MaxValue)),
      fieldOf(listOf(field(0), litI32(9)), listSeg(-1)))
    assertRows(run(b.plan(far, "k", "v", "none", "last")),
      Seq(Row(1, "a", null, 9), Row(2, null, null, 9), Row(2, "b", null, 9)))
  }
}
