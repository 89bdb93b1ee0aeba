package io.sparksubstrait.convert.rel

import scala.util.control.NonFatal

import org.apache.hadoop.fs.Path
import org.apache.hadoop.io.Text
import org.apache.hadoop.io.compress.CompressionCodecFactory
import org.apache.hadoop.util.LineReader
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, LogicalPlan}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.datasources.FileFormat
import org.apache.spark.sql.execution.datasources.csv.CSVFileFormat
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Delimiter-separated text of one file, from a byte slice and/or after more than one header
 * line, read by Spark's own CSV reader (or its text reader, for [[EscapedText]]) over one file split.
 *
 * Lines are indivisible. A line belongs to the slice [start, end) when its first byte p has
 * start < p <= end (p = 0 belongs to a slice from 0): Hadoop's rule for file splits, so slices
 * that tile a file read every line once, as Spark's own splits do. Header lines are the first
 * `skip` lines; the byte after them (found on the driver, reading only those lines with
 * Hadoop's line reader, so CR, LF and CRLF end lines as for the read itself) becomes the
 * lowest line start kept. Spark's reader is then given the one split holding exactly the lines
 * kept: a split starting at byte s > 0 skips the line holding byte s.
 */
private[sparksubstrait] object TextSlices {
  def read(path: String, schema: StructType, options: Map[String, String], start: Long, end: Long, skip: Long,
    at: PlanPath,
    format: FileFormat = new CSVFileFormat())(implicit ctx: ConversionContext): LogicalPlan = {
    val conf = ctx.hadoopConf
    val file = new Path(path)
    val (size, headerEnd) = try {
      val fs = file.getFileSystem(conf)
      val status = fs.getFileStatus(file)
      if (status.isDirectory) {
        throw SubstraitErrors.unsupported(at, s"a folder ($path) read by byte slice or after $skip header lines",
          "one file (uri_file or a uri_path naming a file)")
      }
      if (new CompressionCodecFactory(conf).getCodec(file) != null) {
        throw SubstraitErrors.unsupported(at,
          s"a compressed file ($path) read by byte slice or after $skip header lines",
          "an uncompressed file (compressed text cannot be read from the middle)")
      }
      (status.getLen, if (skip == 0) 0L else afterLines(fs.open(file), skip, conf))
    } catch {
      case e: io.sparksubstrait.errors.SubstraitException => throw e
      case NonFatal(e) => throw SubstraitErrors.fileNotReadable(at, path, "csv", e)
    }
    val last = math.min(end, size)
    // Lines start after `exclusive` (-1: line 0 too) and at or before `last`.
    val exclusive = math.max(if (start == 0) -1L else start, headerEnd - 1)
    if (exclusive >= last) return LocalRelation(DataTypeUtils.toAttributes(schema))
    // exclusive 0 (one header line of one byte) would need line 0 dropped: it is empty, and
    // Spark's CSV reader skips empty lines. Spark's own header option is never used here: it
    // drops the first non-empty line, not the first line.
    val splitStart = math.max(exclusive, 0L)
    ExplicitSplits.read(format, file, size, Seq((splitStart, last - splitStart)), schema,
      options ++ Map("header" -> "false"), conf)
  }

  /** The byte after the first `n` lines (the file's size when it has fewer). */
  private def afterLines(in: java.io.InputStream, n: Long, conf: org.apache.hadoop.conf.Configuration): Long = {
    val lines = new LineReader(in, conf)
    try {
      val text = new Text()
      var offset = 0L
      var i = 0L
      var more = true
      while (i < n && more) {
        val read = lines.readLine(text)
        if (read == 0) more = false else { offset += read; i += 1 }
      }
      offset
    } finally lines.close()
  }
}
