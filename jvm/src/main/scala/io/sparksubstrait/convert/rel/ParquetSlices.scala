package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.hadoop.fs.Path
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.functions.col

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * The rows of a byte slice [start, start + length) of one Parquet file. A row group is
 * indivisible: it belongs to the slice holding its midpoint (first byte + compressed size / 2),
 * the rule Parquet's readers and Spark's file splits use, so slices that tile a file read
 * every row exactly once. The row groups are found in the file's footer, on the driver (a few
 * kilobytes); their rows are kept by Spark's `_metadata.row_index` (the row's position in the
 * file), so Spark still reads the file in parallel.
 */
private[sparksubstrait] object ParquetSlices {
  def slice(df: DataFrame, path: String, start: Long, length: Long, at: PlanPath)(
    implicit ctx: ConversionContext): DataFrame = {
    val end = start + length
    val groups = rowGroups(path, at)
    // Row index ranges [from, until) of the row groups whose midpoint is in the slice.
    val firstRows = groups.scanLeft(0L)(_ + _._2)
    val ranges = groups.zip(firstRows).collect {
      case ((mid, rows), first) if mid >= start && mid < end && rows > 0 => (first, first + rows)
    }
    val index = col("_metadata.row_index")
    val keep = ranges.map { case (from, until) => index >= from && index < until }.reduceOption(_ || _)
    df.filter(keep.getOrElse(org.apache.spark.sql.functions.lit(false))).select(
      df.columns.toSeq.map(c => df.col(c)): _*)
  }

  /** (midpoint, row count) of each row group, in file order. */
  private def rowGroups(path: String, at: PlanPath)(implicit ctx: ConversionContext): Seq[(Long, Long)] = {
    val conf = ctx.hadoopConf
    try {
      val reader = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(path), conf))
      try reader.getFooter.getBlocks.asScala.toSeq.map(b => (b.getStartingPos + b.getCompressedSize / 2, b.getRowCount))
      finally reader.close()
    } catch {
      case NonFatal(e) => throw SubstraitErrors.fileNotReadable(at, path, "parquet", e)
    }
  }
}
