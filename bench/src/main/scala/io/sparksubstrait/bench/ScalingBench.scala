package io.sparksubstrait.bench

import java.io.PrintWriter
import java.nio.file.{Files, Paths}

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Plan, PlanRel, ReferenceRel, Rel, SetRel}

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.testing.PlanBuilder
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Conversion time (plan bytes -> analyzed DataFrame) of synthetic plans that grow in one
 * dimension, from 10 to 10,000 relations (or columns, rows, expression depth, and up to a million
 * rows, IN options and and-arguments; a DAG of shared subtrees up to 40 levels). Each size is
 * converted --reps times (once if one conversion takes more than 2 s) and the median kept.
 * A size that fails (an error, more than 60 s) is recorded and the shape grows no further.
 *
 * Deep plans need what a user running them needs: `spark.substrait.maxPlanDepth` raised
 * above its default of 300 nesting levels, and a thread stack for the recursion of decoding,
 * conversion and Spark's analysis (docs/configuration.md). Every conversion here runs on a
 * thread with a 2 GB stack and the depth limit at 100,000, so what is measured is time,
 * not the default limits (LimitsSuite tests those).
 *
 * Arguments: --out DIR [--reps N] [--only TEXT] (the shapes whose name contains TEXT). Writes
 * DIR/scaling.tsv (shape, size, median_ms, outcome, decode_ms, convert_ms: the decoder alone, and
 * decoder and converter without Spark's analysis, medians too).
 */
object ScalingBench {
  private type Shape = (String, Seq[Int], Int => Plan)

  private val shapes: Seq[Shape] = Seq(
    ("chain of projects and filters", Seq(10, 100, 300, 1000, 3000, 10000), chain),
    ("union of N inputs", Seq(10, 100, 300, 1000, 3000, 10000), union),
    ("union of N filter-project branches", Seq(10, 100, 300, 1000, 3000), branches),
    ("expression nested N deep", Seq(10, 100, 300, 1000, 3000, 10000), nested),
    ("N columns (read and project)", Seq(10, 100, 300, 1000, 3000, 10000), columns),
    ("virtual table of N rows", Seq(100, 1000, 10000, 100000, 1000000), rows),
    ("doubling DAG of N levels (2^N leaves unfolded)", Seq(5, 10, 20, 40), doubling),
    ("IN list of N options", Seq(10, 1000, 10000, 100000, 300000, 1000000), inList),
    ("variadic and of N arguments", Seq(10, 1000, 10000, 100000, 1000000), variadicAnd),
    ("variadic or of N terms, half of them equalities", Seq(10, 1000, 10000, 100000, 1000000), variadicOr))

  def main(args: Array[String]): Unit = {
    val opts = Options(args)
    val reps = opts.int("reps", 5)
    val out = Paths.get(opts("out"))
    val shapes = opts.get("only").fold(this.shapes)(only => this.shapes.filter(_._1.contains(only)))
    Files.createDirectories(out)
    val spark = Options.session("scaling-bench")
    spark.conf.set("spark.substrait.maxPlanDepth", "100000")
    // The largest plans here (a million rows, options or arguments) are beyond the default 16 MB.
    spark.conf.set("spark.substrait.maxPlanBytes", (256L << 20).toString)
    val tsv = new PrintWriter(out.resolve("scaling.tsv").toFile, "UTF-8")
    tsv.println("shape\tsize\tmedian_ms\toutcome\tdecode_ms\tconvert_ms")
    // Warm-up: the code paths all shapes use, so the first size is not a JIT measurement.
    shapes.foreach { case (_, sizes, make) =>
      (0 until 3).foreach(_ => SubstraitPlans.read(spark, make(sizes.head).toByteArray))
    }
    shapes.foreach { case (name, sizes, make) =>
      var stop = false
      sizes.foreach { n =>
        if (!stop) {
          val plan = bytes(make(n))
          val (ms, outcome) = onLargeStack(measure(reps)(SubstraitPlans.read(spark, plan)))
          // Where the time goes: the decoder alone, decoder and converter (no Spark analysis).
          val (decodeMs, _) =
            if (outcome != "ok") (Double.NaN, "") else onLargeStack(measure(reps)(decode(spark, plan)))
          val (convertMs, _) = if (outcome != "ok") (Double.NaN, "")
          else
            onLargeStack(measure(reps)(ReadPipeline.readWithoutAnalysis(spark, decode(spark, plan))))
          tsv.println(f"$name\t$n\t$ms%.3f\t$outcome\t$decodeMs%.3f\t$convertMs%.3f")
          tsv.flush()
          println(f"$name N=$n: $ms%.2f ms ($outcome)")
          stop = outcome != "ok"
        }
      }
    }
    tsv.close()
    spark.stop()
  }

  private def measure(reps: Int)(f: => Any): (Double, String) = {
    val times = scala.collection.mutable.ArrayBuffer.empty[Double]
    var t0 = 0L
    try {
      var i = 0
      while (i < reps) {
        t0 = System.nanoTime(); f; val ms = (System.nanoTime() - t0) / 1e6
        times += ms
        i = if (ms > 2000) reps else i + 1
        if (ms > 60000) return (ms, "over 60 s")
      }
      (times.sorted.apply(times.size / 2), "ok")
    } catch {
      // A limit's refusal is an answer too: how long it took is what a hostile plan costs.
      case e: io.sparksubstrait.errors.SubstraitException =>
        ((System.nanoTime() - t0) / 1e6, s"refused with ${e.getCondition} (the time is the refusal's)")
      case e: StackOverflowError => (Double.NaN, s"StackOverflowError (in ${where(e)})")
      case e: OutOfMemoryError => (Double.NaN, s"OutOfMemoryError: ${e.getMessage}")
      case e: Exception => (Double.NaN,
          s"${e.getClass.getSimpleName}: ${Option(e.getMessage).map(_.linesIterator.next().take(200)).getOrElse("")}")
    }
  }

  private def decode(spark: org.apache.spark.sql.SparkSession, plan: Array[Byte]) =
    io.sparksubstrait.decode.PlanDecoder.fromBytes(plan,
      io.sparksubstrait.decode.PlanLimits.fromConf(
        org.apache.spark.sql.sparksubstrait.SparkShim.sqlConf(spark)))

  /** A deep plan's bytes: protobuf serialises recursively, so on the large stack too. */
  private def bytes(plan: => Plan): Array[Byte] = onLargeStack(plan.toByteArray)

  /** `f` on a thread with a 2 GB stack (the recursion of decoding, conversion and analysis). */
  private def onLargeStack[T](f: => T): T = {
    var out: Option[T] = None
    var failure: Option[Throwable] = None
    val t = new Thread(null,
      () =>
        try out = Some(f)
        catch { case e: Throwable => failure = Some(e) }, "deep", 2L << 30)
    t.start(); t.join()
    failure.foreach(throw _)
    out.get
  }

  /** Whose frames fill an overflowed stack: this project's converter or Spark's. */
  private def where(e: StackOverflowError): String = {
    val frames = e.getStackTrace.toSeq.map(_.getClassName)
    val ours = frames.count(_.startsWith("io.sparksubstrait"))
    val spark = frames.count(_.startsWith("org.apache.spark"))
    val common = frames.groupBy(identity).toSeq.sortBy(-_._2.size).take(2).map(_._1).mkString(", ")
    s"$ours of ${frames.size} innermost frames ours, $spark Spark's; most frequent: $common"
  }

  /** A one-column (i32), one-row virtual table. */
  private def one: Rel = readVirtual(schema("a" -> i32()), Seq(Seq(litI32(1))))

  /** N relations: alternately a project (a + 1, emitted alone) and a filter (a > 0). */
  private def chain(n: Int): Plan = {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    val rel = (0 until n).foldLeft(one) { (r, i) =>
      if (i % 2 == 0) emit(project(r, b.call(add, field(0), litI32(1))), 1)
      else filter(r, b.call(gt, field(0), litI32(0)))
    }
    b.plan(rel, "a")
  }

  /** N branches, each a filter (a > i) and a project (a + 1) over its own read: 3N + 1 relations. */
  private def branches(n: Int): Plan = {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    b.plan(set(SetRel.SetOp.SET_OP_UNION_ALL,
        (0 until n).map { i =>
          emit(project(filter(one, b.call(gt, field(0), litI32(i))), b.call(add, field(0), litI32(1))), 1)
        }: _*), "a")
  }

  private def union(n: Int): Plan = {
    val b = new PlanBuilder()
    b.plan(set(SetRel.SetOp.SET_OP_UNION_ALL, Seq.fill(n)(one): _*), "a")
  }

  /** ((a + 1) + 1) ... N additions deep, in a project. */
  private def nested(n: Int): Plan = {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add:i64_i64")
    val vt = readVirtual(schema("a" -> i64()), Seq(Seq(litI64(1))))
    val e = (0 until n).foldLeft(field(0))((x, _) => b.call(add, x, litI64(1)))
    b.plan(emit(project(vt, e), 1), "x")
  }

  /** A one-row virtual table of N i32 columns, and a project of N expressions (c_i + 1), emitted alone. */
  private def columns(n: Int): Plan = {
    val b = new PlanBuilder()
    val add = b.fn("functions_arithmetic", "add:i32_i32")
    val vt = readVirtual(schema((0 until n).map(i => s"c$i" -> i32()): _*), Seq((0 until n).map(litI32)))
    val p = project(vt, (0 until n).map(i => b.call(add, field(i), litI32(1))): _*)
    b.plan(emit(p, (n until 2 * n): _*), (0 until n).map(i => s"d$i"): _*)
  }

  private def reference(ordinal: Int): Rel =
    Rel.newBuilder().setReference(ReferenceRel.newBuilder().setSubtreeOrdinal(ordinal)).build()

  /**
   * relations[i] = the first column of relations[i - 1] crossed with itself, the root
   * relations[N]: N + 1 small messages, 2^N leaves were each reference unfolded.
   */
  private def doubling(n: Int): Plan = {
    val b = new PlanBuilder()
    val levels = one +: (1 to n).map(i => emit(project(cross(reference(i - 1), reference(i - 1)), field(0)), 2))
    val p = b.plan(reference(n), "a")
    p.toBuilder.clearRelations().addAllRelations(levels.map(r => PlanRel.newBuilder().setRel(r).build()).asJava)
      .addRelations(p.getRelations(0)).build()
  }

  /** A filter `a IN (0, 1, …, N - 1)` on one row. */
  private def inList(n: Int): Plan = {
    val b = new PlanBuilder()
    b.plan(filter(one, PlanBuilder.inList(field(0), (0 until n).map(litI32): _*)), "a")
  }

  /** A filter `and(a > 0, a > 1, …)` of N arguments on one row. */
  private def variadicAnd(n: Int): Plan = {
    val b = new PlanBuilder()
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    b.plan(filter(one,
        b.call(b.fn("functions_boolean", "and:bool"), (0 until n).map(i => b.call(gt, field(0), litI32(i))): _*)), "a")
  }

  /** a = 0 OR a > 1 OR a = 2 OR …: N terms, whose equalities the plan shape equalities-as-in gathers into one IN. */
  private def variadicOr(n: Int): Plan = {
    val b = new PlanBuilder()
    val eq = b.fn("functions_comparison", "equal:any_any")
    val gt = b.fn("functions_comparison", "gt:i32_i32")
    b.plan(filter(one,
        b.call(b.fn("functions_boolean", "or:bool"),
          (0 until n).map(i => b.call(if (i % 2 == 0) eq else gt, field(0), litI32(i))): _*)), "a")
  }

  /** N rows of (i64, string). */
  private def rows(n: Int): Plan = {
    val b = new PlanBuilder()
    b.plan(readVirtual(schema("k" -> i64(), "v" -> string()),
        (0 until n).map(i => Seq(litI64(i.toLong), litString(s"row $i")))), "k", "v")
  }
}
