package io.sparksubstrait.convert.rel

import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.hadoop.io.Text
import org.apache.hadoop.io.compress.CompressionCodecFactory
import org.apache.hadoop.util.LineReader

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * One header line per file, as the spec means it: the first line, whatever it holds.
 *
 * Spark's CSV reader skips blank lines (nothing but characters up to the space) before it
 * takes the header, so its `header` option drops the first line that is not blank. The two
 * agree unless a file begins with a blank line; such a file is read without the header
 * option, and Spark's reader skips that blank first line by itself. Deciding needs the first
 * line of each file, read on the driver (one short read per file).
 */
private[sparksubstrait] object TextHeaders {

  /** The files whose first line is blank (an empty file has no first line). */
  def beginningBlank(files: Seq[String], conf: Configuration, at: PlanPath): Set[String] = {
    val codecs = new CompressionCodecFactory(conf)
    files.filter(f => firstLineBlank(f, codecs, conf, at)).toSet
  }

  private def firstLineBlank(file: String, codecs: CompressionCodecFactory, conf: Configuration, at: PlanPath)
    : Boolean = {
    val path = new Path(new java.net.URI(file))
    try {
      val raw = path.getFileSystem(conf).open(path)
      // Compressed text is read through its codec, as Spark reads it.
      val in = Option(codecs.getCodec(path)).map(_.createInputStream(raw)).getOrElse(raw)
      val lines = new LineReader(in, conf)
      try {
        val line = new Text()
        // Hadoop's line reader ends lines at LF, CR and CRLF, as Spark's CSV reader does.
        lines.readLine(line) > 0 && line.copyBytes().forall(b => (b & 0xff) <= ' ')
      } finally lines.close()
    } catch {
      case NonFatal(e) => throw SubstraitErrors.fileNotReadable(at, file, "csv", e)
    }
  }
}
