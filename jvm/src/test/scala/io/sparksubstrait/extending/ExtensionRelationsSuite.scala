package io.sparksubstrait
package extending

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.ObjectMapper
import com.google.protobuf.{Any => ProtoAny, ByteString, Int64Value, Message, StringValue}
import io.sparksubstrait.proto.{Plan, Rel}
import org.apache.spark.sql.Row

import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.extending.examples._
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Extension relations read, and written, by the session's handlers (docs/extending.md): the
 * example handlers of `examples/` (a leaf, a single- and a multi-input relation) checked
 * against Spark SQL's rows, a DataFrame written through a handler and read back, and every
 * way a setting or a handler can fail, each the project's error at the relation.
 */
class ExtensionRelationsSuite extends SparkSuite with SubstraitAssertions {
  private val Key = ExtensionRelations.Key

  /** The setting naming `handlers`: objects by their name with and without the `$`, a class by its name. */
  private def registered(handlers: AnyRef*): String = handlers.map(_.getClass.getName).zipWithIndex.map {
    case (name, i) => if (i % 2 == 0) name.stripSuffix("$") else name
  }.mkString(",")

  private val examples = registered(TextRows, Series, new HashSample, TaggedUnion, SampleRelation, NestedPlanLeaf)

  /** A detail under `typeUrl` holding `message`'s bytes (a handler's own type URL, a well-known message's encoding). */
  private def detail(typeUrl: String, message: Message): ProtoAny =
    ProtoAny.newBuilder().setTypeUrl(typeUrl).setValue(message.toByteString).build()

  private val kw = schema("k" -> i32(), "w" -> string())

