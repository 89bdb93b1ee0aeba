package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles.DelimiterSeparatedTextReadOptions
import org.apache.spark.sql.catalyst.expressions.{Alias, EqualTo, GetArrayItem, Literal, NamedExpression, Not}
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LocalRelation, LogicalPlan, Project, Union}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.datasources.text.TextFileFormat
import org.apache.spark.sql.types.{ArrayType, StringType, StructField, StructType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.foundation.PlanPath

/**
 * Delimiter-separated text with an escape character (other than the quote): the spec's escape
 * makes the next character literal anywhere, but Spark's CSV reader honours an escape inside
 * quotes only, so `a\,b` would be two fields there (a wrong row, or MALFORMED_RECORD when the
 * count is off). Such text is read as lines by Spark's text reader (files, folders, globs,
 * compression, byte slices; header lines counted in each file, compressed files then refused
 * as for byte slices) and split by
 * [[io.sparksubstrait.runtime.DelimitedText]]. Empty lines are skipped, as Spark's CSV reader
 * skips them; a line with another number of fields fails the query, naming the line.
 */
private[sparksubstrait] object EscapedText {
  def applies(options: DelimiterSeparatedTextReadOptions): Boolean =
    options.getEscape.nonEmpty && options.getEscape != options.getQuote

  /** The text's rows as strings of `schema` (the columns named as it says). */
  def read(item: FileOrFiles, schema: StructType, path: String, at: PlanPath)(
    implicit ctx: ConversionContext): LogicalPlan = {
    val options = item.getText
    val skip = options.getHeaderLinesToSkip
    val sliced = item.getStart != 0 || item.getLength != 0
    val line = StructType(Seq(StructField("value", StringType)))
    val lines =
      if (sliced || skip > 1) {
        val (start, end) = if (sliced) (item.getStart, item.getStart + item.getLength) else (0L, Long.MaxValue)
        TextSlices.read(path, line, Map.empty, start, end, skip, at, new TextFileFormat())
      } else if (skip == 0) LocalFilesReader.load("text", Map.empty, Some(line), path, at)
      else {
        // One header line in each file (of a folder or glob too): the files Spark's listing of the path reads, one by one.
        val files = LocalFilesReader.loadFrame("text", Map.empty, Some(line), Seq(path), at).inputFiles.toSeq.sorted
        if (files.isEmpty) LocalRelation(DataTypeUtils.toAttributes(line))
        else {
          val each = files.map(f =>
            TextSlices.read(new org.apache.hadoop.fs.Path(new java.net.URI(f)).toString, line, Map.empty, 0L,
              Long.MaxValue, skip, at, new TextFileFormat()))
          if (each.size == 1) each.head else Union(each)
        }
      }
    val value = lines.output.head
    val nonEmpty = Filter(Not(EqualTo(value, Literal(""))), lines)
    val fields = StaticInvoke(classOf[io.sparksubstrait.runtime.DelimitedText],
      ArrayType(StringType, containsNull = false), "split",
      Seq(value, Literal(options.getFieldDelimiter), Literal(options.getQuote), Literal(options.getEscape),
        Literal(schema.size)))
    Project(schema.fields.toSeq.zipWithIndex.map { case (f, i) =>
        Alias(GetArrayItem(fields, Literal(i)), f.name)(): NamedExpression
      }, nonEmpty)
  }
}
