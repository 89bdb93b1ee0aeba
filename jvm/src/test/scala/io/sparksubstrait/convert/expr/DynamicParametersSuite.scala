package io.sparksubstrait
package convert.expr

import io.sparksubstrait.proto.{DynamicParameter, DynamicParameterBinding, Expression, Plan}

import io.sparksubstrait.implicits._
import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Dynamic parameters: bound by the plan or through the API, cast to their declared type when converted. */
class DynamicParametersSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerPeople(spark) }

  private def param(anchor: Int, t: io.sparksubstrait.proto.Type): Expression = Expression.newBuilder()
    .setDynamicParameter(DynamicParameter.newBuilder().setParameterReference(anchor).setType(t)).build()

  /** people WHERE id > $1 AND grp = $2. */
  private def plan(bindings: (Int, Expression)*): Plan = {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val eq = b.fn("functions_comparison", "equal:str_str")
    val and = b.fn("functions_boolean", "and:bool")
    val cond = b.call(and, b.call(gt, field(0), param(1, i32())), b.call(eq, field(3), param(2, string())))
    val p = b.plan(filter(readNamed(Datasets.peopleSchema, "people"), cond), "id", "name", "score", "grp").toBuilder
    bindings.foreach { case (a, lit) =>
      p.addParameterBindings(DynamicParameterBinding.newBuilder().setParameterAnchor(a).setValue(lit.getLiteral))
    }
    p.build()
  }

  test("values from the plan's bindings, and from the API (which win), with NULL") {
    val bound = plan(1 -> litI32(1), 2 -> litString("a"))
    assertSameRows(spark.read.substrait(bound.toByteArray),
      spark.sql("SELECT * FROM people WHERE id > 1 AND grp = 'a'"))
    assertSameRows(spark.read.substrait(bound.toByteArray, Map(1 -> 0, 2 -> "b")),
      spark.sql("SELECT * FROM people WHERE id > 0 AND grp = 'b'"))
    // A string in the parameter type's SQL form is cast when the plan is converted.
    assertSameRows(spark.read.substrait(plan().toByteArray, Map(1 -> "2", 2 -> "a")),
      spark.sql("SELECT * FROM people WHERE id > 2 AND grp = 'a'"))
    assertSameRows(spark.read.substrait(plan().toByteArray, Map(1 -> null, 2 -> "a")),
      spark.sql("SELECT * FROM people WHERE id > NULL"))
  }

  test("a decimal value from the API is held as an unscaled long, as a decimal literal is") {
    val b = new PlanBuilder()
    val vt = readVirtual(schema("z" -> i32()), Seq(Seq(litI32(0))))
    val p = b.plan(emit(project(vt, param(1, decimal(7, 2)), param(2, decimal(3, 2))), 1, 2), "a", "b")
    val df = spark.read.substrait(p.toByteArray,
      Map(1 -> new java.math.BigDecimal("-12345.6"), 2 -> new java.math.BigDecimal("2.50")))
    val held = df.queryExecution.analyzed.collect { case pr: org.apache.spark.sql.catalyst.plans.logical.Project =>
      pr.expressions.flatMap(_.collect {
        case org.apache.spark.sql.catalyst.expressions.Literal(d: org.apache.spark.sql.types.Decimal, _) =>
          d.toDebugString.takeWhile(_ != ',')
      })
    }.flatten
    // One cast to the declared type (decimal(6,1) to (7,2)), one already of it.
    assert(held == Seq("Decimal(compact", "Decimal(compact"))
    assertSameRows(df, spark.sql("SELECT CAST(-12345.60 AS DECIMAL(7,2)) AS a, CAST(2.50 AS DECIMAL(3,2)) AS b"))
  }

  test("an unbound parameter and a value that does not fit its type are errors") {
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.filter.condition.scalar_function.arguments[0].value.scalar_function.arguments[1].value.dynamic_parameter.parameter_reference") {
      spark.read.substrait(plan(2 -> litString("a")).toByteArray).collect()
    }
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH",
      "relations[0].root.input.filter.condition.scalar_function.arguments[0].value.scalar_function.arguments[1].value.dynamic_parameter.parameter_reference") {
      spark.read.substrait(plan().toByteArray, Map(1 -> "not a number", 2 -> "a")).collect()
    }
  }
}
