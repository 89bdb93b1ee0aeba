package org.apache.spark.sql.sparksubstrait

import org.apache.arrow.vector.types.pojo.Schema
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.StructType

/** Spark's own Arrow type mapping (private to Spark SQL), for the Arrow IPC source. */
object ArrowTypes {
  def toSpark(schema: Schema): StructType = org.apache.spark.sql.util.ArrowUtils.fromArrowSchema(schema)

  def hadoopConf(session: SparkSession): Configuration = SparkShim.sessionState(session).newHadoopConf()
}
