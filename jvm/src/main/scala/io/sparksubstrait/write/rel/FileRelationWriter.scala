package io.sparksubstrait.write.rel

import org.apache.spark.sql.execution.datasources.{HadoopFsRelation, LogicalRelation}
import org.apache.spark.sql.execution.datasources.orc.OrcFileFormat
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{ReadRel, Rel}
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * File relations (spark.read.parquet(...), a catalog table's files are a NamedTable instead)
 * as LocalFiles: every file the relation reads now, as a file URI, in Parquet or ORC. Options
 * that change the values read, partition columns (values from directory names) and formats
 * whose typed columns LocalFiles cannot express (CSV, JSON: Substrait's text format is strings
 * with a delimiter) are refused.
 */
private[sparksubstrait] object FileRelationWriter {

  /** Options that only say where the files are, or restate the default. */
  private val Harmless = Set("path", "paths", "basepath")

  def write(l: LogicalRelation, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    if (NamedTableWriter.isCatalogTable(l)) return NamedTableWriter.table(l, at)
    val fs = l.relation match {
      case h: HadoopFsRelation => h
      case other => throw SubstraitErrors.unwritable(at.toString, s"a ${other.getClass.getSimpleName} relation",
          "it is neither a catalog table nor files", "catalog tables, temp views or Parquet / ORC files")
    }
    val format = fs.fileFormat match {
      case _: ParquetFileFormat =>
        (b: FileOrFiles.Builder) => b.setParquet(FileOrFiles.ParquetReadOptions.getDefaultInstance)
      case _: OrcFileFormat => (b: FileOrFiles.Builder) => b.setOrc(FileOrFiles.OrcReadOptions.getDefaultInstance)
      case other => throw SubstraitErrors.unwritable(at.toString, s"files in format ${other.toString}",
          "Substrait's LocalFiles reads delimiter-separated text as strings and has no JSON format: typed columns of these files cannot be expressed",
          "Parquet or ORC files, or a catalog table")
    }
    val options = fs.options.keys.map(_.toLowerCase).filterNot(Harmless)
    if (options.nonEmpty) {
      throw SubstraitErrors.unwritable(at.toString, s"a file read with options ${options.toSeq.sorted.mkString(", ")}",
        "LocalFiles has no place for reader options, and they may change the values read",
        "a file read without options")
    }
    if (fs.partitionSchema.nonEmpty) {
      throw SubstraitErrors.unwritable(at.toString,
        s"a partitioned file read (partition columns ${fs.partitionSchema.fieldNames.mkString(", ")})",
        "partition column values come from directory names, which LocalFiles cannot express",
        "files without partition columns")
    }
    val files = fs.location.inputFiles.toSeq.sorted
    if (files.isEmpty) {
      throw SubstraitErrors.unwritable(at.toString, "a file read of no files", "LocalFiles needs at least one file",
        "a read of one or more files")
    }
    val lf = ReadRel.LocalFiles.newBuilder()
    files.foreach { f =>
      val item = FileOrFiles.newBuilder().setUriFile(if (ctx.target.localPaths) localPath(f) else f)
      format(item)
      lf.addItems(item)
    }
    Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(BaseSchemas.of(l.output, at)).setLocalFiles(lf)).build()
  }

  /** A `file:` URI as its local path; any other URI as it is. */
  private def localPath(uri: String): String = {
    val u = new java.net.URI(uri)
    if (u.getScheme == "file") java.nio.file.Paths.get(u).toString else uri
  }
}
