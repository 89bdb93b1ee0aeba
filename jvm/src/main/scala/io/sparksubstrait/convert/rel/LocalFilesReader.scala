package io.sparksubstrait.convert.rel

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.sparksubstrait.proto.ReadRel.LocalFiles
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles.{FileFormatCase, PathTypeCase}
import org.apache.hadoop.fs.FileStatus
import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.catalyst.expressions.{Alias, Coalesce, EqualTo, If, Literal, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project, Union}
import org.apache.spark.sql.types.{StringType, StructType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.decode.FileAccessPolicy
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * LocalFiles: Parquet, ORC and delimiter-separated text, read by Spark's own data sources, and
 * Arrow IPC files, read by ours ([[io.sparksubstrait.arrow.ArrowIpcSource]], a partition per record batch),
 * each item as a file, folder or glob, several items as their union; byte slices of Parquet,
 * ORC and text files, and text after several header lines. Only paths under
 * `spark.substrait.localFiles.allowedPrefixes` are read.
 *
 * Parquet and ORC columns are matched to base_schema by name and type, as for named
 * tables. Text is strings: with `value_treated_as_null` exactly that value reads as NULL;
 * without it no value does (an empty field is an empty string).
 */
private[sparksubstrait] object LocalFilesReader {

  /** A value no text field holds, to switch off Spark's reading of empty fields as NULL. */
  private val NoNullValue = "\u0000spark-substrait: no NULL value\u0000"

  def read(files: LocalFiles, schema: StructType, exactOnly: Set[Int], at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    if (files.hasAdvancedExtension && files.getAdvancedExtension.hasEnhancement) {
      throw SubstraitErrors.unsupported(at / "advanced_extension" / "enhancement", "an enhancement", "no enhancement")
    }
    val items = files.getItemsList.asScala.toSeq
    if (items.isEmpty) throw SubstraitErrors.invalidPlan(at / "items", "no items", "one or more files")
    val policy = FileAccessPolicy.fromConf(ctx.session.conf.get(FileAccessPolicy.ConfKey, ""))
    val reads = items.zipWithIndex.map { case (item, i) =>
      readItem(item, schema, exactOnly, policy, at.at("items", i))
    }
    if (reads.size == 1) reads.head else Union(reads)
  }

  private def readItem(item: FileOrFiles, schema: StructType, exactOnly: Set[Int], policy: FileAccessPolicy,
    at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val path = item.getPathTypeCase match {
      case PathTypeCase.URI_PATH => item.getUriPath
      case PathTypeCase.URI_PATH_GLOB => item.getUriPathGlob
      case PathTypeCase.URI_FILE => item.getUriFile
      case PathTypeCase.URI_FOLDER => item.getUriFolder
      case _ => throw SubstraitErrors.missingField(at, "path_type", "a file, folder, path or glob URI")
    }
    val pathAt = at / item.getPathTypeCase.name().toLowerCase
    policy.check(path, pathAt)
    // partition_index only says which partition reads the item: it changes no row.
    val written = item.getStart != 0 || item.getLength != 0
    if (written) checkSlice(item, at)
    // One stat of a plain file serves the slice check and the read ([[SingleFiles]]).
    lazy val file = SingleFiles.status(path)
    // A slice from byte 0 that covers the whole file is the whole file.
    val sliced = written && !SingleFiles.coversWholeFile(file, item.getStart, item.getLength)
    item.getFileFormatCase match {
      case FileFormatCase.PARQUET if sliced =>
        val rows = ParquetSlices.slice(loadFrame("parquet", Map.empty, None, Seq(path), at), path, item.getStart,
          item.getLength, at)
        NamedTableReader.layout(rows.queryExecution.analyzed, schema, exactOnly, at, s"parquet $path")
      case FileFormatCase.PARQUET =>
        NamedTableReader.layout(whole("parquet", path, file, at), schema, exactOnly, at, s"parquet $path")
      case FileFormatCase.ORC if sliced =>
        val rows = OrcSlices.read(path, loadFrame("orc", Map.empty, None, Seq(path), at).schema, item.getStart,
          item.getLength, at)
        NamedTableReader.layout(OrcTimestamps.asDeclared(rows, schema), schema, exactOnly, at, s"orc $path")
      case FileFormatCase.ORC =>
        NamedTableReader.layout(OrcTimestamps.asDeclared(whole("orc", path, file, at), schema), schema, exactOnly, at,
          s"orc $path")
      case FileFormatCase.TEXT => text(item, schema, path, sliced, at)
      case FileFormatCase.ARROW if sliced =>
        throw SubstraitErrors.unsupported(at / "start", "a byte slice of an Arrow file",
          "the whole file (it is split by record batch)")
      case FileFormatCase.ARROW =>
        NamedTableReader.layout(load(classOf[io.sparksubstrait.arrow.ArrowIpcSource].getName, Map.empty, None, path,
            at), schema, exactOnly, at, s"arrow $path")
      case FileFormatCase.FILEFORMAT_NOT_SET =>
        throw SubstraitErrors.missingField(at, "file_format", "the files' format")
      case other => throw SubstraitErrors.unsupported(at / other.name().toLowerCase,
          s"${other.name().toLowerCase} files",
          "parquet, orc, arrow or delimiter-separated text (Spark has no reader for the others)")
    }
  }

  /**
   * A whole Parquet or ORC file, folder or glob: a plain file's relation is built from its
   * stat ([[SingleFiles.relation]]); folders, globs, and formats the session reads with
   * another reader, through DataFrameReader.
   */
  private def whole(format: String, path: String, file: Option[FileStatus], at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val direct = file.flatMap { f =>
      try SingleFiles.relation(format, f)(ctx.session.read.format(format).load(path).schema)
      catch { case NonFatal(e) => throw SubstraitErrors.fileNotReadable(at, path, format, e) }
    }
    direct.getOrElse(load(format, Map.empty, None, path, at))
  }

  /**
   * A byte slice [start, start + length) of one file (start 0 and length 0: the whole file).
   * Parquet (row groups found from the footer, [[ParquetSlices]]), ORC (stripes likewise,
   * [[OrcSlices]]) and text (whole lines, [[TextSlices]]).
   */
  private def checkSlice(item: FileOrFiles, at: PlanPath): Unit = {
    val (start, length) = (item.getStart, item.getLength)
    if (start < 0 || length < 0) {
      throw SubstraitErrors.invalidPlan(at / "start", s"a byte slice (start $start, length $length)",
        "a non-negative start and length")
    }
    if (length == 0) {
      throw SubstraitErrors.invalidPlan(at / "length", s"a byte slice from byte $start of length 0",
        "a positive length (start 0 and length 0: the whole file)")
    }
    if (item.getPathTypeCase != PathTypeCase.URI_FILE && item.getPathTypeCase != PathTypeCase.URI_PATH) {
      throw SubstraitErrors.unsupported(at / "start", s"a byte slice of a ${item.getPathTypeCase.name().toLowerCase}",
        "a slice of one file (uri_file or uri_path)")
    }
  }

  private def text(item: FileOrFiles, schema: StructType, path: String, sliced: Boolean, at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val options = item.getText
    val textAt = at / "text"
    schema.fields.zipWithIndex.find(!_._1.dataType.isInstanceOf[StringType]).foreach { case (f, i) =>
      throw SubstraitErrors.typeMismatch(at.at("base_schema.names", i),
        s"${SparkTypeNames.of(f.dataType)} for column ${f.name}",
        "string: delimiter-separated text is read as strings")
    }
    if (options.getFieldDelimiter.isEmpty)
      throw SubstraitErrors.missingField(textAt, "field_delimiter", "the field delimiter")
    val skip = options.getHeaderLinesToSkip
    if (skip < 0) throw SubstraitErrors.invalidPlan(textAt / "header_lines_to_skip", s"$skip header lines", "0 or more")
    if (skip > 1 &&
      (item.getPathTypeCase == PathTypeCase.URI_FOLDER || item.getPathTypeCase == PathTypeCase.URI_PATH_GLOB)) {
      throw SubstraitErrors.unsupported(textAt / "header_lines_to_skip",
        s"$skip header lines in each file of a folder or glob",
        "one file (uri_file or uri_path), or at most one header line")
    }
    // A slice, or more header lines than Spark's header option skips: TextSlices.
    // max_line_size: the spec leaves longer lines undefined, so Spark's handling is allowed.
    val spark = Map(
      "sep" -> options.getFieldDelimiter,
      "header" -> "false",
      "quote" -> options.getQuote,
      "escape" -> options.getEscape,
      "nullValue" -> NoNullValue,
      "mode" -> "FAILFAST")
    val strings = StructType(schema.fields.map(_.copy(nullable = true)))
    val raw =
      if (EscapedText.applies(options)) EscapedText.read(item, strings, path, at)
      else if (sliced || skip > 1) {
        val (start, end) = if (sliced) (item.getStart, item.getStart + item.getLength) else (0L, Long.MaxValue)
        TextSlices.read(path, strings, spark, start, end, skip, at)
      } else if (skip == 1) withHeaderLines(path, spark, strings, at)
      else load("csv", spark, Some(strings), path, at)
    // Spark's CSV reader turns an empty unquoted field into NULL whatever its options say;
    // with no real NULL possible (the marker never occurs), every NULL is such a field: "".
    // Then exactly value_treated_as_null becomes NULL, as the spec says.
    val nullValue = Options.when(options.hasValueTreatedAsNull)(options.getValueTreatedAsNull)
    Project(raw.output.map { a =>
        val text = Coalesce(Seq(a, Literal("")))
        val value = nullValue.map(v => If(EqualTo(text, Literal(v)), Literal(null, StringType), text)).getOrElse(text)
        Alias(value, a.name)(): NamedExpression
      }, raw)
  }

  /**
   * Text whose files each begin with one header line: Spark's header option, except for the
   * files whose first line is blank, which it would not take as the header ([[TextHeaders]]).
   * The files are the ones Spark's own listing of the path reads.
   */
  private def withHeaderLines(path: String, options: Map[String, String], schema: StructType, at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val listed = loadFrame("csv", options, Some(schema), Seq(path), at)
    val files = listed.inputFiles.toSeq
    val (blank, headed) = files.partition(TextHeaders.beginningBlank(files, ctx.hadoopConf, at))
    val withHeader = options + ("header" -> "true")
    if (blank.isEmpty) load("csv", withHeader, Some(schema), path, at)
    else if (headed.isEmpty) listed.queryExecution.analyzed
    else Union(loadFrame("csv", options, Some(schema), blank, at).queryExecution.analyzed,
      loadFrame("csv", withHeader, Some(schema), headed, at).queryExecution.analyzed)
  }

  private[rel] def load(format: String, options: Map[String, String], schema: Option[StructType], path: String,
    at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan =
    loadFrame(format, options, schema, Seq(path), at).queryExecution.analyzed

  private[rel] def loadFrame(format: String, options: Map[String, String], schema: Option[StructType],
    paths: Seq[String], at: PlanPath)(implicit ctx: ConversionContext): DataFrame = {
    try {
      val reader = ctx.session.read.format(format).options(options)
      // One Parquet or ORC file: the schema Spark infers from it, inferred once per file version.
      val fixed = schema.orElse(paths match {
        case Seq(one) if options.isEmpty && (format == "parquet" || format == "orc") =>
          def infer = ctx.session.read.format(format).load(one).schema
          Some(SingleFiles.status(one).fold(infer)(f => SingleFiles.inferredSchema(format, f)(infer)))
        case _ => None
      })
      fixed.foreach(reader.schema)
      val df = reader.load(paths: _*)
      df.queryExecution.analyzed
      df
    } catch {
      // Our Arrow reader is a data source named by its class: the message names the format.
      case NonFatal(e) =>
        val shown = if (format == classOf[io.sparksubstrait.arrow.ArrowIpcSource].getName) "arrow" else format
        throw SubstraitErrors.fileNotReadable(at, paths.mkString(", "), shown, e)
    }
  }
}
