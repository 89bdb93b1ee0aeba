package io.sparksubstrait
package session

import java.util.concurrent.{Callable, CountDownLatch, Executors, TimeUnit}

import com.google.protobuf.util.JsonFormat
import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * One session, 8 threads, 200 plans each (binary, JSON and SQL, valid and invalid): every
 * result equals the serial run's. Converters keep no state between plans (each conversion
 * has its own ConversionContext), so nothing may leak from one thread's plan into another.
 */
class ConcurrencySuite extends SparkSuite {

  /**
   * Plan number `k`: one of five shapes over its own inline rows (NULLs and duplicates
   * included), or every tenth an invalid plan whose error is the result. Shapes Spark runs
   * without a job (folded into local rows), so 1,600 runs fit the time budget.
   */
  private def variant(k: Int): io.sparksubstrait.proto.Plan = {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val rows = (0 to 1 + k % 4).map(r =>
      Seq(litI32(r * k - 7), if (r % 2 == 0) litString(s"s$k-${r % 3}") else litNull(string())))
    val v = readVirtual(schema("n" -> i32(), "s" -> string()), rows ++ rows.take(1))
    if (k % 10 == 9) return b.plan(filter(v, b.call(gt, field(0), field(2 + k % 4))), "n", "s")
    k % 5 match {
      case 0 => b.plan(filter(v, b.call(gt, field(0), litI32((k % 3) * 4 - 8))), "n", "s")
      case 1 => b.plan(emit(project(v, b.call(add, field(0), litI32(k)), cast(field(0), string()),
              ifThen(Seq(b.call(gt, field(0), litI32(0)) -> field(1)), Some(litString(s"neg$k")))), 2, 3, 4), "a", "c",
          "i")
      case 2 => b.plan(fetch(v, k % 3, 1 + k % 4), "n", "s")
      case 3 => b.plan(set(io.sparksubstrait.proto.SetRel.SetOp.SET_OP_UNION_ALL, v, v), "n", "s")
      case _ => b.plan(project(v, inList(field(0), litI32(-7), litI32(k)), structOf(field(1), litI32(k))), "n", "s",
          "in", "st", "st0", "st1")
    }
  }

  private def render(rows: Seq[Row]): String = rows.map(_.toString).sorted.mkString(";")

  test("8 threads x 200 plans on one session give the serial results") {
    val t0 = System.nanoTime()
    val plans = (0 until 40).map(variant)
    // Each plan through the three entry points, so threads also interleave JSON and SQL parsing.
    val cases: IndexedSeq[() => String] = plans.toIndexedSeq.flatMap { p =>
      val bytes = p.toByteArray
      val json = JsonFormat.printer().print(p)
      val hex = bytes.map("%02x".format(_)).mkString
      def result(body: => Seq[Row]): String =
        try render(body)
        catch { case e: errors.SubstraitException => s"error ${e.getCondition} at ${e.getLocation}" }
      Seq(
        () => result(SubstraitPlans.read(spark, bytes).collect().toSeq),
        () => result(SubstraitPlans.readJson(spark, json).collect().toSeq),
        () => result(spark.sql(s"SELECT * FROM substrait(X'$hex')").collect().toSeq))
    }
    val serial = cases.map(_())
    assert(serial.count(_.startsWith("error")) == 12 && serial.distinct.size > 30 && !serial.contains(""), serial)
    assert(plans.indices.forall(i => serial(3 * i) == serial(3 * i + 1) && serial(3 * i) == serial(3 * i + 2)))

    val threads = 8
    val perThread = 200
    val pool = Executors.newFixedThreadPool(threads)
    val start = new CountDownLatch(1)
    try {
      val futures = (0 until threads).map { t =>
        pool.submit(new Callable[Seq[(Int, String)]] {
          def call(): Seq[(Int, String)] = {
            start.await()
            // Each thread its own order through the cases, so different plans overlap.
            (0 until perThread).map { i =>
              val c = (t * 7 + i * (t + 1)) % cases.size; c -> cases(c)()
            }
          }
        })
      }
      start.countDown()
      val results = futures.flatMap(_.get(5, TimeUnit.MINUTES))
      assert(results.size == threads * perThread)
      val wrong = results.filter { case (c, r) => r != serial(c) }
      assert(wrong.isEmpty, s"${wrong.size} results differ from the serial run, e.g. ${wrong.take(3)}")
    } finally pool.shutdownNow()
    info(
      s"${threads * perThread} concurrent runs after ${cases.size} serial ones: ${(System.nanoTime() - t0) / 1000000} ms")
    assert(spark.sql("SELECT 1").collect().head.getInt(0) == 1)
  }
}
