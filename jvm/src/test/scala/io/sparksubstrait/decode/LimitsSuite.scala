package io.sparksubstrait
package decode

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message
import com.google.protobuf.util.JsonFormat
import io.sparksubstrait.proto.Plan
import org.apache.spark.sql.Row

import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Limits on nesting depth and size: deep or huge plans are refused with our error before
 * anything recurses, and plans within the default depth run on a small thread stack.
 */
class LimitsSuite extends SparkSuite with SubstraitAssertions {
  private val base = readVirtual(schema("x" -> i32(), "y" -> i32()),
    Seq(Seq(litI32(1), litI32(2)), Seq(litI32(5), litNull(i32())), Seq(litI32(5), litNull(i32()))))

  /** `n` filters `x > -i` stacked on each other: the relation shape that needs the most stack per level. */
  private def filters(n: Int): Plan = {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    b.plan((0 until n).foldLeft(base)((r, i) => filter(r, b.call(gt, field(0), litI32(-i)))), "x", "y")
  }

  /** `x + 1 + 1 + …` nested `n` deep. */
  private def additions(n: Int): Plan = {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    b.plan(project(base, (0 until n).foldLeft(field(0))((e, _) => b.call(add, e, litI32(1)))), "x", "y", "z")
  }

  /** Message nesting depth as PlanLimits counts it (the Plan is 0); recursive, on the test's 8 MB stack. */
  private def depth(m: Message): Int = {
    val children = m.getAllFields.asScala.values.flatMap {
      case l: java.util.List[_] => l.asScala.collect { case c: Message => c }
      case c: Message => Seq(c)
      case _ => Nil
    }
    if (children.isEmpty) 0 else 1 + children.map(depth).max
  }

  /** Runs `body` on a thread with `stackKb` of stack: what Py4J or a small-stack driver gives a conversion. */
  private def onStack[T](stackKb: Int)(body: => T): Either[Throwable, T] = {
    var result: Either[Throwable, T] = Left(new IllegalStateException("did not run"))
    val t = new Thread(null,
      () =>
        result = try Right(body)
        catch { case e: Throwable => Left(e) }, "small-stack", stackKb * 1024L)
    t.start()
    t.join()
    result
  }

  private def assertTooLarge(result: Either[Throwable, Any], mentions: String*): SubstraitException = result match {
    case Left(e: SubstraitException) =>
      assert(e.getCondition == "SUBSTRAIT_PLAN_TOO_LARGE" && e.getLocation == "plan", e.getMessage)
      mentions.foreach(m => assert(e.getMessage.contains(m), e.getMessage))
      assert(spark.sql("SELECT 1").collect().head.getInt(0) == 1)
      e
    case other => fail(s"expected SUBSTRAIT_PLAN_TOO_LARGE, got $other")
  }

  test("the deepest filter chain within the default depth runs on a 512 KB stack; one filter more is refused") {
    val n = Iterator.from(1).find(i => depth(filters(i + 1)) > PlanLimits.DefaultMaxDepth).get
    assert(depth(filters(n)) <= PlanLimits.DefaultMaxDepth && n > 100)
    val rows = onStack(512)(SubstraitPlans.read(spark, filters(n).toByteArray).collect().toSeq)
    assert(rows == Right(Seq(Row(1, 2), Row(5, null), Row(5, null))), rows)
    assertTooLarge(onStack(512)(SubstraitPlans.read(spark, filters(n + 1).toByteArray)),
      s"more than ${PlanLimits.DefaultMaxDepth} levels", PlanLimits.MaxDepthKey)
  }

  test("the deepest expression within the default depth runs on a 512 KB stack; one level more is refused") {
    val n = Iterator.from(1).find(i => depth(additions(i + 1)) > PlanLimits.DefaultMaxDepth).get
    val rows = onStack(512)(SubstraitPlans.read(spark, additions(n).toByteArray).collect().toSeq)
    assert(rows == Right(Seq(Row(1, 2, 1 + n), Row(5, null, 5 + n), Row(5, null, 5 + n))), rows)
    assertTooLarge(onStack(512)(SubstraitPlans.read(spark, additions(n + 1).toByteArray)), PlanLimits.MaxDepthKey)
  }

  test("10,000 filters and an expression nested 10,000 deep are refused, binary and JSON, on a 512 KB stack") {
    // Writing such plans recurses in protobuf itself: the test does it on a big stack.
    def big[T](body: => T): T = onStack(512 * 1024)(body).fold(throw _, identity)
    for (make <- Seq[Int => Plan](filters, additions)) {
      val (bytes, json) =
        big { val p = make(10000); (p.toByteArray, JsonFormat.printer().omittingInsignificantWhitespace().print(p)) }
      assertTooLarge(onStack(512)(SubstraitPlans.read(spark, bytes)), PlanLimits.MaxDepthKey)
      // With the limit raised far beyond the stack, protobuf's own recursion overflows: still our error.
      assertTooLarge(onStack(512)(PlanDecoder.fromBytes(bytes, PlanLimits(100000, Long.MaxValue))), "thread's stack")
      assertTooLarge(onStack(512)(SubstraitPlans.readJson(spark, json)), "JSON nested", "binary encoding")
    }
  }

