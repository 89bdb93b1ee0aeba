package io.sparksubstrait
package connect

import java.util.UUID

import com.google.protobuf.{Any => ProtoAny, ByteString, DynamicMessage}
import com.google.protobuf.util.JsonFormat
import io.sparksubstrait.proto.{DynamicParameter, Expression, Plan}

import org.apache.spark.connect.proto.{ExamplePluginRelation, Relation}
import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.classic
import org.apache.spark.sql.connect.planner.SparkConnectPlanner
import org.apache.spark.sql.connect.service.SessionHolder
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.sparkproject.connect.protobuf.{Any => ConnectAny}

import io.sparksubstrait.connect.{SubstraitRelationPayload, SubstraitRelationPlugin}
import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * The Spark Connect relation plugin, called the way Spark Connect's planner calls it (and
 * through the planner itself). The Python client over a real Connect server is
 * tests/test_connect.py.
 */
class ConnectPluginSuite extends SparkSuite with SubstraitAssertions {
  private val pluginConf = "spark.connect.extensions.relation.classes"

  override def beforeAll(): Unit = {
    // Read by Spark Connect's plugin registry from the SparkConf, which takes spark.* system properties.
    System.setProperty(pluginConf, classOf[SubstraitRelationPlugin].getName)
    try super.beforeAll()
    finally System.clearProperty(pluginConf)
    Datasets.registerPeople(spark)
  }

  private lazy val planner = new SparkConnectPlanner(
    SessionHolder("user", UUID.randomUUID().toString, spark.asInstanceOf[classic.SparkSession]), None)
  private val plugin = new SubstraitRelationPlugin

  private def field(name: String) = SubstraitRelationPayload.descriptor.findFieldByName(name)
  private val parameterType = SubstraitRelationPayload.descriptor.findNestedTypeByName("Parameter")

  private def parameter(anchor: Int, value: (String, AnyRef)*): DynamicMessage = {
    val b = DynamicMessage.newBuilder(parameterType).setField(parameterType.findFieldByName("anchor"), Int.box(anchor))
    value.foreach { case (n, v) => b.setField(parameterType.findFieldByName(n), v) }
    b.build()
  }

  private def payload(plan: Either[Plan, String], root: Option[Int] = None, params: Seq[DynamicMessage] = Nil)
    : DynamicMessage = {
    val b = DynamicMessage.newBuilder(SubstraitRelationPayload.descriptor)
    plan.fold(p => b.setField(field("plan_binary"), p.toByteString), j => b.setField(field("plan_json"), j))
    root.foreach(r => b.setField(field("root"), Int.box(r)))
    params.foreach(b.addRepeatedField(field("parameters"), _))
    b.build()
  }

  private def packed(message: DynamicMessage): Array[Byte] = ProtoAny.newBuilder()
    .setTypeUrl(SubstraitRelationPayload.TypeUrl).setValue(message.toByteString).build().toByteArray

  private def transform(any: Array[Byte]): Option[LogicalPlan] = {
    val result = plugin.transform(any, planner)
    if (result.isPresent) Some(result.get) else None
  }

  private def frame(any: Array[Byte]): DataFrame =
    SparkShim.ofRows(spark, transform(any).getOrElse(fail("the plugin did not accept its own payload")))

  /** people WHERE id > $1 (i32) plus a column of $2 (date). */
  private def peoplePlan: Plan = {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    def param(anchor: Int, t: io.sparksubstrait.proto.Type) = Expression.newBuilder()
      .setDynamicParameter(DynamicParameter.newBuilder().setParameterReference(anchor).setType(t)).build()
    val filtered = filter(readNamed(Datasets.peopleSchema, "people"), b.call(gt, PlanBuilder.field(0), param(1, i32())))
    b.plan(project(filtered, param(2, date())), "id", "name", "score", "grp", "d")
  }

  test("an Any that is not ours gives empty, never an error") {
    val foreign = ProtoAny.pack(com.google.protobuf.StringValue.of("hello")).toByteArray
    assert(transform(foreign).isEmpty)
    val example = ProtoAny.newBuilder().setTypeUrl("type.googleapis.com/spark.connect.ExamplePluginRelation")
      .setValue(ByteString.copyFrom(
          ExamplePluginRelation.newBuilder().setCustomField("x").build().toByteArray)).build().toByteArray
    assert(transform(example).isEmpty)
    // A type URL naming another message that ends like ours is not ours either.
    val lookalike = ProtoAny.newBuilder().setTypeUrl("type.googleapis.com/other.SubstraitRelation")
      .setValue(payload(Left(peoplePlan)).toByteString).build().toByteArray
    assert(transform(lookalike).isEmpty)
    assert(transform(Array[Byte](1, 2, 3, -1)).isEmpty) // not an Any at all
    assert(transform(Array.emptyByteArray).isEmpty) // an empty Any
  }

  test("binary and JSON plans with parameter values give the rows of the same SQL") {
    val params = Seq(parameter(1, "int_value" -> Long.box(1L)), parameter(2, "string_value" -> "2024-01-31"))
    val expected = spark.sql("SELECT *, DATE'2024-01-31' AS d FROM people WHERE id > 1")
    assertSameRows(frame(packed(payload(Left(peoplePlan), params = params))), expected)
    val json = JsonFormat.printer().print(peoplePlan)
    assertSameRows(frame(packed(payload(Right(json), params = params))), expected)
    // NULL, booleans and doubles are values too (cast to the parameter's type).
    val nulls =
      Seq(parameter(1, "is_null" -> java.lang.Boolean.TRUE), parameter(2, "is_null" -> java.lang.Boolean.TRUE))
    assert(frame(packed(payload(Left(peoplePlan), params = nulls))).collect().isEmpty)
    val double = Seq(parameter(1, "double_value" -> Double.box(3.0)), parameter(2, "is_null" -> java.lang.Boolean.TRUE))
    assertSameRows(frame(packed(payload(Left(peoplePlan), params = double))),
      spark.sql("SELECT *, CAST(NULL AS DATE) AS d FROM people WHERE id > 3"))
  }

