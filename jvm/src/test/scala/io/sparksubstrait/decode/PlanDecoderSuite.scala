package io.sparksubstrait
package decode

import com.google.protobuf.{ByteString, UnknownFieldSet}
import com.google.protobuf.util.JsonFormat
import io.sparksubstrait.proto.{Plan, SimpleExtensionURN}
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Binary and JSON plans, and the fields older spec versions wrote that the current proto removed. */
class PlanDecoderSuite extends SparkSuite with SubstraitAssertions {
  private val rows = Seq(Seq(litI32(1)), Seq(litI32(5)), Seq(litNull(i32())), Seq(litI32(5)))

  /** `x > 2` over a virtual table, with the function declared by URN. */
  private def modernPlan(): Plan = {
    val b = new PlanBuilder()
    b.plan(filter(readVirtual(schema("x" -> i32()), rows),
        b.call(b.fn("functions_comparison", "gt:i32_i32"), field(0), litI32(2))), "x")
  }

  /** The same plan with the declaration in the pre-URN form: extension_uris + extension_uri_reference (field 1 of each). */
  private def legacyBinaryPlan(uri: String): Array[Byte] = {
    val modern = modernPlan()
    val uriMessage = SimpleExtensionURN.newBuilder().setExtensionUrnAnchor(7).setUrn(uri).build().toByteString
    val b = modern.toBuilder.clearExtensionUrns()
    b.setUnknownFields(UnknownFieldSet.newBuilder().addField(1,
        UnknownFieldSet.Field.newBuilder().addLengthDelimited(uriMessage).build()).build())
    val fn = b.getExtensionsBuilder(0).getExtensionFunctionBuilder.clearExtensionUrnReference()
    fn.setUnknownFields(UnknownFieldSet.newBuilder().addField(1,
        UnknownFieldSet.Field.newBuilder().addVarint(7).build()).build())
    b.build().toByteArray
  }

  test("binary and JSON encodings of the same plan give the same rows") {
    val plan = modernPlan()
    assertRows(SubstraitPlans.read(spark, plan.toByteArray), Seq(Row(5), Row(5)))
    assertRows(SubstraitPlans.readJson(spark, JsonFormat.printer().print(plan)), Seq(Row(5), Row(5)))
  }

  test("legacy extension URIs (binary): GitHub URL, bare file name, and a folder URI resolved by name") {
    for (uri <- Seq("https://github.com/substrait-io/substrait/blob/main/extensions/functions_comparison.yaml",
        "/functions_comparison.yaml", "https://github.com/substrait-io/substrait/blob/main/extensions/")) {
      assertRows(SubstraitPlans.read(spark, legacyBinaryPlan(uri)), Seq(Row(5), Row(5)))
    }
  }

  test("legacy extension URIs (JSON, camelCase and snake_case), as DuckDB writes them") {
    val json = JsonFormat.printer().print(modernPlan())
      .replace("\"extensionUrns\"", "\"extensionUris\"").replace("\"extensionUrnAnchor\"", "\"extensionUriAnchor\"")
      .replace("\"urn\": \"extension:io.substrait:functions_comparison\"", "\"uri\": \"/functions_comparison.yaml\"")
      .replace("\"extensionUrnReference\"", "\"extensionUriReference\"")
    assert(json.contains("extensionUriReference"))
    assertRows(SubstraitPlans.readJson(spark, json), Seq(Row(5), Row(5)))
    val snake = json.replace("\"extensionUris\"", "\"extension_uris\"").replace("\"extensionUriReference\"",
      "\"extension_uri_reference\"")
    assertRows(SubstraitPlans.readJson(spark, snake), Seq(Row(5), Row(5)))
  }

  test("a function from a URI that names another extension is not resolved by its name") {
    assertPlanError("SUBSTRAIT_UNKNOWN_FUNCTION", "relations[0].root.input.filter.condition.scalar_function") {
      SubstraitPlans.read(spark, legacyBinaryPlan("https://example.com/my_functions.yaml"))
    }
  }

  test("any other unknown field is refused, naming where it is (binary and JSON)") {
    val plan = modernPlan()
    val b = plan.toBuilder
    val filterRel = b.getRelationsBuilder(0).getRootBuilder.getInputBuilder.getFilterBuilder
    filterRel.setUnknownFields(UnknownFieldSet.newBuilder().addField(99,
        UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build())
    val e = assertPlanError("SUBSTRAIT_UNKNOWN_FIELD", "relations[0].root.input.filter") {
      SubstraitPlans.read(spark, b.build().toByteArray)
    }
    assert(e.getMessage.contains("number 99 of substrait.FilterRel"))
    val json = JsonFormat.printer().print(plan).replaceFirst("\"condition\"", "\"mystery\": 1, \"condition\"")
    val je = intercept[errors.SubstraitException](SubstraitPlans.readJson(spark, json))
    assert(je.getCondition == "SUBSTRAIT_MALFORMED_PLAN" && je.getMessage.contains("mystery"), je.getMessage)
  }

  test("malformed input: random bytes, truncated plan, not JSON, null") {
    val good = modernPlan().toByteArray
    for (bytes <- Seq(Array[Byte](1, 2, 3, -1, -1), good.take(good.length / 2))) {
      val e = intercept[errors.SubstraitException](SubstraitPlans.read(spark, bytes))
      assert(e.getCondition == "SUBSTRAIT_MALFORMED_PLAN" && e.getLocation == "plan", e.getMessage)
      assert(e.getMessage.startsWith("[SUBSTRAIT_MALFORMED_PLAN] At plan: cannot decode") &&
          !e.getMessage.contains(".."), e.getMessage)
    }
    assert(intercept[errors.SubstraitException](SubstraitPlans.readJson(spark, "{not json")).getCondition ==
      "SUBSTRAIT_MALFORMED_PLAN")
    // JSON that ends early: the parser's words, without the Java class it threw.
    val cut = intercept[errors.SubstraitException](SubstraitPlans.readJson(spark, "{\"relations\": ["))
    assert(
      cut.getMessage.startsWith("[SUBSTRAIT_MALFORMED_PLAN] At plan: cannot decode the Substrait plan (JSON): " +
        "End of input at line 1 column 16"), cut.getMessage)
    assert(!cut.getMessage.contains("java.") && !cut.getMessage.contains("Exception"), cut.getMessage)
    assert(intercept[errors.SubstraitException](SubstraitPlans.readJson(spark, "[1]")).getCondition ==
      "SUBSTRAIT_MALFORMED_PLAN")
    assert(intercept[errors.SubstraitException](SubstraitPlans.read(spark, null)).getCondition ==
      "SUBSTRAIT_MALFORMED_PLAN")
    assert(spark.sql("SELECT 1").count() == 1)
  }

  test("legacy ByteString sanity: decimal literal bytes survive both encodings") {
    val d = litDecimal(new java.math.BigDecimal("-1.25"), 5, 2)
    assert(d.getLiteral.getDecimal.getValue.size() == 16 && d.getLiteral.getDecimal.getValue != ByteString.EMPTY)
  }
}
