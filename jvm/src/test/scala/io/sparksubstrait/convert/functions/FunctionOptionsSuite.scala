package io.sparksubstrait
package convert.functions

import org.apache.spark.sql.Row

import io.sparksubstrait.errors.{SubstraitErrors, SubstraitException, SubstraitFunctionException}
import io.sparksubstrait.proto.{Expression, Plan, Type}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Function options against the YAMLs' lists (an unlisted value is the plan's error, a listed
 * one is honoured: dev/function-semantics checks every one), and the errors ERROR options ask
 * for, raised with a condition per kind and the function's place in the plan.
 */
class FunctionOptionsSuite extends SparkSuite with SubstraitAssertions {
  private val At = "relations[0].root.input.project.expressions[0].scalar_function"

  /** One call over a one-row (or given) table of column `z`. */
  private def one(pb: PlanBuilder, call: Expression, rows: Seq[Expression] = Seq(litI32(0)), t: Type = i32()): Plan =
    pb.plan(emit(project(readVirtual(schema("z" -> t), rows.map(Seq(_))), call), 1), "r")

  private def plan(ext: String, fn: String, options: Seq[(String, Seq[String])], args: Expression*): Plan = {
    val pb = new PlanBuilder()
    one(pb, pb.callWith(pb.fn(ext, fn), options, None, args: _*))
  }

