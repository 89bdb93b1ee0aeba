package io.sparksubstrait.bench

import java.nio.file.{Files, Paths}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.catalyst.rules.RuleExecutor
import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.explain.SubstraitExplain
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.TpchSchema

/**
 * Where conversion time goes, for the isthmus plans that convert: protobuf's parse alone,
 * decoding the bytes (the parse and our checks of the message tree), the conversion proper, and the whole read (conversion plus Spark's analysis of the result),
 * against spark.sql's parse and analysis. Medians over --iters runs, interleaved; `analysis` says
 * whether the read skips Spark's analysis (shape/SkippedAnalysis) or leaves the plan to it.
 *
 * Arguments: --data DIR (bench/prepare.py's, for the tables) [--benchmark tpcds] [--iters N] [--queries 2,17]
 * [--producer duckdb|datafusion|ibis|written|substrait-java] (that producer's plans from DIR/plans, or
 * substrait-java's made in this JVM, against DIR/queries' SQL; by default isthmus' plans of
 * TpchSchema's queries) [--anchor true] (the anchor's read of the same bytes too, as anchor_ms:
 * run on benchAnchor's classpath, `bench/run breakdown --anchor`). --stages N executes both
 * sides N times and prints what their stages did (StageWork), to find where a plan that looks
 * like the SQL's spends its time. --rules N times both sides' optimization N times and prints
 * Spark's time per optimizer rule.
 */
object ConversionBreakdown {

  /** Of RuleExecutor's report: its 7 header lines and the 11 costliest rules. */
  private val RuleReportLines = 18