  private def nestedPlan(plan: Plan): ProtoAny =
    ProtoAny.newBuilder().setTypeUrl(NestedPlanLeaf.TypeUrl).setValue(plan.toByteString).build()

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("CREATE OR REPLACE TEMP VIEW samples AS SELECT * FROM VALUES (1, 'a'), (2, 'b'), (2, 'b'), " +
      "(NULL, 'n'), (3, NULL), (4, 'd'), (5, 'e'), (6, 'f'), (7, 'g'), (8, 'h') AS t(k, w)")
  }

  test("a leaf from its payload alone: a list's rows with NULLs and duplicates, no row for an empty one") {
    withConf(Key, examples) {
      val b = new PlanBuilder()
      val letters = extensionLeaf(ProtoAny.pack(StringValue.of("a,b,,b")))
      val values = "SELECT * FROM VALUES ('a'), ('b'), (NULL), ('b') AS t(value)"
      assertSameRows(run(b.plan(letters, "value")), spark.sql(values))
      // Composed with the relations above it: a count per value.
      val counted = aggregate(letters, Seq(field(0)),
        Seq(b.measure(b.fn("functions_aggregate_generic", "count_star:"), Nil)))
      assertSameRows(run(b.plan(counted, "value", "n")),
        spark.sql(s"SELECT value, count(*) FROM ($values) GROUP BY value"))
      assertRows(run(b.plan(extensionLeaf(ProtoAny.pack(StringValue.of(""))), "value")), Nil)
      assertRows(run(b.plan(extensionLeaf(ProtoAny.pack(Int64Value.of(4))), "id")), (0L until 4L).map(Row(_)))
      assertRows(run(b.plan(extensionLeaf(ProtoAny.pack(Int64Value.of(0))), "id")), Nil)
      // A whole Substrait plan as the payload, read through this project's API.
      val nested = new PlanBuilder().plan(readVirtual(kw,
          Seq(Seq(litI32(1), litString("a")),
            Seq(litNull(i32()), litNull(string())))), "k", "w")
      assertRows(run(b.plan(extensionLeaf(nestedPlan(nested)), "k", "w")), Seq(Row(1, "a"), Row(null, null)))
    }
  }

  test("a single-input relation: a sample by a column's hash, as SQL's pmod(hash(k), n) = 0, NULLs and duplicates in") {
    withConf(Key, examples) {
      val b = new PlanBuilder()
      val sampled = extensionSingle(readNamed(kw, "samples"), detail(HashSample.TypeUrl, Int64Value.of(2)))
      val expected = spark.sql("SELECT * FROM samples WHERE pmod(hash(k), 2) = 0")
      val kept = expected.count()
      assert(kept > 0 && kept < 10, s"a sample that keeps $kept of 10 rows proves little")
      assertSameRows(run(b.plan(sampled, "k", "w")), expected)
      val ofNothing = extensionSingle(readVirtual(kw, Nil), detail(HashSample.TypeUrl, Int64Value.of(2)))
      assertRows(run(b.plan(ofNothing, "k", "w")), Nil)
    }
  }

  test("a multi-input relation: a tagged union of three inputs, one empty, with NULLs and duplicates") {
    withConf(Key, examples) {
      val b = new PlanBuilder()
      val first = readVirtual(kw,
        Seq(Seq(litI32(1), litString("a")), Seq(litI32(1), litString("a")),
          Seq(litNull(i32()), litString("x"))))
      val union = extensionMulti(detail(TaggedUnion.TypeUrl, StringValue.of("source")), first, readVirtual(kw, Nil),
        readNamed(kw, "samples"))
      val expected = spark.sql("SELECT *, 0 AS source FROM VALUES (1, 'a'), (1, 'a'), (NULL, 'x') AS t(k, w) " +
        "UNION ALL SELECT *, 2 FROM samples")
      assertSameRows(run(b.plan(union, "k", "w", "source")), expected)
      // The relation's emit selects from (and reorders) its record, as for any relation.
      assertSameRows(run(b.plan(emit(union, 2, 0), "source", "k")), expected.select("source", "k"))
    }
  }

  test("written: a node a handler claims becomes its extension relation and reads back to the same rows") {
    withConf(Key, examples) {
      val df = spark.range(100).toDF().sample(withReplacement = false, 0.3, 7)
      val bytes = SubstraitPlans.write(df)
      val root = Plan.parseFrom(bytes).getRelations(0).getRoot.getInput
      assert(root.getRelTypeCase == Rel.RelTypeCase.EXTENSION_SINGLE, root)
      assert(root.getExtensionSingle.getDetail.getTypeUrl == SampleRelation.TypeUrl)
      val leaf = root.getExtensionSingle.getInput
      assert(leaf.getRelTypeCase == Rel.RelTypeCase.EXTENSION_LEAF && leaf.getExtensionLeaf.getDetail.unpack(
          classOf[Int64Value]).getValue == 100L, leaf)
      val expected = df.collect().toSeq
      assert(expected.size > 10 && expected.size < 90, s"a sample of ${expected.size} rows of 100 proves little")
      assertRows(SubstraitPlans.read(spark, bytes), expected)
      assertSameRows(SubstraitPlans.read(spark, bytes),
        spark.sql("SELECT * FROM (SELECT * FROM range(100)) TABLESAMPLE (30 PERCENT) REPEATABLE (7)"))
      // Protobuf's JSON encoding spells an Any by its message, which only the handler knows.
      val json = intercept[SubstraitException](SubstraitPlans.writeJson(df))
      assert(json.getCondition == "SUBSTRAIT_UNWRITABLE_PLAN" && json.getMessage.contains("binary encoding"),
        json.getMessage)
      // A range the handler does not claim stays unwritable.
      val other = intercept[SubstraitException](SubstraitPlans.write(spark.range(2, 10).toDF()))
      assert(other.getCondition == "SUBSTRAIT_UNWRITABLE_PLAN", other.getMessage)
    }
    val none = intercept[SubstraitException](SubstraitPlans.write(spark.range(5).toDF()))
    assert(none.getCondition == "SUBSTRAIT_UNWRITABLE_PLAN", none.getMessage)
  }

  test("explain names the handler that read an extension relation") {
    withConf(Key, examples) {
      val plan = new PlanBuilder().plan(extensionSingle(extensionLeaf(ProtoAny.pack(Int64Value.of(10))),
          ProtoAny.newBuilder().setTypeUrl(SampleRelation.TypeUrl)
            .setValue(ByteString.copyFrom(SampleRelation.payload(0.5, 1))).build()), "id")
      val doc = new ObjectMapper().readTree(SubstraitPlans.explain(spark, plan.toByteArray, null, null))
      val relations = doc.get("relations").elements().asScala.toSeq
      def texts(kind: String, field: String) =
        relations.filter(_.get("kind").asText == kind).flatMap(_.get(field).elements().asScala.map(_.asText))
      assert(texts("extension_single", "details") == Seq(s"detail ${SampleRelation.TypeUrl}"))
      assert(texts("extension_single", "notes") ==
        Seq("read by io.sparksubstrait.extending.examples.SampleRelation (spark.substrait.extensionRelations)"))
      assert(texts("extension_single", "operators") == Seq("Sample"))
      assert(texts("extension_leaf", "notes").exists(_.contains("examples.Series")))
    }
  }

  test("an unregistered type URL is refused, naming it and how to register a handler") {
    val b = new PlanBuilder()
    val letters = extensionLeaf(ProtoAny.pack(StringValue.of("a")))
    val e = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.extension_leaf") {
      run(b.plan(letters, "value"))
    }
    Seq(TextRows.TypeUrl, Key, "docs/extending.md", "none is registered").foreach(s =>
      assert(e.getMessage.contains(s), e.getMessage))
    withConf(Key, registered(Series)) {
      val below =
        assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.filter.input.extension_leaf") {
          run(b.plan(filter(letters, litBool(true)), "value"))
        }
      assert(below.getMessage.contains(s"examples.Series reads ${Series.TypeUrl}"), below.getMessage)
    }
    val bare = Rel.newBuilder().setExtensionSingle(io.sparksubstrait.proto.ExtensionSingleRel.newBuilder()
        .setInput(readVirtual(kw, Nil))).build()
    val noDetail = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.extension_single") {
      run(b.plan(bare, "k", "w"))
    }
    assert(noDetail.getMessage.contains("extension_single without a detail"), noDetail.getMessage)
  }

  test("a setting naming a missing class, a class that is no handler, or one URL twice is the setting's error") {
    val plan = new PlanBuilder().plan(extensionLeaf(ProtoAny.pack(StringValue.of("a"))), "value")
    def settingError(value: String, says: String): Unit = withConf(Key, value) {
      val e = assertPlanError("SUBSTRAIT_INVALID_SETTING", "relations[0].root.input.extension_leaf")(run(plan))
      assert(e.getMessage.contains(Key) && e.getMessage.contains(says), e.getMessage)
    }
    settingError("org.example.NoSuchHandler", "org.example.NoSuchHandler was not found")
    settingError(s"${registered(TextRows)}, java.lang.StringBuilder",
      "java.lang.StringBuilder is a java.lang.StringBuilder, not a ExtensionRelation")
    settingError(registered(TextRows, SecondTextRows),
      s"${TextRows.TypeUrl} is claimed by io.sparksubstrait.extending.examples.TextRows and " +
        "io.sparksubstrait.extending.examples.SecondTextRows")
    // A plan without extension relations never reads the setting.
    withConf(Key, "org.example.NoSuchHandler") {
      assertRows(run(new PlanBuilder().plan(readVirtual(kw, Seq(Seq(litI32(1), litString("a")))), "k", "w")),
        Seq(Row(1, "a")))
    }
  }

  test("a handler that throws, returns an unresolved plan or is given the wrong inputs: SUBSTRAIT_EXTENSION_FAILED") {
    val b = new PlanBuilder()
    withConf(Key, s"$examples,${registered(ThrowingRelation, UnresolvedPlanRelation)}") {
      def failed(rel: Rel, at: String, says: String*): Unit = {
        val e = assertPlanError("SUBSTRAIT_EXTENSION_FAILED", at)(run(b.plan(rel, "k", "w")))
        says.foreach(s => assert(e.getMessage.contains(s), e.getMessage))
      }
      failed(extensionLeaf(detail(ThrowingRelation.TypeUrl, StringValue.of("x"))),
        "relations[0].root.input.extension_leaf", "examples.ThrowingRelation",
        "IllegalStateException: the payload is not what this handler writes")
      failed(extensionLeaf(detail(UnresolvedPlanRelation.TypeUrl, StringValue.of("x"))),
        "relations[0].root.input.extension_leaf", "examples.UnresolvedPlanRelation", "not resolved")
      // HashSample reads one input; here it is given two.
      failed(extensionMulti(detail(HashSample.TypeUrl, Int64Value.of(2)), readVirtual(kw, Nil), readVirtual(kw, Nil)),
        "relations[0].root.input.extension_multi", "examples.HashSample", "one input, not 2")
      // The handler's own SubstraitException (the nested plan's error) passes as it is.
      val nestedError = intercept[SubstraitException](run(b.plan(extensionLeaf(nestedPlan(
                new PlanBuilder().plan(filter(readVirtual(kw, Nil), litI32(1)), "k", "w"))), "k", "w")))
      assert(nestedError.getCondition == "SUBSTRAIT_TYPE_MISMATCH" &&
          nestedError.getLocation == "relations[0].root.input.filter.condition", nestedError.getMessage)
      // A payload that is not the handler's message.
      failed(
        extensionSingle(readVirtual(kw, Nil),
          ProtoAny.newBuilder().setTypeUrl(HashSample.TypeUrl).setValue(ByteString.copyFrom(Array[Byte](-1, -1)))
            .build()),
        "relations[0].root.input.extension_single", "examples.HashSample", "InvalidProtocolBufferException")
    }
  }

  test("writing: a handler that writes a type URL it does not read is SUBSTRAIT_EXTENSION_FAILED") {
    withConf(Key, registered(ForeignWriter)) {
      val e = intercept[SubstraitException](SubstraitPlans.write(spark.range(3).toDF()))
      assert(e.getCondition == "SUBSTRAIT_EXTENSION_FAILED", e.getMessage)
      assert(e.getMessage.contains("type.googleapis.com/org.example.Written") &&
          e.getMessage.contains("examples.ForeignWriter"), e.getMessage)
    }
  }
}
