package io.sparksubstrait.bench

import org.apache.spark.sql.{DataFrame, SparkSession}

/**
 * The TPC-H benchmark's anchor: another Substrait-to-Spark converter run on the same plan
 * bytes, timed and checked as ours is (plan bytes -> analyzed DataFrame). The one anchor is
 * substrait-java's Spark module (`io.sparksubstrait.bench.anchor.SubstraitJavaAnchor`), compiled
 * by the sbt project benchAnchor only when bench/anchor/build has extracted its sources, so
 * this project loads it by name.
 */
trait Anchor {

  /** Its name and version, for the log. */
  def name: String
  def read(spark: SparkSession, plan: Array[Byte]): DataFrame

  /** The anchor's own plan of a query, where it is a producer too (the plan source [[Anchor.Producer]]). */
  def produce(spark: SparkSession, sql: String): Array[Byte]
}

object Anchor {
  val ClassName = "io.sparksubstrait.bench.anchor.SubstraitJavaAnchor"

  /** The plans the anchor makes itself: a producer of the bench when the anchor runs. */
  val Producer = "substrait-java"

  def load(): Anchor = try Class.forName(ClassName).getDeclaredConstructor().newInstance().asInstanceOf[Anchor]
  catch {
    case e: ClassNotFoundException => throw new IllegalStateException(
        s"$ClassName is not on the classpath: build it with bench/anchor/build and run bench/run tpch --anchor", e)
  }
}
