package org.apache.spark.sql.sparksubstrait

import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.datasources.{FileFormat, FileStatusCache, HadoopFsRelation, InMemoryFileIndex, LogicalRelation}
import org.apache.spark.sql.execution.datasources.orc.OrcFileFormat
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.StructType

/**
 * The relation `spark.read.schema(s).format(f).load(file)` makes of one plain Parquet or ORC
 * file, built directly. Through DataFrameReader every read of a file pays for a thread pool
 * that checks the path exists (DataSource.checkAndGlobPathIfNecessary), a listing of the file
 * and an analysis of its DataFrame: about 3 ms per file, most of a LocalFiles plan's
 * conversion. Here the file's status, found once by the caller, is the index's listing, and
 * the relation is the one DataSource.resolveRelation builds for the same file and schema
 * (the data schema made nullable, no partition columns, no options), so scans, pushdown and
 * rows are the same.
 */
object FileRelations {
  /**
   * The relation of `file` in `format` ("parquet", or "orc" with the native reader) with
   * `dataSchema`; None when the session reads that format otherwise (a data source v2
   * reader, Hive's ORC), which the caller then reads through DataFrameReader.
   */
  def singleFile(session: SparkSession, format: String, file: FileStatus, dataSchema: StructType): Option[LogicalPlan] = {
    val conf = SparkShim.sqlConf(session)
    val readsV1 = conf.getConf(SQLConf.USE_V1_SOURCE_LIST).toLowerCase(java.util.Locale.ROOT).split(",").map(_.trim).contains(format)
    val fileFormat: Option[FileFormat] = format match {
      case "parquet" if readsV1 => Some(new ParquetFileFormat())
      case "orc" if readsV1 && conf.getConf(SQLConf.ORC_IMPLEMENTATION) == "native" => Some(new OrcFileFormat())
      case _ => None
    }
    fileFormat.map { fileFormat =>
      val index = new InMemoryFileIndex(session, Seq(file.getPath), Map.empty[String, String], Some(dataSchema),
        new OneFileStatus(file))
      LogicalRelation(HadoopFsRelation(index, index.partitionSchema, dataSchema.asNullable, None, fileFormat, Map.empty)(session),
        isStreaming = false)
    }
  }

  /** The index's listing of the one file: the status the caller found. */
  private final class OneFileStatus(file: FileStatus) extends FileStatusCache {
    override def getLeafFiles(path: Path): Option[Array[FileStatus]] = if (path == file.getPath) Some(Array(file)) else None
    override def putLeafFiles(path: Path, leafFiles: Array[FileStatus]): Unit = ()
    override def invalidateAll(): Unit = ()
  }
}
