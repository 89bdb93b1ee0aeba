package io.sparksubstrait.bench

import java.nio.file.{Files, Paths}

import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.convert.PlanConverter
import io.sparksubstrait.plan.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.TpchSchema

/**
 * Where conversion time goes, for the isthmus plans that convert: protobuf's parse alone,
 * decoding the bytes (the parse and our checks of the message tree), the conversion proper, and the whole read (conversion plus Spark's analysis of the result),
 * against spark.sql's parse and analysis. Medians over --iters runs, interleaved.
 *
 * Arguments: --data DIR (bench/prepare.py's, for the tables) [--iters N] [--queries 2,17]
 * [--producer duckdb|datafusion|ibis] (that producer's plans from DIR/plans, against DIR/queries' SQL;
 * by default isthmus' plans of TpchSchema's queries)
 */
object ConversionBreakdown {
  def main(args: Array[String]): Unit = {
    val opts = Options(args)
    val data = Paths.get(opts("data"))
    val iters = opts.int("iters", 50)
    val spark = Options.session("conversion-breakdown")
    TpchSchema.Tables.foreach { case (t, _) =>
      spark.read.parquet(data.resolve("parquet").resolve(s"$t.parquet").toString).createOrReplaceTempView(t)
    }
    println("query\tparse_ms\tdecode_ms\tconvert_ms\tread_ms\tsql_ms\tread/sql")
    val queries = opts.get("queries").map(_.split(",").map(_.trim.toInt).toSeq).getOrElse(TpchSchema.QueryNumbers)
    val producer = opts.get("producer")
    def text(n: Int) = producer match {
      case Some(_) => new String(Files.readAllBytes(data.resolve("queries").resolve(f"q$n%02d.sql")), "UTF-8").trim.stripSuffix(";")
      case None => TpchSchema.query(n)
    }
    def planBytes(n: Int): Option[Array[Byte]] = producer match {
      case Some(p) => Option(data.resolve("plans").resolve(p).resolve(f"q$n%02d.bin")).filter(Files.exists(_)).map(Files.readAllBytes)
      case None => TpchSchema.isthmus(text(n)).toOption.map(_.toByteArray)
    }
    for (n <- queries) {
      val sql = text(n)
      planBytes(n).filter(b => scala.util.Try(SubstraitPlans.read(spark, b)).isSuccess).foreach { bytes =>
        val t = Array.fill(5)(scala.collection.mutable.ArrayBuffer.empty[Double])
        def time(i: Int)(f: => Any): Unit = { val t0 = System.nanoTime(); f; t(i) += (System.nanoTime() - t0) / 1e6 }
        for (_ <- 0 until iters) {
          time(0)(PlanDecoder.fromBytes(bytes, PlanLimits.active))
          time(1)(PlanConverter.convert(spark, PlanDecoder.fromBytes(bytes, PlanLimits.active)))
          time(2)(SubstraitPlans.read(spark, bytes))
          time(3)(spark.sql(sql))
          time(4)(io.sparksubstrait.proto.Plan.parseFrom(bytes))
        }
        val m = t.map(b => b.sorted.apply(b.size / 2))
        println(f"Q$n\t${m(4)}%.3f\t${m(0)}%.3f\t${m(1)}%.3f\t${m(2)}%.3f\t${m(3)}%.3f\t${m(2) / m(3)}%.2f")
      }
    }
    spark.stop()
  }
}
