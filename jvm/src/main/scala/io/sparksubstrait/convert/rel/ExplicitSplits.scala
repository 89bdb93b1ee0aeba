package io.sparksubstrait.convert.rel

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.spark.paths.SparkPath
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.datasources.{FileFormat, PartitionedFile}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.ConversionContext

/**
 * The rows a file format's own reader gives for chosen splits of one file, one Spark partition
 * per split: for the slices a Spark scan cannot be told to read (an ORC stripe, the lines after
 * header lines counted on the driver).
 */
private[sparksubstrait] object ExplicitSplits {

  /** `splits`: (first byte, length) of each split of `file`, whose size is `size`. */
  def read(format: FileFormat, file: Path, size: Long, splits: Seq[(Long, Long)], schema: StructType,
    options: Map[String, String], conf: Configuration)(implicit ctx: ConversionContext): LogicalPlan = {
    val session = ctx.session
    val files = splits.map { case (start, length) =>
      PartitionedFile(InternalRow.empty, SparkPath.fromPath(file), start, length, Array.empty[String], 0L, size,
        Map.empty[String, Any])
    }
    // A copy: the reader sets its own keys on the configuration it is given, and the
    // conversion's one (ConversionContext.hadoopConf) serves every file of the plan.
    val reader = format.buildReaderWithPartitionValues(session, schema, new StructType(), schema, Nil, options,
      new Configuration(conf))
    // Readers reuse their row objects: each is copied.
    val rows =
      session.sparkContext.parallelize(files, files.size).mapPartitions(_.flatMap(f => reader(f).map(_.copy())))
    SparkShim.internalCreateDataFrame(session, rows, schema).queryExecution.analyzed
  }
}
