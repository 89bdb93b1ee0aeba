package io.sparksubstrait
package hostile

import java.nio.file.{Files, Paths}
import java.util.concurrent.{Executors, ThreadFactory, TimeoutException}

import scala.collection.mutable
import scala.jdk.CollectionConverters._
import scala.concurrent.{Await, ExecutionContext, Future}
import scala.concurrent.duration._
import scala.util.Random

import org.apache.spark.SparkThrowable
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.testing.{Datasets, FuzzCorpus, PlanMutator, ProducerFixtures, SparkSuite, TpchData}
import io.sparksubstrait.testing.Throwables.causes

/**
 * Mutated plans never crash, hang or kill the session: each outcome is rows, the project's
 * error, or (while running) one of Spark's data errors (SQLSTATE class 22, as the same SQL
 * would raise). Seeded and bounded for CI; `dev/fuzz N` runs N mutations and prints the
 * counts. Settings (environment): SUBSTRAIT_FUZZ_COUNT (default 600), SUBSTRAIT_FUZZ_SEED
 * (default 20261122), SUBSTRAIT_FUZZ_TIMEOUT_SECONDS per plan (default 60),
 * SUBSTRAIT_FUZZ_MAX_SECONDS (stop early, reporting how many ran; default none),
 * SUBSTRAIT_FUZZ_DUMP (a folder to write the first SUBSTRAIT_FUZZ_DUMP_COUNT mutated plans to).
 * The corpus ([[FuzzCorpus]]) holds every producer fixture too, whose tables are registered.
 */
class FuzzSuite extends SparkSuite {
  private def env(name: String, default: Long): Long = sys.env.get(name).map(_.trim.toLong).getOrElse(default)
  private val count = env("SUBSTRAIT_FUZZ_COUNT", 600).toInt
  private val seed = env("SUBSTRAIT_FUZZ_SEED", 20261122L)
  private val timeout = env("SUBSTRAIT_FUZZ_TIMEOUT_SECONDS", 60).seconds
  private val maxSeconds = env("SUBSTRAIT_FUZZ_MAX_SECONDS", Long.MaxValue)
  private val failures = Paths.get("jvm/target/fuzz-failures")

  /** Where to also write the first SUBSTRAIT_FUZZ_DUMP_COUNT mutated plans (dev/fuzz --connect sends them over Spark Connect). */
  private val dump = sys.env.get("SUBSTRAIT_FUZZ_DUMP").map(Paths.get(_))
  private val dumpCount = env("SUBSTRAIT_FUZZ_DUMP_COUNT", 4000)

  override def beforeAll(): Unit = {
    super.beforeAll()
    Datasets.registerNums(spark)
    Datasets.registerPeople(spark)
    TpchData.registerLineitem(spark, rows = 120)
    ProducerFixtures.registerTables(spark)
  }

  /** Conversions run on their own 1 MB-stack thread (a Py4J thread's default), replaced after a hang. */
  private def newExecutor() = Executors.newSingleThreadExecutor(new ThreadFactory {
    def newThread(r: Runnable): Thread = { val t = new Thread(null, r, "fuzz", 1024L * 1024); t.setDaemon(true); t }
  })

  private def outcome(bytes: Array[Byte]): String =
    try {
      SubstraitPlans.read(spark, bytes).limit(50).collect()
      "ran"
    } catch {
      case e: SubstraitException if e.getCondition == "SUBSTRAIT_CONVERSION_FAILED" =>
        s"project error SUBSTRAIT_CONVERSION_FAILED (${e.getMessageParameters.get("exception")})"
      case e: SubstraitException => s"project error ${e.getCondition}"
      case e: Throwable => sparkDataError(e).map(c => s"Spark data error $c").getOrElse(
          s"FOREIGN ${e.getClass.getName}: ${String.valueOf(e.getMessage).linesIterator.toSeq.headOption.getOrElse("").take(160)}")
    }

  /** An outcome that is a bug to fix: a foreign exception, a hang, or our catch-all around a foreign exception. */
  private def isBug(outcome: String): Boolean =
    outcome.startsWith("FOREIGN") || outcome == "HANG" || outcome.contains("CONVERSION_FAILED")