  def main(args: Array[String]): Unit = {
    val opts = Options(args)
    val data = Paths.get(opts("data"))
    val iters = opts.int("iters", 50)
    val spark = Options.session("conversion-breakdown")
    // TPC-DS (--benchmark tpcds): every table of the corpus, and its texts' double-quoted aliases as identifiers.
    val tpcds = opts.get("benchmark").contains("tpcds")
    val tables =
      if (tpcds)
        Files.list(data.resolve("parquet")).iterator().asScala.map(_.getFileName.toString).filter(
          _.endsWith(".parquet"))
          .map(_.stripSuffix(".parquet")).toSeq.sorted
      else TpchSchema.Tables.map(_._1)
    if (tpcds) spark.conf.set("spark.sql.ansi.doubleQuotedIdentifiers", "true")
    tables.foreach(t =>
      spark.read.parquet(data.resolve("parquet").resolve(s"$t.parquet").toString).createOrReplaceTempView(t))
    val producer = opts.get("producer")
    val anchor = Option.when(opts.get("anchor").contains("true") || producer.contains(Anchor.Producer))(Anchor.load())
    // substrait-java's plans read the parquet files (LocalFiles).
    spark.conf.set("spark.substrait.localFiles.allowedPrefixes", data.resolve("parquet").toAbsolutePath.toString)
    println("query\tparse_ms\tdecode_ms\tconvert_ms\tread_ms\tsql_ms\tread/sql\tanalysis\tshapes" +
      anchor.fold("")(_ => "\tanchor_ms\tread/anchor"))
    val queries = opts.get("queries").map(_.split(",").map(_.trim.stripPrefix("q").toInt).toSeq).getOrElse(
      if (tpcds) 1 to 99 else TpchSchema.QueryNumbers)
    def text(n: Int) = producer match {
      case Some(_) =>
        new String(Files.readAllBytes(data.resolve("queries").resolve(f"q$n%02d.sql")), "UTF-8").trim.stripSuffix(";")
      case None => TpchSchema.query(n)
    }
    def planBytes(n: Int): Option[Array[Byte]] = producer match {
      case Some(Anchor.Producer) => scala.util.Try(anchor.get.produce(spark, text(n))).toOption
      // Our writer's plan of spark.sql's DataFrame (QueryBench's producer "written").
      case Some("written") => scala.util.Try(SubstraitPlans.write(spark.sql(text(n)))).toOption
      case Some(p) =>
        Option(data.resolve("plans").resolve(p).resolve(f"q$n%02d.bin")).filter(Files.exists(_)).map(Files.readAllBytes)
      case None => TpchSchema.isthmus(TpchSchema.calciteSpelling(n, text(n))).toOption.map(_.toByteArray)
    }
    for (n <- queries) {
      val sql = text(n)
      val converting = planBytes(n).filter(b => scala.util.Try(SubstraitPlans.read(spark, b)).isSuccess)
      // Both sides, each a fresh analyzed DataFrame per call: the SQL's and ours of the plan.
      def sides(bytes: Array[Byte]): Seq[(String, () => DataFrame)] =
        Seq("sql" -> (() => spark.sql(sql)), "plan" -> (() => SubstraitPlans.read(spark, bytes)))
      // --physical true: both sides' physical plans after a run (adaptive execution's final ones).
      if (opts.get("physical").contains("true")) converting.foreach { bytes =>
        sides(bytes).foreach { case (side, frame) =>
          val df = frame()
          df.collect()
          println(s"== Q$n $side\n${df.queryExecution.executedPlan}")
        }
      }
      // --analyzed true: both sides' analyzed plans, with their operator and expression node counts
      // (the analysis after conversion walks every one of them in each rule).
      if (opts.get("analyzed").contains("true")) converting.foreach { bytes =>
        sides(bytes).foreach { case (side, frame) =>
          val analyzed = frame().queryExecution.analyzed
          val plans = analyzed.collectWithSubqueries { case p => p }
          val expressions = plans.map(_.expressions.map(_.collect { case e => e }.size).sum).sum
          println(s"== Q$n $side: ${plans.size} operators, $expressions expression nodes\n${analyzed.treeString}")
        }
      }
      // --stages N: both sides executed N times, alternating, each execution's time and stages'
      // executor time, then the last one's stages side by side (StageWork: rows read, shuffled, time).
      opts.get("stages").map(_.toInt).foreach { executions =>
        converting.foreach { bytes =>
          val last = scala.collection.mutable.Map.empty[String, Seq[StageWork.Stage]]
          for (i <- 0 until executions; (side, df) <- if (i % 2 == 0) sides(bytes) else sides(bytes).reverse) {
            val frame = df()
            val t0 = System.nanoTime()
            val stages = StageWork.of(spark)(frame.collect())
            val ms = (System.nanoTime() - t0) / 1000000
            println(
              s"Q$n execution ${i + 1} $side: $ms ms, ${stages.size} stages, executor ${stages.map(_.runMs).sum} ms")
            last(side) = stages
          }
          println(s"== Q$n stages of the last execution (sql | plan), largest input first")
          last("sql").map(Some(_)).zipAll(last("plan").map(Some(_)), None, None).foreach { case (a, b) =>
            println(s"  ${a.fold("-")(_.toString)}  |  ${b.fold("-")(_.toString)}")
          }
        }
      }
      // --optimized true: both sides' optimized logical plans (where a plan shape's effect shows first).
      if (opts.get("optimized").contains("true")) converting.foreach { bytes =>
        sides(bytes).foreach { case (side, frame) =>
          println(s"== Q$n $side optimized\n${frame().queryExecution.optimizedPlan.treeString}")
        }
      }
      // --rules N: each side's optimization (queryExecution.optimizedPlan of an analyzed DataFrame)
      // N times after N unrecorded ones, its median, and Spark's time per optimizer rule over those
      // N (RuleExecutor's metering): which rules a plan's shape makes slower than the SQL's.
      opts.get("rules").map(_.toInt).foreach { times =>
        converting.foreach { bytes =>
          sides(bytes).foreach { case (side, frame) =>
            def optimize(frames: Seq[DataFrame]) = frames.map { f =>
              val t0 = System.nanoTime(); f.queryExecution.optimizedPlan; (System.nanoTime() - t0) / 1e6
            }
            optimize(Seq.fill(times)(frame()))
            // Analyzed before the metering starts, so that only the optimizer's rules are counted.
            val frames = Seq.fill(times)(frame())
            RuleExecutor.resetMetrics()
            val ms = optimize(frames).sorted
            println(f"== Q$n $side: optimization median ${ms(ms.size / 2)}%.1f ms of $times; rules over all $times:")
            println(RuleExecutor.dumpTimeSpent().linesIterator.take(RuleReportLines).mkString("\n"))
          }
        }
      }
      converting.foreach { bytes =>
        val t = Array.fill(6)(scala.collection.mutable.ArrayBuffer.empty[Double])
        def time(i: Int)(f: => Any): Unit = { val t0 = System.nanoTime(); f; t(i) += (System.nanoTime() - t0) / 1e6 }
        for (_ <- 0 until iters) {
          time(0)(PlanDecoder.fromBytes(bytes, PlanLimits.active))
          time(1)(ReadPipeline.readWithoutAnalysis(spark, PlanDecoder.fromBytes(bytes, PlanLimits.active)))
          time(2)(SubstraitPlans.read(spark, bytes))
          time(3)(spark.sql(sql))
          time(4)(io.sparksubstrait.proto.Plan.parseFrom(bytes))
          anchor.foreach(a => time(5)(scala.util.Try(a.read(spark, bytes))))
        }
        val m = t.map(b => if (b.isEmpty) Double.NaN else b.sorted.apply(b.size / 2))
        val anchored = anchor.fold("")(_ => f"\t${m(5)}%.3f\t${m(2) / m(5)}%.2f")
        // Whether the converted plan is marked analyzed (shape/SkippedAnalysis) or left to Spark's analyzer.
        val analysis =
          if (ReadPipeline.readWithoutAnalysis(spark, PlanDecoder.fromBytes(bytes, PlanLimits.active)).analyzed)
            "skipped"
          else "spark"
        // The plan shapes (shape/) that rewrote the plan, as explain names them.
        val explained = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
          SubstraitExplain.json(spark, PlanDecoder.fromBytes(bytes, PlanLimits.active), None))
        val shapes =
          Option(explained.get("shapes")).toSeq.flatMap(a => (0 until a.size).map(i => a.get(i).get("name").asText))
        println(f"Q$n\t${m(4)}%.3f\t${m(0)}%.3f\t${m(1)}%.3f\t${m(2)}%.3f\t${m(3)}%.3f\t${m(2) /
            m(3)}%.2f\t$analysis\t${if (shapes.isEmpty) "-" else shapes.mkString(",")}$anchored")
      }
    }
    spark.stop()
  }
}