  test("an option value the YAML does not list is an invalid plan naming the option and the allowed values") {
    val e = assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$At.options[0]") {
      run(plan("functions_logarithmic", "ln:fp64", Seq("on_domain_error" -> Seq("NONE")), litFp64(-1.0)))
    }
    assert(e.getMessage.contains("on_domain_error = NONE") && e.getMessage.contains("NAN, NULL, ERROR"), e.getMessage)
    // acosh's list is shorter than ln's: NULL is not in it.
    val acosh = assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$At.options[0]") {
      run(plan("functions_arithmetic", "acosh:fp64", Seq("on_domain_error" -> Seq("NULL")), litFp64(0.5)))
    }
    assert(acosh.getMessage.contains("NAN, ERROR"), acosh.getMessage)
    // Any preference outside the list, even after one Spark could honour; the second option here.
    assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$At.options[1]") {
      run(plan("functions_arithmetic", "divide:i32_i32",
          Seq("overflow" -> Seq("ERROR"), "on_division_by_zero" -> Seq("NULL", "NAN")),
          litI32(1), litI32(0)))
    }
  }

  test("listed values are honoured, in any letter case") {
    // 1/3 lies between two doubles; to nearest is the lower (1.0 / 3.0), CEILING the upper.
    assertRows(run(plan("functions_arithmetic", "divide:fp64_fp64", Seq("rounding" -> Seq("CEILING")), litFp64(1.0),
          litFp64(3.0))),
      Seq(Row(Math.nextUp(1.0 / 3.0))))
    assertRows(run(plan("functions_arithmetic", "divide:fp64_fp64", Seq("rounding" -> Seq("truncate")), litFp64(1.0),
          litFp64(3.0))),
      Seq(Row(1.0 / 3.0)))
    assertRows(run(plan("functions_logarithmic", "ln:fp64", Seq("on_domain_error" -> Seq("null")), litFp64(-1.0))),
      Seq(Row(null)))
    val nan =
      run(plan("functions_logarithmic", "ln:fp64", Seq("on_domain_error" -> Seq("NAN")), litFp64(-1.0))).collect()
    assert(nan.head.getDouble(0).isNaN)
  }

  test("logb: a NaN argument is NaN before any domain case; log_inf(inf) is a domain case") {
    val nullOnDomain = Seq("on_domain_error" -> Seq("NULL"))
    val nan =
      run(plan("functions_logarithmic", "logb:fp64_fp64", nullOnDomain, litFp64(-1.0), litFp64(Double.NaN))).collect()
    assert(nan.head.getDouble(0).isNaN)
    assertRows(run(plan("functions_logarithmic", "logb:fp64_fp64", nullOnDomain, litFp64(Double.PositiveInfinity),
          litFp64(Double.PositiveInfinity))), Seq(Row(null)))
    // Correctly rounded without a rounding option too: log_100(3) is 0.23856062735983122; ln 3 / ln 100 in doubles gives …116.
    assertRows(run(plan("functions_logarithmic", "logb:fp64_fp64", Nil, litFp64(3.0), litFp64(100.0))),
      Seq(Row(0.23856062735983122)))
  }

  test("a plan naming no standard extension is checked against every standard YAML defining the function") {
    val pb = new PlanBuilder()
    val ln = pb.fn("extension:example:not_a_standard_yaml", "ln:fp64")
    // Options of a non-standard extension are the mapping's business: here unknown, so unsupported.
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", At) {
      run(one(pb, pb.callWith(ln, Seq("on_domain_error" -> Seq("NONE")), None, litFp64(-1.0))))
    }
    // As DataFusion writes them: the function's extension reference names no declared URN.
    val d = new PlanBuilder()
    val named = one(d,
      d.callWith(d.fn("functions_logarithmic", "ln"), Seq("on_domain_error" -> Seq("NONE")), None, litFp64(-1.0)))
    val b = named.toBuilder.clearExtensionUrns()
    b.getExtensionsBuilder(0).getExtensionFunctionBuilder.setExtensionUrnReference(4)
    assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$At.options[0]")(run(b.build()))
  }

  private def functionError(p: Plan): SubstraitFunctionException = {
    val e = intercept[Exception](run(p).collect())
    causes(e).collectFirst { case f: SubstraitFunctionException =>
      f
    }
      .getOrElse(fail(s"not a function error: $e"))
  }

  test("ERROR options raise the error they ask for, with its condition and the function's place in the plan") {
    val domain =
      functionError(plan("functions_logarithmic", "ln:fp64", Seq("on_domain_error" -> Seq("ERROR")), litFp64(-1.0)))
    assert(domain.getCondition == "SUBSTRAIT_DOMAIN_ERROR" && domain.getLocation == At, domain.getMessage)
    val zero =
      functionError(plan("functions_logarithmic", "log10:fp64", Seq("on_log_zero" -> Seq("ERROR")), litFp64(0.0)))
    assert(zero.getCondition == "SUBSTRAIT_LOG_OF_ZERO", zero.getMessage)
    val sqrt = functionError(plan("functions_arithmetic_decimal", "sqrt:dec", Nil,
        litDecimal(new java.math.BigDecimal("-2.5"), 2, 1)))
    assert(sqrt.getCondition == "SUBSTRAIT_DOMAIN_ERROR", sqrt.getMessage)
    val fact = functionError(plan("functions_arithmetic_decimal", "factorial:dec", Nil,
        litDecimal(new java.math.BigDecimal("34"), 2, 0)))
    assert(fact.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW", fact.getMessage)
    val negative =
      functionError(plan("functions_arithmetic", "factorial:i32", Seq("overflow" -> Seq("ERROR")), litI32(-1)))
    assert(negative.getCondition == "SUBSTRAIT_DOMAIN_ERROR", negative.getMessage)
    val power = functionError(plan("functions_arithmetic", "power:i64_i64", Seq("overflow" -> Seq("ERROR")), litI64(10),
        litI64(19)))
    assert(power.getCondition == "SUBSTRAIT_ARITHMETIC_OVERFLOW" && power.getLocation == At, power.getMessage)
    val complex =
      functionError(plan("functions_arithmetic", "power:fp64_fp64", Seq("complex_number_result" -> Seq("ERROR")),
          litFp64(-1.0), litFp64(0.5)))
    assert(complex.getCondition == "SUBSTRAIT_DOMAIN_ERROR", complex.getMessage)
    // Rows outside the error's reach are computed; NULLs stay NULL.
    val pb = new PlanBuilder()
    val ln = pb.fn("functions_logarithmic", "ln:fp64")
    val rows = run(one(pb, pb.callWith(ln, Seq("on_domain_error" -> Seq("ERROR")), None, field(0)),
        Seq(litFp64(1.0), litNull(fp64())), fp64())).collect()
    assert(rows.toSeq == Seq(Row(0.0), Row(null)))
  }

  test("the runtime error factory refuses a condition that is not a function error") {
    val refused =
      intercept[IllegalArgumentException](SubstraitErrors.functionError("SUBSTRAIT_INVALID_PLAN", "plan", "f", "x"))
    assert(refused.getMessage.contains("SUBSTRAIT_INVALID_PLAN"), refused.getMessage)
    val e: SubstraitException =
      SubstraitErrors.functionError("SUBSTRAIT_DIVISION_BY_ZERO", "relations[0]", "divide", "the divisor is 0")
    assert(e.getMessage.startsWith("[SUBSTRAIT_DIVISION_BY_ZERO] At relations[0]: divide divided by zero"),
      e.getMessage)
    assert(e.getSqlState == "22012")
  }
}