  /**
   * A Spark error about the data (SQLSTATE class 22, or 21: a scalar subquery or single
   * join meeting two rows), possibly wrapped in a job failure: the same SQL gives it.
   */
  private def sparkDataError(e: Throwable): Option[String] =
    causes(e).take(10).collectFirst {
      case s: SparkThrowable if Option(s.getSqlState).exists(st => st.startsWith("22") || st.startsWith("21")) =>
        SparkShim.errorCondition(s)
    }

  // SUBSTRAIT_FUZZ_REPLAY=plan.bin: one saved failure, its outcome and whole stack trace printed.
  sys.env.get("SUBSTRAIT_FUZZ_REPLAY").foreach { file =>
    test(s"replay $file") {
      val bytes = Files.readAllBytes(Paths.get(file))
      println(s"FUZZ REPLAY $file: ${outcome(bytes)}")
      try SubstraitPlans.read(spark, bytes).limit(50).collect()
      catch { case e: Throwable => e.printStackTrace(System.out) }
    }
  }

  test("mutated plans give rows or the project's error: never a foreign exception, a hang or a dead session") {
    val corpus = FuzzCorpus.plans()
    val baseline = corpus.map(p => outcome(p.toByteArray))
    info(s"corpus: ${corpus.size} plans, ${baseline.count(_ == "ran")} run unmutated " +
      s"(others: ${baseline.filter(_ != "ran").mkString("; ")}); seed $seed, $count mutations")
    val mutator = new PlanMutator(new Random(seed), corpus)
    val counts = mutable.TreeMap.empty[String, Int]
    val examples = mutable.LinkedHashMap.empty[String, String]
    var executor = newExecutor()
    val started = System.nanoTime()
    def elapsed = (System.nanoTime() - started) / 1e9
    var done = 0
    while (done < count && elapsed < maxSeconds) {
      val i = done
      done += 1
      val (kind, bytes) = mutator.mutate(corpus(i % corpus.size))
      dump.filter(_ => i < dumpCount).foreach { d =>
        Files.createDirectories(d); Files.write(d.resolve(f"case$i%07d.bin"), bytes)
      }
      implicit val ec: ExecutionContext = ExecutionContext.fromExecutor(executor)
      val result = try Await.result(Future(outcome(bytes)), timeout)
      catch {
        case _: TimeoutException =>
          spark.sparkContext.cancelAllJobs()
          executor.shutdownNow()
          executor = newExecutor()
          "HANG"
      }
      counts(result) = counts.getOrElse(result, 0) + 1
      if (isBug(result)) {
        Files.createDirectories(failures)
        Files.write(failures.resolve(s"seed$seed-case$i.bin"), bytes)
        examples.getOrElseUpdate(result, s"case $i ($kind)")
      }
      if (i % 50 == 49) assert(spark.sql("SELECT 1").collect().head.getInt(0) == 1, s"session dead after case $i")
      if (i % 10000 == 9999) println(f"FUZZ PROGRESS ${i + 1} mutations in $elapsed%.0f s: ${counts.mkString(", ")}")
    }
    executor.shutdownNow()
    val seconds = elapsed
    val report = counts.toSeq.sortBy(-_._2).map { case (k, n) => f"$n%8d  $k" }.mkString("\n")
    println(f"FUZZ REPORT seed $seed: $done mutations in $seconds%.0f s\n$report\nexamples:\n" +
      examples.map { case (k, v) => s"  $v -> $k" }.mkString("\n"))
    assert(spark.sql("SELECT 1").collect().head.getInt(0) == 1, "session dead at the end")
    val bad = counts.filter { case (k, _) => isBug(k) }
    assert(bad.isEmpty, s"foreign exceptions or hangs (plans in $failures):\n${bad.mkString("\n")}")
  }

  test("the fuzzer's past findings (resources/fuzz-fixed) give rows or the project's error") {
    val folder = Paths.get(getClass.getResource("/fuzz-fixed").toURI)
    val plans = Files.list(folder).iterator().asScala.filter(_.toString.endsWith(".bin")).toSeq.sortBy(_.toString)
    assert(plans.size >= 5)
    val outcomes = plans.map(p => p.getFileName.toString -> outcome(Files.readAllBytes(p)))
    info(outcomes.map { case (f, o) => s"$f: $o" }.mkString("; "))
    val bad = outcomes.filter { case (_, o) => isBug(o) }
    assert(bad.isEmpty, bad.mkString("\n"))
    assert(spark.sql("SELECT 1").collect().head.getInt(0) == 1, "session dead")
  }
}
