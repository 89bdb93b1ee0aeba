package org.apache.spark.sql.sparksubstrait

import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.datasources.{
  FileFormat, FileIndex, HadoopFsRelation, LogicalRelation, PartitionDirectory
}
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
  def singleFile(session: SparkSession, format: String, file: FileStatus, dataSchema: StructType)
    : Option[LogicalPlan] = {
    val conf = SparkShim.sqlConf(session)
    val readsV1 = conf.getConf(SQLConf.USE_V1_SOURCE_LIST).toLowerCase(java.util.Locale.ROOT).split(",").map(
      _.trim).contains(format)
    val fileFormat: Option[FileFormat] = format match {
      case "parquet" if readsV1 => Some(new ParquetFileFormat())
      case "orc" if readsV1 && conf.getConf(SQLConf.ORC_IMPLEMENTATION) == "native" => Some(new OrcFileFormat())
      case _ => None
    }
    fileFormat.map { fileFormat =>
      val index = new OneFileIndex(file)
      LogicalRelation(HadoopFsRelation(index, index.partitionSchema, dataSchema.asNullable, None, fileFormat,
          Map.empty)(session),
        isStreaming = false)
    }
  }

  /**
   * The listing of one plain file whose status the caller found: what InMemoryFileIndex lists
   * for a root path naming a file (the file, one partition without values, no partition
   * columns: the file's folder is the base path, so no `key=value` folder becomes a column).
   * Equal for the same file version, as InMemoryFileIndex is for the same root paths, so that
   * two reads of one file share an exchange (ReuseExchange compares the relations).
   */
  private final class OneFileIndex(val file: FileStatus) extends FileIndex {
    private val path: Path = file.getPath
    override def rootPaths: Seq[Path] = Seq(path)
    override def listFiles(partitionFilters: Seq[Expression], dataFilters: Seq[Expression]): Seq[PartitionDirectory] =
      Seq(PartitionDirectory(InternalRow.empty, Array(file)))
    override def inputFiles: Array[String] = Array(path.toString)
    override def refresh(): Unit = ()
    override def sizeInBytes: Long = file.getLen
    override def partitionSchema: StructType = new StructType()
    override def equals(other: Any): Boolean = other match {
      case o: OneFileIndex => o.path == path && o.file.getLen == file.getLen &&
        o.file.getModificationTime == file.getModificationTime
      case _ => false
    }
    override def hashCode(): Int = path.hashCode
    override def toString: String = s"OneFileIndex[$path]"
  }
}
