package io.sparksubstrait.convert.rel

import scala.util.control.NonFatal

import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.ConversionContext

/**
 * What a LocalFiles item naming one plain file lets the reader skip, known from one stat of
 * the file on the driver:
 *  - a byte slice from 0 covering the whole file is the whole file, not a slice (producers
 *    such as substrait-java write every file so): no footer to read, no row filter;
 *  - the schema Spark infers from a Parquet or ORC file, cached per file version. Spark's
 *    inference runs a Spark job on every read (about 140 ms for one TPC-H file, against
 *    13 ms for the rest of the read); the cached schema is the one that job found for the
 *    same bytes (same length and modification time) under the same reader settings, so
 *    the rows and types are the same.
 * Folders and globs are listed by Spark on every read, as before.
 */
object SingleFiles {
  /** The file's status when `path` names one plain file; None for folders, globs, or what cannot be read. */
  def status(path: String)(implicit ctx: ConversionContext): Option[FileStatus] =
    try {
      val p = new Path(path)
      val fs = p.getFileSystem(SparkShim.sessionState(ctx.session).newHadoopConf())
      Some(fs.getFileStatus(p)).filter(_.isFile)
    } catch { case NonFatal(_) => None }

  /** Whether [start, start + length) covers every byte of the file at `path`. */
  def coversWholeFile(path: String, start: Long, length: Long)(implicit ctx: ConversionContext): Boolean =
    start == 0 && status(path).exists(s => length >= s.getLen)

  private final case class Key(format: String, path: String, length: Long, modified: Long, settings: Seq[(String, String)])

  private val MaxEntries = 1024
  private val inferred = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap[Key, StructType](64, 0.75f, true) {
    override def removeEldestEntry(e: java.util.Map.Entry[Key, StructType]): Boolean = size() > MaxEntries
  })

  /**
   * The inferred schema of a Parquet or ORC file: `infer` once per file version and reader
   * settings (the session's `spark.sql.parquet.*`, `spark.sql.orc.*`, `spark.sql.caseSensitive`
   * and the time zone), then the cached one. `infer` also for anything but one plain file.
   */
  def inferredSchema(format: String, path: String)(infer: => StructType)(implicit ctx: ConversionContext): StructType =
    status(path) match {
      case Some(s) if format == "parquet" || format == "orc" =>
        val settings = ctx.session.conf.getAll.toSeq.filter { case (k, _) =>
          k.startsWith(s"spark.sql.$format.") || k == "spark.sql.caseSensitive" || k == "spark.sql.session.timeZone"
        }.sorted
        val key = Key(format, s.getPath.toString, s.getLen, s.getModificationTime, settings)
        Option(inferred.get(key)).getOrElse {
          val schema = infer
          inferred.put(key, schema)
          schema
        }
      case _ => infer
    }
}
