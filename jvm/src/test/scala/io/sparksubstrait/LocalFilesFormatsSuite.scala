package io.sparksubstrait

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import io.sparksubstrait.proto.{NamedStruct, ReadRel, Rel}
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles
import org.apache.spark.sql.Row

import io.sparksubstrait.plan.FileAccessPolicy
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** LocalFiles: text with escapes outside quotes, ORC timestamps by the declared type, Arrow IPC files. */
class LocalFilesFormatsSuite extends SparkSuite with SubstraitAssertions {
  private var data: Path = _

  override def beforeAll(): Unit = {
    super.beforeAll()
    data = Files.createTempDirectory("substrait-formats").toRealPath()
    spark.conf.set(FileAccessPolicy.ConfKey, data.toString)
  }

  override def afterAll(): Unit = { spark.conf.unset(FileAccessPolicy.ConfKey); super.afterAll() }

  private def files(schema: NamedStruct, items: FileOrFiles*): Rel = {
    val lf = ReadRel.LocalFiles.newBuilder()
    items.foreach(lf.addItems)
    Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(schema).setLocalFiles(lf)).build()
  }
  private def read(rel: Rel, names: String*) = run(new PlanBuilder().plan(rel, names: _*))
  private def write(name: String, text: String): String = {
    Files.write(data.resolve(name), text.getBytes(StandardCharsets.UTF_8))
    data.resolve(name).toString
  }
  private def text(path: String, skip: Int = 0, nullValue: Option[String] = None, escape: String = "\\") = {
    val o = FileOrFiles.DelimiterSeparatedTextReadOptions.newBuilder().setFieldDelimiter(",").setQuote("\"").setEscape(escape)
      .setHeaderLinesToSkip(skip)
    nullValue.foreach(o.setValueTreatedAsNull)
    FileOrFiles.newBuilder().setUriFile(path).setText(o).build()
  }
  private val kv = schema("k" -> string(), "v" -> string())

  test("text with an escape outside quotes: the escaped character is literal (rows worked out by hand)") {
    // Line by line: an escaped delimiter, a quoted delimiter, an escaped escape, an escaped
    // quote, an empty field, a duplicate, a blank line (skipped), the NULL marker.
    val path = write("escaped.csv", "k,v\n1,a\\,b\n2,\"q,x\"\n3,c\\\\d\n4,\\\"e\n5,\n1,a\\,b\n\n6,NA\n")
    val rows = Seq(Row("1", "a,b"), Row("2", "q,x"), Row("3", "c\\d"), Row("4", "\"e"), Row("5", ""), Row("1", "a,b"))
    assertRows(read(files(kv, text(path, skip = 1)), "k", "v"), rows :+ Row("6", "NA"))
    assertRows(read(files(kv, text(path, skip = 1, nullValue = Some("NA"))), "k", "v"), rows :+ Row("6", null))
    // Spark's CSV reader would take `a\` and `b` as two fields here: a line too many.
    // Escape equal to the quote (RFC 4180's doubled quote) stays with Spark's reader.
    val doubled = write("doubled.csv", "1,\"say \"\"hi\"\"\"\n2,\n")
    assertRows(read(files(kv, text(doubled, escape = "\"")), "k", "v"), Seq(Row("1", "say \"hi\""), Row("2", "")))
    // An empty file: no rows.
    assertRows(read(files(kv, text(write("empty.csv", ""))), "k", "v"), Nil)
  }

  test("text with an escape: a line with another number of fields fails the query with the line, not MALFORMED_RECORD") {
    val path = write("short.csv", "1,a\n2\n")
    val e = intercept[Exception](read(files(kv, text(path)), "k", "v").collect())
    val messages = Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).map(x => String.valueOf(x.getMessage)).toSeq
    assert(messages.exists(_.contains("a line with 1 fields, where the plan's base_schema has 2 columns: '2'")), messages)
    assert(!messages.exists(_.contains("MALFORMED_RECORD")), messages)
  }

  test("orc timestamps read by the declared type, with and without time zone, never shifted by the session's zone") {
    // Written in Los Angeles: the zoned column holds the instant 2024-01-31 10:00 LA = 18:00 UTC;
    // the zone-less one holds the wall clock 10:00 itself. NULLs and a duplicate row.
    val orc = data.resolve("ts.orc").toString
    withConf("spark.sql.session.timeZone", "America/Los_Angeles") {
      spark.sql("""SELECT * FROM VALUES
        (1, TIMESTAMP'2024-01-31 10:00:00', TIMESTAMP_NTZ'2024-01-31 10:00:00'),
        (2, NULL, NULL),
        (1, TIMESTAMP'2024-01-31 10:00:00', TIMESTAMP_NTZ'2024-01-31 10:00:00') AS t(id, tz, ntz)""").coalesce(1).write.orc(orc)
    }
    def item = FileOrFiles.newBuilder().setUriFolder(orc).setOrc(FileOrFiles.OrcReadOptions.getDefaultInstance).build()
    def ts(s: String) = java.time.LocalDateTime.parse(s)
    def instant(s: String) = java.time.Instant.parse(s)
    // Collected in another zone, to show that nothing depends on it.
    withConf("spark.sql.session.timeZone", "Asia/Tokyo") {
      withConf("spark.sql.datetime.java8API.enabled", "true") {
        val asDeclared = read(files(schema("id" -> i32(), "tz" -> precisionTimestampTz(6), "ntz" -> precisionTimestamp(6)), item), "id", "tz", "ntz")
        assertRows(asDeclared, Seq(Row(1, instant("2024-01-31T18:00:00Z"), ts("2024-01-31T10:00")), Row(2, null, null),
          Row(1, instant("2024-01-31T18:00:00Z"), ts("2024-01-31T10:00"))))
        // Swapped: the instant's UTC date and time; the wall clock as a UTC instant.
        val swapped = read(files(schema("id" -> i32(), "tz" -> precisionTimestamp(6), "ntz" -> precisionTimestampTz(6)), item), "id", "tz", "ntz")
        assertRows(swapped, Seq(Row(1, ts("2024-01-31T18:00"), instant("2024-01-31T10:00:00Z")), Row(2, null, null),
          Row(1, ts("2024-01-31T18:00"), instant("2024-01-31T10:00:00Z"))))
      }
    }
    // An empty file keeps the declared types.
    val empty = data.resolve("ts-empty.orc").toString
    spark.sql("SELECT TIMESTAMP'2024-01-31 10:00:00' AS tz WHERE false").write.orc(empty)
    val none = read(files(schema("tz" -> precisionTimestamp(6)), FileOrFiles.newBuilder().setUriFolder(empty)
      .setOrc(FileOrFiles.OrcReadOptions.getDefaultInstance).build()), "tz")
    assert(none.collect().isEmpty && none.schema("tz").dataType == org.apache.spark.sql.types.TimestampNTZType)
  }
}