  test("root selects one root of several") {
    val b = new PlanBuilder()
    val plus10 = b.plan(project(readNamed(Datasets.peopleSchema, "people"),
        b.call(b.fn("functions_arithmetic", "add:i32_i32"),
          PlanBuilder.field(0), litI32(10))), "id", "name", "score", "grp", "id10")
    val plain = new PlanBuilder().plan(readNamed(Datasets.peopleSchema, "people"), "id", "name", "score", "grp")
    val both = plus10.toBuilder.addRelations(plain.getRelations(0)).build()
    assertSameRows(frame(packed(payload(Left(both), root = Some(0)))), spark.sql("SELECT *, id + 10 FROM people"))
    assertSameRows(frame(packed(payload(Left(both), root = Some(1)))), spark.sql("SELECT * FROM people"))
    assertPlanError("SUBSTRAIT_NO_ROOT", "relations")(frame(packed(payload(Left(both)))).collect())
  }

  test("Spark Connect's planner runs the plugin from the registry") {
    val any = ConnectAny.parseFrom(packed(payload(Left(peoplePlan),
          params = Seq(parameter(1, "int_value" -> Long.box(2L)), parameter(2, "string_value" -> "2000-02-29")))))
    val logical = planner.transformRelation(Relation.newBuilder().setExtension(any).build())
    assertSameRows(SparkShim.ofRows(spark, logical), spark.sql("SELECT *, DATE'2000-02-29' FROM people WHERE id > 2"))
  }

  test("a payload of ours that cannot be used is the project's error") {
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "plan")(transform(packed(payload(Right("x")).toBuilder
            .clearField(field("plan_json")).build())))
    assertPlanError("SUBSTRAIT_MALFORMED_PLAN", "plan")(frame(packed(payload(Right("{not json")))).collect())
    assertPlanError("SUBSTRAIT_MALFORMED_PLAN", "plan")(
      frame(packed(DynamicMessage.newBuilder(SubstraitRelationPayload.descriptor)
            .setField(field("plan_binary"), ByteString.copyFrom(Array[Byte](1, 2, 3))).build())).collect())
    val undecodable = ProtoAny.newBuilder().setTypeUrl(SubstraitRelationPayload.TypeUrl)
      .setValue(ByteString.copyFrom(Array[Byte](0x0a, 0x7f))).build().toByteArray
    assert(intercept[io.sparksubstrait.errors.SubstraitException](transform(undecodable)).getMessage.contains(
        "cannot be decoded"))
    // A field this server does not know (a newer client?) is refused, not dropped.
    val unknown = payload(Left(peoplePlan)).toBuilder.setUnknownFields(com.google.protobuf.UnknownFieldSet.newBuilder()
        .addField(9, com.google.protobuf.UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build()).build()
    assert(assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "plan")(transform(packed(unknown))).getMessage.contains(
        "field number(s) 9"))
    val twice = Seq(parameter(1, "int_value" -> Long.box(1L)), parameter(1, "int_value" -> Long.box(2L)))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "plan")(transform(packed(payload(Left(peoplePlan), params = twice))))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "plan")(transform(packed(payload(Left(peoplePlan),
            params = Seq(parameter(1))))))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "plan")(transform(packed(payload(Left(peoplePlan),
            params = Seq(parameter(1, "is_null" -> java.lang.Boolean.FALSE))))))
    // A value that does not fit the parameter's type: the location of the parameter in the plan.
    val e = assertPlanError("SUBSTRAIT_TYPE_MISMATCH",
      "relations[0].root.input.project.input.filter.condition.scalar_function.arguments[1].value.dynamic_parameter.parameter_reference")(
      frame(packed(payload(Left(peoplePlan),
            params = Seq(parameter(1, "string_value" -> "one"),
              parameter(2, "is_null" -> java.lang.Boolean.TRUE))))).collect())
    assert(e.getMessageParameters.get("location") == e.getLocation)
    assert(spark.sql("SELECT count(*) FROM people").collect().head == Row(7L))
  }

  test("the Python client tells unsupported from invalid as the JVM does, for every condition") {
    val python = new String(
      java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("python/spark_substrait/_errors.py")), "UTF-8")
    val block = "(?s)_UNSUPPORTED_CONDITIONS = frozenset\\(\\{(.*?)\\}\\)".r.findFirstMatchIn(python)
      .getOrElse(fail("no _UNSUPPORTED_CONDITIONS in _errors.py")).group(1)
    val mirrored = "\"(SUBSTRAIT_[A-Z_]+)\"".r.findAllMatchIn(block).map(_.group(1)).toSet
    val json = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(
          "jvm/src/main/resources/io/sparksubstrait/error-conditions.json")), "UTF-8")
    val all = "\"(SUBSTRAIT_[A-Z_]+)\"".r.findAllMatchIn(json).map(_.group(1)).toSet
    assert(all.size >= 10)
    assert(mirrored == io.sparksubstrait.errors.SubstraitErrors.unsupportedConditions)
    assert(mirrored.subsetOf(all))
  }
}
