package io.sparksubstrait

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, DataFrameReader}
import org.apache.spark.sql.sparksubstrait.SparkShim

/** `import io.sparksubstrait.implicits._` adds `spark.read.substrait(...)` and `df.toSubstrait`. */
object implicits {
  implicit class SubstraitDataFrameWriter(private val df: DataFrame) extends AnyVal {

    /** The DataFrame's optimized plan as a binary `substrait.Plan` (docs/writing.md). */
    def toSubstrait: Array[Byte] = SubstraitPlans.write(df)

    /** The same plan in protobuf's JSON encoding. */
    def toSubstraitJson: String = SubstraitPlans.writeJson(df)
  }

  implicit class SubstraitDataFrameReader(private val reader: DataFrameReader) extends AnyVal {

    /** A binary-encoded `substrait.Plan`. */
    def substrait(plan: Array[Byte]): DataFrame = SubstraitPlans.read(SparkShim.sessionOf(reader), plan)

    /** A `substrait.Plan` in protobuf's JSON encoding. */
    def substrait(json: String): DataFrame = SubstraitPlans.readJson(SparkShim.sessionOf(reader), json)

    /** Root number `root` (0-based) of a plan with several roots. */
    def substrait(plan: Array[Byte], root: Int): DataFrame =
      SubstraitPlans.read(SparkShim.sessionOf(reader), plan, root)
    def substrait(json: String, root: Int): DataFrame = SubstraitPlans.readJson(SparkShim.sessionOf(reader), json, root)

    /** A plan with values for its dynamic parameters (anchor -> value). */
    def substrait(plan: Array[Byte], params: Map[Int, Any]): DataFrame =
      SubstraitPlans.read(SparkShim.sessionOf(reader), plan, null, params.map { case (k, v) => Int.box(k) -> v }.asJava)
    def substrait(json: String, params: Map[Int, Any]): DataFrame =
      SubstraitPlans.readJson(SparkShim.sessionOf(reader), json, null,
        params.map { case (k, v) => Int.box(k) -> v }.asJava)
  }
}
