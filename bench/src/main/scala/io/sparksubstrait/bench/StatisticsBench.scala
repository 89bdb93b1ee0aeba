package io.sparksubstrait.bench

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.testing.PlanBuilder
import io.sparksubstrait.testing.PlanBuilder._

/**
 * What exactness costs the statistics: std_dev, variance and corr (ExactMoments: exact sums,
 * one rounding), median (ExactMedian over the collected values) and product (ExactProduct)
 * through Substrait plans, against Spark SQL's stddev_samp, var_samp, corr, median and
 * product (rounded per update) on the same rows: --rows (default 1M) random doubles in one
 * group and in --groups groups. Interleaved, median of --reps rounds; prints the times.
 *
 * Arguments: [--rows N] [--groups G] [--reps N]. Run through sbt: bench/runMain
 * io.sparksubstrait.bench.StatisticsBench (not part of bench/run).
 */
object StatisticsBench {
  def main(args: Array[String]): Unit = {
    val opts = Options(args)
    val (rows, groups, reps) = (opts.int("rows", 1000000), opts.int("groups", 1000), opts.int("reps", 5))
    val spark = Options.session("statistics-bench")
    spark.range(rows).selectExpr(s"cast(id % $groups as int) as g", "(rand(1) - 0.3) * 1e6 as x",
      "rand(2) * 1e3 + x * 1e-3 as y")
      .cache().createOrReplaceTempView("t")
    spark.table("t").count()
    val schema = PlanBuilder.schema("g" -> i32(), "x" -> fp64(), "y" -> fp64())

    def plan(fn: String, grouped: Boolean, cols: Seq[Int], enums: Seq[String] = Nil) = {
      val pb = new PlanBuilder()
      val m = pb.measure(pb.fn("functions_arithmetic", fn), cols.map(field), enums = enums)
      val keys = if (grouped) Seq(field(0)) else Nil
      pb.plan(aggregate(readNamed(schema, "t"), keys, Seq(m)),
        (if (grouped) Seq("g", "r") else Seq("r")): _*).toByteArray
    }
    val cases: Seq[(String, Boolean => Array[Byte], String)] = Seq(
      ("std_dev", g => plan("std_dev:fp64", g, Seq(1), Seq("SAMPLE")), "stddev_samp(x)"),
      ("variance", g => plan("variance:fp64", g, Seq(1), Seq("SAMPLE")), "var_samp(x)"),
      ("corr", g => plan("corr:fp64_fp64", g, Seq(1, 2)), "corr(x, y)"),
      ("median", g => plan("median:fp64", g, Seq(1), Seq("EXACT")), "median(x)"),
      ("product", g => plan("product:fp64", g, Seq(1)), "product(x)"))
    def time(f: => Unit): Double = { val t0 = System.nanoTime(); f; (System.nanoTime() - t0) / 1e6 }
    println(f"${"function"}%-10s ${"groups"}%7s ${"exact ms"}%10s ${"Spark ms"}%10s ${"ratio"}%7s")
    for ((name, substrait, sql) <- cases; grouped <- Seq(false, true)) {
      val bytes = substrait(grouped)
      val query = if (grouped) s"SELECT g, $sql FROM t GROUP BY g" else s"SELECT $sql FROM t"
      val samples = (0 until reps + 1).map { _ =>
        (time(SubstraitPlans.read(spark, bytes).collect()), time(spark.sql(query).collect()))
      }.drop(1) // the first round compiles and warms up
      def median(xs: Seq[Double]) = xs.sorted.apply(xs.size / 2)
      val (ours, theirs) = (median(samples.map(_._1)), median(samples.map(_._2)))
      println(f"$name%-10s ${if (grouped) groups else 1}%7d $ours%10.1f $theirs%10.1f ${ours / theirs}%7.2f")
    }
    spark.stop()
  }
}
