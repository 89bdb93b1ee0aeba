package io.sparksubstrait
package convert.rel

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import io.sparksubstrait.proto.{NamedStruct, ReadRel, Rel}
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.FileAccessPolicy
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** LocalFiles: text with escapes outside quotes, ORC timestamps by the declared type, Arrow IPC files. */
class LocalFilesFormatsSuite extends SparkSuite with SubstraitAssertions {
  private var data: Path = _

  override def beforeAll(): Unit = {
    super.beforeAll()
    data = tempDir("substrait-formats")
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
    val o =
      FileOrFiles.DelimiterSeparatedTextReadOptions.newBuilder().setFieldDelimiter(",").setQuote("\"").setEscape(escape)
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

  test(
    "text with an escape: a line with another number of fields fails the query with the line, not MALFORMED_RECORD") {
    val path = write("short.csv", "1,a\n2\n")
    val e = intercept[Exception](read(files(kv, text(path)), "k", "v").collect())
    val messages =
      causes(e).map(x => String.valueOf(x.getMessage)).toSeq
    assert(messages.exists(_.contains("a line with 1 fields, where the plan's base_schema has 2 columns: '2'")),
      messages)
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
        (1, TIMESTAMP'2024-01-31 10:00:00', TIMESTAMP_NTZ'2024-01-31 10:00:00') AS t(id, tz, ntz)""").coalesce(
        1).write.orc(orc)
    }
    def item = FileOrFiles.newBuilder().setUriFolder(orc).setOrc(FileOrFiles.OrcReadOptions.getDefaultInstance).build()
    def ts(s: String) = java.time.LocalDateTime.parse(s)
    def instant(s: String) = java.time.Instant.parse(s)
    // Collected in another zone, to show that nothing depends on it.
    withConf("spark.sql.session.timeZone", "Asia/Tokyo") {
      withConf("spark.sql.datetime.java8API.enabled", "true") {
        val asDeclared =
          read(files(schema("id" -> i32(), "tz" -> precisionTimestampTz(6), "ntz" -> precisionTimestamp(6)), item),
            "id", "tz", "ntz")
        assertRows(asDeclared,
          Seq(Row(1, instant("2024-01-31T18:00:00Z"), ts("2024-01-31T10:00")), Row(2, null, null),
            Row(1, instant("2024-01-31T18:00:00Z"), ts("2024-01-31T10:00"))))
        // Swapped: the instant's UTC date and time; the wall clock as a UTC instant.
        val swapped =
          read(files(schema("id" -> i32(), "tz" -> precisionTimestamp(6), "ntz" -> precisionTimestampTz(6)), item),
            "id", "tz", "ntz")
        assertRows(swapped,
          Seq(Row(1, ts("2024-01-31T18:00"), instant("2024-01-31T10:00:00Z")), Row(2, null, null),
            Row(1, ts("2024-01-31T18:00"), instant("2024-01-31T10:00:00Z"))))
      }
    }
    // An empty file keeps the declared types.
    val empty = data.resolve("ts-empty.orc").toString
    spark.sql("SELECT TIMESTAMP'2024-01-31 10:00:00' AS tz WHERE false").write.orc(empty)
    val none = read(files(schema("tz" -> precisionTimestamp(6)),
        FileOrFiles.newBuilder().setUriFolder(empty)
          .setOrc(FileOrFiles.OrcReadOptions.getDefaultInstance).build()), "tz")
    assert(none.collect().isEmpty && none.schema("tz").dataType == org.apache.spark.sql.types.TimestampNTZType)
  }

  /** An Arrow IPC file written by Arrow Java: each inner Seq one record batch of (id, name). */
  private def arrowFile(name: String, batches: Seq[Seq[(Integer, String)]]): String = {
    import org.apache.arrow.memory.RootAllocator
    import org.apache.arrow.vector.{FieldVector, IntVector, VarCharVector, VectorSchemaRoot}
    import org.apache.arrow.vector.ipc.ArrowFileWriter
    val path = data.resolve(name)
    Files.createDirectories(path.getParent)
    val allocator = new RootAllocator(Long.MaxValue)
    val id = new IntVector("id", allocator)
    val label = new VarCharVector("name", allocator)
    val root = new VectorSchemaRoot(java.util.Arrays.asList[FieldVector](id, label))
    val out = new java.io.FileOutputStream(path.toFile)
    val writer = new ArrowFileWriter(root, null, out.getChannel)
    writer.start()
    for (batch <- batches) {
      id.allocateNew(); label.allocateNew()
      batch.zipWithIndex.foreach { case ((i, n), r) =>
        if (i == null) id.setNull(r) else id.setSafe(r, i.intValue)
        if (n == null) label.setNull(r) else label.setSafe(r, n.getBytes(StandardCharsets.UTF_8))
      }
      root.setRowCount(batch.size)
      writer.writeBatch()
    }
    writer.end(); writer.close(); out.close(); root.close(); allocator.close()
    path.toString
  }
  private def arrow(f: FileOrFiles.Builder => FileOrFiles.Builder) =
    f(FileOrFiles.newBuilder().setArrow(FileOrFiles.ArrowReadOptions.getDefaultInstance)).build()
  private val idName = schema("id" -> i32(), "name" -> string())

  test(
    "arrow IPC files: one partition per record batch, NULLs, duplicates, an empty batch and an empty file (rows by hand)") {
    val three = arrowFile("a/three.arrow", Seq(Seq((1, "a"), (2, null)), Seq((null, "c"), (1, "a")), Nil))
    val df = read(files(idName, arrow(_.setUriFile(three))), "id", "name")
    assertRows(df, Seq(Row(1, "a"), Row(2, null), Row(null, "c"), Row(1, "a")))
    assert(df.rdd.getNumPartitions == 3)
    // Columns by base_schema name, in its order.
    assertRows(read(files(schema("name" -> string()), arrow(_.setUriFile(three))), "n"),
      Seq(Row("a"), Row(null), Row("c"), Row("a")))
    val empty = arrowFile("e/empty.arrow", Nil)
    val none = read(files(idName, arrow(_.setUriFile(empty))), "id", "name")
    assert(none.collect().isEmpty && none.rdd.getNumPartitions == 0)
    // A folder (its files in name order) and a glob.
    arrowFile("a/two.arrow", Seq(Seq((7, "x"))))
    val folder = Seq(Row(1, "a"), Row(2, null), Row(null, "c"), Row(1, "a"), Row(7, "x"))
    assertRows(read(files(idName, arrow(_.setUriFolder(data.resolve("a").toString))), "id", "name"), folder)
    assertRows(read(files(idName, arrow(_.setUriPathGlob(data.resolve("a").toString + "/t*.arrow"))), "id", "name"),
      folder)
    // Aggregated by Spark SQL over the same rows: the reader's rows are ordinary rows.
    read(files(idName, arrow(_.setUriFolder(data.resolve("a").toString))), "id", "name").createOrReplaceTempView(
      "arrow_rows")
    assertSameRows(spark.sql("SELECT id, count(*) FROM arrow_rows GROUP BY id"),
      spark.sql("SELECT * FROM VALUES (1, 2L), (2, 1L), (NULL, 1L), (7, 1L) AS t(id, c)"))
  }

  test("arrow IPC files: another declared type, a byte slice and a missing file are the plan's errors") {
    val file = arrowFile("b/one.arrow", Seq(Seq((1, "a"))))
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH",
      "relations[0].root.input.read.local_files.items[0].base_schema.names[0]") {
      read(files(schema("id" -> string()), arrow(_.setUriFile(file))), "id")
    }
    // A wider integer than the file's is read exactly (NamedTableReader.layout, as for tables).
    assertRows(read(files(schema("id" -> i64()), arrow(_.setUriFile(file))), "id"), Seq(Row(1L)))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.read.local_files.items[0].start") {
      read(files(idName, arrow(_.setUriFile(file).setStart(0).setLength(10))), "id", "name")
    }
    val missing = assertPlanError("SUBSTRAIT_FILE_NOT_READABLE", "relations[0].root.input.read.local_files.items[0]") {
      read(files(idName, arrow(_.setUriFile(data.resolve("b/missing.arrow").toString))), "id", "name")
    }
    // The format by its name, not our reader's class.
    assert(missing.getMessage.contains("missing.arrow as arrow: ") && !missing.getMessage.contains("ArrowIpcSource"),
      missing.getMessage)
  }
}
