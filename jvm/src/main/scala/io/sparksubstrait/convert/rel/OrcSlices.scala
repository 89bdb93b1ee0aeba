package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.hadoop.fs.Path
import org.apache.orc.OrcFile
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, LogicalPlan}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.datasources.FileFormat
import org.apache.spark.sql.execution.datasources.orc.OrcFileFormat
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * The rows of a byte slice [start, start + length) of one ORC file. A stripe is indivisible:
 * it belongs to the slice holding its midpoint (offset + length / 2), as a Parquet row group
 * does ([[ParquetSlices]]), so slices that tile a file read every row exactly once. The stripes
 * are listed from the file's footer, on the driver.
 *
 * ORC has no row index Spark exposes (Parquet's `_metadata.row_index`), so the kept stripes
 * are read directly: Spark's ORC reader, given a split, reads the stripes that start inside it,
 * and each kept stripe is given as the split it exactly covers ([[ExplicitSplits]]).
 */
private[sparksubstrait] object OrcSlices {
  def read(path: String, dataSchema: StructType, start: Long, length: Long, at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val conf = ctx.hadoopConf
    val file = new Path(path)
    val (size, stripes) = try {
      val reader = OrcFile.createReader(file, OrcFile.readerOptions(conf))
      val stripes = try reader.getStripes.asScala.toSeq.map(s => (s.getOffset, s.getLength))
      finally reader.close()
      (file.getFileSystem(conf).getFileStatus(file).getLen, stripes)
    } catch {
      case NonFatal(e) => throw SubstraitErrors.fileNotReadable(at, path, "orc", e)
    }
    val end = start + length
    val kept = stripes.filter { case (offset, len) => offset + len / 2 >= start && offset + len / 2 < end }
    if (kept.isEmpty) return LocalRelation(DataTypeUtils.toAttributes(dataSchema))
    // Rows, not columnar batches: the rows become a DataFrame of their own.
    ExplicitSplits.read(new OrcFileFormat(), file, size, kept, dataSchema,
      Map(FileFormat.OPTION_RETURNING_BATCH -> "false"), conf)
  }
}
