package io.sparksubstrait
package session

import io.sparksubstrait.errors.{SubstraitInvalidPlanException, SubstraitUnsupportedException}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Invalid or unsupported input: one error family, naming where, what was found and what was expected. */
class ErrorsSuite extends SparkSuite with SubstraitAssertions {
  private val base = readVirtual(schema("x" -> i32(), "y" -> i32()), Seq(Seq(litI32(1), litI32(2))))

  test("unknown function: names the function, its extension and the argument types") {
    val b = new PlanBuilder()
    val e = assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION",
      "relations[0].root.input.project.expressions[0].scalar_function") {
      run(b.plan(project(base, b.call(b.fn("functions_arithmetic", "no_such_function:i32"), field(0))), "x", "y", "z"))
    }
    assert(e.isInstanceOf[SubstraitUnsupportedException])
    assert(e.getMessage.contains("no_such_function:i32") && e.getMessage.contains("functions_arithmetic") &&
      e.getMessage.contains("(i32)"))
  }

  test("out-of-range field reference: names the reference and the input's width") {
    val b = new PlanBuilder()
    val e = assertPlanError("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
      "relations[0].root.input.project.expressions[0].scalar_function.arguments[1].value.selection.direct_reference.struct_field.field") {
      run(b.plan(project(base, b.call(b.fn("functions_arithmetic", "add:i32_i32"), field(0), field(2))), "x", "y", "z"))
    }
    assert(e.isInstanceOf[SubstraitInvalidPlanException])
    assert(
      e.getMessage.contains("field reference 2 is out of range") && e.getMessage.contains("the input has 2 fields"))
  }

  test("undeclared function anchor, missing input, unsupported relation, several roots") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_UNDECLARED_ANCHOR",
      "relations[0].root.input.project.expressions[0].scalar_function.function_reference") {
      run(b.plan(project(base, b.call(42, field(0))), "x", "y", "z"))
    }
    val noInput = io.sparksubstrait.proto.Rel.newBuilder().setFilter(
      io.sparksubstrait.proto.FilterRel.newBuilder().setCondition(litBool(true))).build()
    assertPlanError("SUBSTRAIT_MISSING_FIELD", "relations[0].root.input.filter") { run(b.plan(noInput, "x")) }
    val ddl = io.sparksubstrait.proto.Rel.newBuilder().setDdl(io.sparksubstrait.proto.DdlRel.getDefaultInstance).build()
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.ddl") { run(b.plan(ddl, "x", "y")) }
    val twoRoots = b.plan(base, "x", "y").toBuilder.addRelations(b.plan(base, "x", "y").getRelations(0)).build()
    assertPlanError("SUBSTRAIT_NO_ROOT", "relations") { run(twoRoots) }
  }

  test("wrong argument types and a non-boolean filter condition") {
    val b = new PlanBuilder()
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.project.expressions[0].scalar_function") {
      run(b.plan(project(base, b.call(b.fn("functions_boolean", "and:bool"), field(0), field(1))), "x", "y", "z"))
    }
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH", "relations[0].root.input.filter.condition") {
      run(b.plan(filter(base, field(0)), "x", "y"))
    }
  }

  test("errors are SparkThrowables with SQL states") {
    val e = intercept[errors.SubstraitException](run(new PlanBuilder().plan(filter(base, field(5)), "x", "y")))
    assert(e.getSqlState == "42000")
    assert(e.getMessageParameters.get("index") == "5")
  }
}