  /** Nesting of JSON objects and arrays, counted independently of the decoder (recursive: small plans only). */
  private def jsonDepth(json: String): Int = {
    def walk(n: com.fasterxml.jackson.databind.JsonNode): Int =
      if (n.isContainerNode) 1 + n.elements().asScala.map(walk).foldLeft(0)(math.max) else 0
    walk(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json))
  }

  test(
    "JSON plans: up to 255 nested JSON levels run on a 512 KB stack; one level more is refused, naming the binary encoding") {
    def json(n: Int) = JsonFormat.printer().print(filters(n))
    val n = Iterator.from(1).find(i => jsonDepth(json(i + 1)) > 255).get
    assert(jsonDepth(json(n)) <= 255 && n > 100)
    val rows = onStack(512)(SubstraitPlans.readJson(spark, json(n)).collect().toSeq)
    assert(rows == Right(Seq(Row(1, 2), Row(5, null), Row(5, null))), rows)
    assertTooLarge(onStack(512)(SubstraitPlans.readJson(spark, json(n + 1))),
      "levels deep, over the limit of 255 levels for JSON plans", "binary encoding")
    // The same plan in binary is within spark.substrait.maxPlanDepth.
    assert(SubstraitPlans.read(spark, filters(n + 1).toByteArray).count() == 3)
  }

  test("the depth setting is exact: a plan at the limit converts, one level below it is refused") {
    val plan = filters(20)
    val d = depth(plan)
    withConf(PlanLimits.MaxDepthKey, d.toString) {
      assertRows(run(plan), Seq(Row(1, 2), Row(5, null), Row(5, null)))
      assertRows(SubstraitPlans.readJson(spark, JsonFormat.printer().print(plan)),
        Seq(Row(1, 2), Row(5, null), Row(5, null)))
    }
    withConf(PlanLimits.MaxDepthKey, (d - 1).toString) {
      assertTooLarge(Left(intercept[SubstraitException](run(plan))), s"more than ${d - 1} levels")
      assertTooLarge(Left(intercept[SubstraitException](SubstraitPlans.readJson(spark,
              JsonFormat.printer().print(plan)))),
        s"more than ${d - 1} levels")
    }
  }

  test("plan size: binary bytes and JSON characters over spark.substrait.maxPlanBytes are refused") {
    val plan = filters(3)
    val bytes = plan.toByteArray
    val json = JsonFormat.printer().print(plan)
    withConf(PlanLimits.MaxBytesKey, bytes.length.toString) { assert(run(plan).count() == 3) }
    withConf(PlanLimits.MaxBytesKey, (bytes.length - 1).toString) {
      assertTooLarge(Left(intercept[SubstraitException](run(plan))), s"a plan of ${bytes.length} bytes",
        PlanLimits.MaxBytesKey)
    }
    withConf(PlanLimits.MaxBytesKey, "1k") {
      assertTooLarge(Left(intercept[SubstraitException](SubstraitPlans.readJson(spark, json))),
        s"a plan of ${json.length} characters", "1024 characters")
    }
    withConf(PlanLimits.MaxBytesKey, "16m") { assert(SubstraitPlans.readJson(spark, json).count() == 3) }
  }

  test("SQL table functions obey the session's limits") {
    val hex = filters(3).toByteArray.map("%02x".format(_)).mkString
    withConf(PlanLimits.MaxBytesKey, "10") {
      val e = intercept[SubstraitException](spark.sql(s"SELECT * FROM substrait(X'$hex')").collect())
      assert(e.getCondition == "SUBSTRAIT_PLAN_TOO_LARGE", e.getMessage)
    }
    assert(spark.sql(s"SELECT * FROM substrait(X'$hex')").count() == 3)
  }

  test("a setting that is not a positive number is our error naming the setting") {
    for ((key, value) <-
        Seq(PlanLimits.MaxDepthKey -> "deep", PlanLimits.MaxDepthKey -> "0", PlanLimits.MaxBytesKey -> "-5")) {
      withConf(key, value) {
        val e = intercept[SubstraitException](run(filters(1)))
        assert(e.getCondition == "SUBSTRAIT_INVALID_SETTING" && e.getMessage.contains(key) &&
            e.getMessage.contains(value), e.getMessage)
      }
    }
  }

  test(
    "a conversion that still exhausts its thread's stack (limit raised too far) is our error, and the session answers") {
    // 5,000 filters: 500 fit a 256 KB stack once the JIT has compiled the converters (a full
    // test run in CI did), so the chain must overflow however warm the JVM is. Decoded on a
    // large stack: the conversion is what this test exhausts.
    withConf(PlanLimits.MaxDepthKey, "100000") {
      val decoded = onStack(64 * 1024)(PlanDecoder.fromBytes(filters(5000).toByteArray,
          PlanLimits(100000,
            Long.MaxValue))).fold(e => throw e, identity)
      assertTooLarge(onStack(256)(ReadPipeline.read(spark, decoded)), "thread's stack")
    }
  }
}
