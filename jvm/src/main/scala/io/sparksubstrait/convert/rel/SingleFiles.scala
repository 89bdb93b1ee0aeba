package io.sparksubstrait.convert.rel

import scala.util.control.NonFatal

import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.sparksubstrait.FileRelations
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
 *    the rows and types are the same;
 *  - DataFrameReader's path checks and listing: the relation is built from that stat
 *    ([[FileRelations.singleFile]]).
 * Folders and globs are listed by Spark on every read, as before.
 */
private[sparksubstrait] object SingleFiles {

  /** The file's status when `path` names one plain file; None for folders, globs, or what cannot be read. */
  def status(path: String)(implicit ctx: ConversionContext): Option[FileStatus] =
    try {
      val p = new Path(path)
      Some(p.getFileSystem(ctx.hadoopConf).getFileStatus(p)).filter(_.isFile)
    } catch { case NonFatal(_) => None }

  /** Whether [start, start + length) covers every byte of `file`. */
  def coversWholeFile(file: Option[FileStatus], start: Long, length: Long): Boolean =
    start == 0 && file.exists(s => length >= s.getLen)

  /**
   * The relation of one whole Parquet or ORC file with its inferred schema (`infer`, once per
   * file version); None when the session reads the format through another reader.
   */
  def relation(format: String, file: FileStatus)(infer: => StructType)(
    implicit ctx: ConversionContext): Option[LogicalPlan] =
    FileRelations.singleFile(ctx.session, format, file, inferredSchema(format, file)(infer))

  private final case class Key(format: String, path: String, length: Long, modified: Long,
    settings: Seq[(String, String)])

  private val MaxEntries = 1024
  private val inferred =
    java.util.Collections.synchronizedMap(new java.util.LinkedHashMap[Key, StructType](64, 0.75f, true) {
      override def removeEldestEntry(e: java.util.Map.Entry[Key, StructType]): Boolean = size() > MaxEntries
    })

  /**
   * The inferred schema of a Parquet or ORC file: `infer` once per file version and reader
   * settings (the session's `spark.sql.parquet.*`, `spark.sql.orc.*`, `spark.sql.caseSensitive`
   * and the time zone), then the cached one.
   */
  def inferredSchema(format: String, file: FileStatus)(infer: => StructType)(
    implicit ctx: ConversionContext): StructType = {
    val settings = ctx.session.conf.getAll.toSeq.filter { case (k, _) =>
      k.startsWith(s"spark.sql.$format.") || k == "spark.sql.caseSensitive" || k == "spark.sql.session.timeZone"
    }.sorted
    val key = Key(format, file.getPath.toString, file.getLen, file.getModificationTime, settings)
    Option(inferred.get(key)).getOrElse {
      val schema = infer
      inferred.put(key, schema)
      schema
    }
  }
}
