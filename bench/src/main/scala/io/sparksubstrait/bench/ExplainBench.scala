package io.sparksubstrait.bench

import java.io.PrintWriter
import java.nio.file.{Files, Paths}

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.explain.ExplainTrace
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.TpchSchema

/**
 * What the plan explorer costs, on the 22 TPC-H plans isthmus makes (empty tables: plans
 * do not depend on data): conversion without the recorder (a read), with it, and a whole
 * explain (conversion with the recorder, analysis, optimization, the JSON document).
 * Interleaved, median of --reps rounds of --iters calls each.
 *
 * Arguments: --out DIR [--reps N] [--iters N]. Writes DIR/explain.tsv and prints a summary.
 */
object ExplainBench {
  def main(args: Array[String]): Unit = {
    val opts = Options(args)
    val (reps, iters) = (opts.int("reps", 5), opts.int("iters", 20))
    val out = Paths.get(opts("out"))
    Files.createDirectories(out)
    val spark = Options.session("explain-bench")
    TpchSchema.createEmptyTables(spark)
    val plans =
      TpchSchema.QueryNumbers.flatMap(n => TpchSchema.isthmus(TpchSchema.query(n)).toOption.map(n -> _.toByteArray))
        .filter { case (_, bytes) => scala.util.Try(SubstraitPlans.explain(spark, bytes, null, null)).isSuccess }
    val variants: Seq[(String, Array[Byte] => Any)] = Seq(
      "convert" -> (b => ReadPipeline.read(spark, PlanDecoder.fromBytes(b, PlanLimits.active))),
      "convert+trace" ->
        (b => ReadPipeline.read(spark, PlanDecoder.fromBytes(b, PlanLimits.active), None, new ExplainTrace)),
      "explain" -> (b => SubstraitPlans.explain(spark, b, null, null)))
    val times = scala.collection.mutable.Map.empty[(Int, String), Seq[Double]].withDefaultValue(Nil)
    (0 until reps + 1).foreach { round =>
      plans.foreach { case (n, bytes) =>
        variants.foreach { case (name, f) =>
          val t0 = System.nanoTime()
          var i = 0
          while (i < iters) { f(bytes); i += 1 }
          // Round 0 warms the JIT up and is not kept.
          if (round > 0) times((n, name)) :+= (System.nanoTime() - t0) / 1e6 / iters
        }
      }
    }
    val tsv = new PrintWriter(out.resolve("explain.tsv").toFile, "UTF-8")
    tsv.println(("query" +: variants.map(_._1)).mkString("\t"))
    val medians = plans.map { case (n, _) =>
      val ms = variants.map { case (name, _) => val s = times((n, name)).sorted; s(s.size / 2) }
      tsv.println((s"q$n" +: ms.map(m => f"$m%.3f")).mkString("\t"))
      ms
    }
    tsv.close()
    val totals = variants.indices.map(i => medians.map(_(i)).sum)
    println(f"${plans.size} TPC-H plans, sum of per-plan medians (ms): " +
      variants.map(_._1).zip(totals).map { case (v, t) => f"$v $t%.2f" }.mkString(", "))
    println(f"recorder overhead on conversion: ${100 * (totals(1) / totals(0) - 1)}%.1f%%")
    spark.stop()
  }
}
