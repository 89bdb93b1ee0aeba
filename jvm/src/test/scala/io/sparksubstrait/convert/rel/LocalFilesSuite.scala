package io.sparksubstrait
package convert.rel

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import io.sparksubstrait.proto.ReadRel
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.FileAccessPolicy
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** LocalFiles reads of Parquet, ORC and text files, and the prefixes that guard them. */
class LocalFilesSuite extends SparkSuite with SubstraitAssertions {
  private var root: Path = _
  private var data: Path = _
  private val s = schema("id" -> i64(), "name" -> string())

  override def beforeAll(): Unit = {
    super.beforeAll()
    root = tempDir("substrait-files")
    data = Files.createDirectories(root.resolve("data"))
    val df = spark.sql("SELECT * FROM VALUES (1L, 'a'), (2L, NULL), (2L, NULL), (NULL, 'd') AS t(id, name)")
    df.coalesce(1).write.parquet(data.resolve("p1").toString)
    spark.sql("SELECT 7L AS id, 'x' AS name").write.parquet(data.resolve("p2").toString)
    df.write.orc(data.resolve("o1").toString)
    Files.write(data.resolve("t.csv"), "id|name\n1|a\n2|NA\n3|\n4|\"q|x\"\n".getBytes(StandardCharsets.UTF_8))
    Files.write(root.resolve("secret.csv"), "1|s\n".getBytes(StandardCharsets.UTF_8))
    Files.createSymbolicLink(data.resolve("link.csv"), root.resolve("secret.csv"))
  }

  override def afterAll(): Unit = { spark.conf.unset(FileAccessPolicy.ConfKey); super.afterAll() }

  private def allow(prefixes: String*): Unit = spark.conf.set(FileAccessPolicy.ConfKey, prefixes.mkString(","))

  private def files(schema: io.sparksubstrait.proto.NamedStruct, items: FileOrFiles*) = {
    val lf = ReadRel.LocalFiles.newBuilder()
    items.foreach(lf.addItems)
    io.sparksubstrait.proto.Rel.newBuilder().setRead(
      ReadRel.newBuilder().setBaseSchema(schema).setLocalFiles(lf)).build()
  }
  private def parquet(f: FileOrFiles.Builder => FileOrFiles.Builder) =
    f(FileOrFiles.newBuilder().setParquet(FileOrFiles.ParquetReadOptions.getDefaultInstance)).build()
  private def text(path: String, nullValue: Option[String]) = {
    val o =
      FileOrFiles.DelimiterSeparatedTextReadOptions.newBuilder().setFieldDelimiter("|").setQuote("\"").setEscape("\\")
        .setHeaderLinesToSkip(1)
    nullValue.foreach(o.setValueTreatedAsNull)
    FileOrFiles.newBuilder().setUriFile(path).setText(o).build()
  }
  private def read(rel: io.sparksubstrait.proto.Rel, names: String*) = run(new PlanBuilder().plan(rel, names: _*))

  test("parquet and orc: a file URI, a folder, a glob, several items, columns by base_schema name") {
    allow(data.toString)
    val expected = spark.read.parquet(data.resolve("p1").toString)
    assertSameRows(read(files(s, parquet(_.setUriFolder(data.resolve("p1").toUri.toString))), "id", "name"), expected)
    assertSameRows(read(files(s, parquet(_.setUriPathGlob(data.resolve("p1").toString + "/*.parquet"))), "id", "name"),
      expected)
    assertSameRows(read(files(s, parquet(_.setUriPath(data.resolve("p1").toString)),
          parquet(_.setUriFolder(data.resolve("p2").toString))), "id", "name"),
      expected.union(spark.read.parquet(data.resolve("p2").toString)))
    val orc = FileOrFiles.newBuilder().setUriFolder(data.resolve("o1").toString).setOrc(
      FileOrFiles.OrcReadOptions.getDefaultInstance).build()
    assertSameRows(read(files(schema("NAME" -> string()), orc), "n"),
      spark.read.orc(data.resolve("o1").toString).select("name"))
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.read.local_files.items[0].base_schema.names[0]") {
      read(files(schema("nope" -> string()), parquet(_.setUriFolder(data.resolve("p1").toString))), "n")
    }
  }

  test("text: delimiter, quote, header line, value treated as NULL; without it no value is NULL") {
    allow(data.toString)
    val ts = schema("id" -> string(), "name" -> string())
    assertRows(read(files(ts, text(data.resolve("t.csv").toString, Some("NA"))), "id", "name"),
      Seq(Row("1", "a"), Row("2", null), Row("3", ""), Row("4", "q|x")))
    assertRows(read(files(ts, text(data.resolve("t.csv").toString, None)), "id", "name"),
      Seq(Row("1", "a"), Row("2", "NA"), Row("3", ""), Row("4", "q|x")))
    assertPlanError("SUBSTRAIT_TYPE_MISMATCH",
      "relations[0].root.input.read.local_files.items[0].base_schema.names[0]") {
      read(files(s, text(data.resolve("t.csv").toString, None)), "id", "name")
    }
  }

  test(
    "paths outside the allowed prefixes are refused: no prefix set, '..', a symlink out, a glob escape, another scheme") {
    spark.conf.unset(FileAccessPolicy.ConfKey)
    val at = "relations[0].root.input.read.local_files.items[0].uri_file"
    val ts = schema("id" -> string(), "name" -> string())
    assertPlanError("SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED", at) {
      read(files(ts, text(data.resolve("t.csv").toString, None)), "a", "b")
    }
    allow(data.toString)
    assertPlanError("SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED", at) {
      read(files(ts, text(data.toString + "/../secret.csv", None)), "a", "b")
    }
    assertPlanError("SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED", at) {
      read(files(ts, text(data.resolve("link.csv").toString, None)), "a", "b")
    }
    assertPlanError("SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED",
      "relations[0].root.input.read.local_files.items[0].uri_path_glob") {
      read(files(s, parquet(_.setUriPathGlob(data.toString + "/../*.csv"))), "a", "b")
    }
    assertPlanError("SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED",
      "relations[0].root.input.read.local_files.items[0].uri_folder") {
      read(files(s, parquet(_.setUriFolder("s3a://bucket" + data.toString))), "a", "b")
    }
    allow(root.toString)
    assertRows(read(files(ts.toBuilder.clearNames().addNames("a").addNames("b").build(),
          FileOrFiles.newBuilder()
            .setUriFile(data.resolve("link.csv").toString).setText(
              FileOrFiles.DelimiterSeparatedTextReadOptions.newBuilder()
                .setFieldDelimiter("|")).build()), "a", "b"), Seq(Row("1", "s")))
  }

  /** One Parquet file of several row groups: 3000 rows with duplicates and NULLs, small row groups. */
  private lazy val sliced: Path = {
    val dir = data.resolve("sliced")
    spark.range(3000).selectExpr("CASE WHEN id % 7 = 0 THEN NULL ELSE id % 50 END AS id",
      "CASE WHEN id % 5 = 0 THEN NULL ELSE concat('n', id % 30) END AS name")
      .coalesce(1).write.option("parquet.block.size", "4096").parquet(dir.toString)
    Files.list(dir).filter(_.toString.endsWith(".parquet")).findFirst().get()
  }

  /** Spark's own answer: the rows its reader gives each file split [k * size, (k + 1) * size). */
  private def splitsOf(file: Path, size: Long): Map[Long, Seq[Row]] =
    withConf("spark.sql.files.maxPartitionBytes", size.toString) {
      // Spark splits files at min(maxPartitionBytes, max(openCostInBytes, bytes per core)).
      withConf("spark.sql.files.openCostInBytes", size.toString) {
        val rows = spark.read.parquet(file.toString).selectExpr("input_file_block_start() AS s",
          "input_file_block_length() AS l", "id", "name")
          .collect().toSeq
        assert(rows.forall(r => r.getLong(1) == size || r.getLong(0) + r.getLong(1) == Files.size(file)),
          "Spark's splits are not of this size")
        rows.groupBy(_.getLong(0)).map { case (k, rows) => k -> rows.map(r => Row(r.get(2), r.get(3))) }
      }
    }

  test(
    "parquet byte slices: slices tiling a file give every row once; a lone slice gives the rows of Spark's own split") {
    allow(root.toString)
    val file = sliced
    val size = Files.size(file)
    val groups = {
      val reader = org.apache.parquet.hadoop.ParquetFileReader.open(
        org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toString),
          spark.sparkContext.hadoopConfiguration))
      try reader.getFooter.getBlocks.size
      finally reader.close()
    }
    assert(groups >= 4, s"row groups: $groups")
    val whole = spark.read.parquet(file.toString).collect().toSeq
    def slice(start: Long, length: Long) = parquet(_.setUriFile(file.toUri.toString).setStart(start).setLength(length))
    for (parts <- Seq(2, 3, 7)) {
      val step = size / parts + 1
      val items = (0 until parts).map(k => slice(k * step, step))
      assertRows(read(files(s, items: _*), "id", "name"), whole)
      // Each slice alone: what Spark's reader gives the file split of the same bytes.
      val expected = splitsOf(file, step)
      for (k <- 0 until parts) {
        assertRows(read(files(s, slice(k * step, step)), "id", "name"), expected.getOrElse(k * step, Nil))
      }
    }
    // A slice holding no row group's midpoint reads nothing; one past the file's end too.
    assertRows(read(files(s, slice(0, 1)), "id", "name"), Nil)
    assertRows(read(files(s, slice(size + 10, 100)), "id", "name"), Nil)
    // A uri_path naming the file, and columns chosen by base_schema.
    assertRows(read(files(schema("name" -> string()), parquet(_.setUriPath(file.toString).setStart(0).setLength(size))),
        "n"),
      whole.map(r => Row(r.get(1))))
  }

  test("a byte range from 0 covering the whole file is the whole file (parquet, orc, text): no slice, the same rows") {
    allow(root.toString)
    val file = sliced
    val size = Files.size(file)
    val whole = spark.read.parquet(file.toString).collect().toSeq
    for (length <- Seq(size, size + 100)) {
      val df = read(files(s, parquet(_.setUriFile(file.toUri.toString).setStart(0).setLength(length))), "id", "name")
      assertRows(df, whole)
      // No row-index filter: Spark reads the file as a plain scan.
      assert(!df.queryExecution.analyzed.treeString.contains("row_index"), df.queryExecution.analyzed.treeString)
    }
    val orcFile = slicedOrc
    val orc =
      FileOrFiles.newBuilder().setUriFile(orcFile.toUri.toString).setOrc(FileOrFiles.OrcReadOptions.getDefaultInstance)
        .setStart(0).setLength(Files.size(orcFile)).build()
    assertSameRows(read(files(s, orc), "id", "name"), spark.read.orc(orcFile.toString))
    val csv = data.resolve("t.csv")
    val whole2 = read(files(ab, textItem(csv, 1)), "a", "b").collect().toSeq
    assertRows(read(files(ab, textItem(csv, 1, 0, Files.size(csv))), "a", "b"), whole2)
    // One byte short of the file is still a slice: the last line is cut off at its first byte only.
    assertRows(read(files(ab, textItem(csv, 1, 0, Files.size(csv) - 1)), "a", "b"), whole2)
  }

  test(
    "a Parquet or ORC file's inferred schema is reused only for the same file version: a rewritten file is read anew") {
    allow(root.toString)
    val folder = root.resolve("rewritten")
    def write(df: org.apache.spark.sql.DataFrame, format: String): Path = {
      df.coalesce(1).write.mode("overwrite").format(format).save(folder.resolve(format).toString)
      val part = Files.list(folder.resolve(format)).filter(_.getFileName.toString.startsWith("part-")).findFirst().get
      val target = folder.resolve(s"one.$format")
      Files.copy(part, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING)
      target
    }
    for (format <- Seq("parquet", "orc")) {
      def item(f: Path) = {
        val b = FileOrFiles.newBuilder().setUriFile(f.toUri.toString)
        if (format == "parquet") b.setParquet(FileOrFiles.ParquetReadOptions.getDefaultInstance)
        else b.setOrc(FileOrFiles.OrcReadOptions.getDefaultInstance)
        b.build()
      }
      val first = write(spark.sql("SELECT * FROM VALUES (1L, 'a'), (NULL, 'b') AS t(id, name)"), format)
      assertRows(read(files(s, item(first)), "id", "name"), Seq(Row(1L, "a"), Row(null, "b")))
      assertRows(read(files(s, item(first)), "id", "name"), Seq(Row(1L, "a"), Row(null, "b")))
      // The same path now holds other columns and rows: the schema is inferred again.
      val second =
        write(spark.sql("SELECT * FROM VALUES ('z', 5L, 1.5D), ('y', 6L, NULL) AS t(name, id, extra)"), format)
      assert(second == first)
      assertRows(read(files(s, item(second)), "id", "name"), Seq(Row(5L, "z"), Row(6L, "y")))
      assertRows(read(files(schema("extra" -> fp64()), item(second)), "e"), Seq(Row(1.5), Row(null)))
    }
  }

  test(
    "a whole Parquet or ORC file is scanned by a relation built from one stat of it; other readers of the format go through DataFrameReader") {
    allow(root.toString)
    val (pq, orc) = (sliced, slicedOrc)
    val pqItem = parquet(_.setUriFile(pq.toUri.toString))
    val orcItem = FileOrFiles.newBuilder().setUriFile(orc.toUri.toString).setOrc(
      FileOrFiles.OrcReadOptions.getDefaultInstance).build()
    def scanOf(df: org.apache.spark.sql.DataFrame) = df.queryExecution.analyzed.collect {
      case l: org.apache.spark.sql.execution.datasources.LogicalRelation => l.relation
      case v2: org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation => v2.table
    }
    for ((item, file, format) <- Seq((pqItem, pq, "parquet"), (orcItem, orc, "orc"))) {
      val df = read(files(s, item), "id", "name")
      assertSameRows(df, spark.read.format(format).load(file.toString))
      scanOf(df) match {
        case Seq(r: org.apache.spark.sql.execution.datasources.HadoopFsRelation) =>
          assert(r.location.inputFiles.toSeq.map(u => java.nio.file.Paths.get(new java.net.URI(u))) == Seq(file),
            r.location.inputFiles.toSeq)
          assert(r.partitionSchema.isEmpty && r.options.isEmpty && r.dataSchema.forall(_.nullable))
        case other => fail(s"$format: $other")
      }
    }
    // Parquet and ORC through data source v2, ORC through Hive's reader: DataFrameReader's relation, the same rows.
    for ((key, value, item, file, format) <- Seq(
        ("spark.sql.sources.useV1SourceList", "", pqItem, pq, "parquet"),
        ("spark.sql.sources.useV1SourceList", "", orcItem, orc, "orc"),
        ("spark.sql.orc.impl", "hive", orcItem, orc, "orc"))) {
      withConf(key, value) {
        val df = read(files(s, item), "id", "name")
        assertSameRows(df, spark.read.format(format).load(file.toString))
        if (key == "spark.sql.sources.useV1SourceList") assert(
          scanOf(df).forall(!_.isInstanceOf[org.apache.spark.sql.execution.datasources.HadoopFsRelation]), scanOf(df))
      }
    }
  }

  test(
    "two reads of one whole file: the rows of SQL's self-join, and Spark shuffles the file once (its relations are equal)") {
    allow(root.toString)
    val file = Files.list(data.resolve("p1")).filter(_.toString.endsWith(".parquet")).findFirst().get()
    val item = parquet(_.setUriFile(file.toUri.toString))
    val b = new PlanBuilder()
    val joined = join(files(s, item), files(s, item), io.sparksubstrait.proto.JoinRel.JoinType.JOIN_TYPE_INNER,
      Some(b.call(b.fn("functions_comparison", "equal:any_any"), field(0), field(2))))
    spark.read.parquet(file.toString).createOrReplaceTempView("p1_file")
    withConf("spark.sql.autoBroadcastJoinThreshold", "-1") {
      val df = run(b.plan(joined, "a", "b", "c", "d"))
      // Duplicate keys (2, 2) and a NULL key: five rows.
      assertSameRows(df, spark.sql("SELECT * FROM p1_file x JOIN p1_file y ON x.id = y.id"))
      assert(df.count() == 5)
      assert(df.queryExecution.executedPlan.toString.contains("ReusedExchange"),
        df.queryExecution.executedPlan.treeString)
      val sizes = df.queryExecution.analyzed.collect {
        case l: org.apache.spark.sql.execution.datasources.LogicalRelation =>
          l.relation.asInstanceOf[org.apache.spark.sql.execution.datasources.HadoopFsRelation].location.sizeInBytes
      }
      assert(sizes == Seq(Files.size(file), Files.size(file)), sizes)
    }
  }

  private def lines(name: String, text: String): Path = {
    val f = data.resolve(name)
    if (!Files.exists(f)) Files.write(f, text.getBytes(StandardCharsets.UTF_8))
    f
  }
  private val ab = schema("a" -> string(), "b" -> string())
  private def textItem(f: Path, skip: Int, start: Long = 0, length: Long = 0, nullValue: Option[String] = None) = {
    val o =
      FileOrFiles.DelimiterSeparatedTextReadOptions.newBuilder().setFieldDelimiter("|").setQuote("\"").setEscape("\\")
        .setHeaderLinesToSkip(skip)
    nullValue.foreach(o.setValueTreatedAsNull)
    FileOrFiles.newBuilder().setUriFile(f.toString).setText(o).setStart(start).setLength(length).build()
  }

  test("text byte slices and several header lines: whole lines by their first byte, hand-worked") {
    allow(root.toString)
    // Lines start at bytes 0, 4 and 9; the file has 15 bytes.
    val tiny = lines("tiny.csv", "a|1\nbb|2\nccc|3\n")
    def rowsOf(items: FileOrFiles*) = read(files(ab, items: _*), "a", "b")
    assertRows(rowsOf(textItem(tiny, 0, 0, 4)), Seq(Row("a", "1"), Row("bb", "2")))
    assertRows(rowsOf(textItem(tiny, 0, 4, 1)), Nil)
    assertRows(rowsOf(textItem(tiny, 0, 5, 100)), Seq(Row("ccc", "3")))
    assertRows(rowsOf(textItem(tiny, 0, 0, 4), textItem(tiny, 0, 4, 1), textItem(tiny, 0, 5, 100)),
      Seq(Row("a", "1"), Row("bb", "2"), Row("ccc", "3")))
    assertRows(rowsOf(textItem(tiny, 0, 3, 6)), Seq(Row("bb", "2"), Row("ccc", "3")))
    // Header lines: two, all three, more than the file has; with a slice.
    assertRows(rowsOf(textItem(tiny, 2)), Seq(Row("ccc", "3")))
    assertRows(rowsOf(textItem(tiny, 3)), Nil)
    assertRows(rowsOf(textItem(tiny, 5)), Nil)
    assertRows(rowsOf(textItem(tiny, 1, 0, 4)), Seq(Row("bb", "2")))
    assertRows(rowsOf(textItem(tiny, 2, 0, 4)), Nil)
    // CRLF and CR end lines too; a NULL marker, duplicates.
    val crlf = lines("crlf.csv", "h1\r\nh2\rx|NA\r\nx|NA\r\ny|2")
    assertRows(rowsOf(textItem(crlf, 2, nullValue = Some("NA"))), Seq(Row("x", null), Row("x", null), Row("y", "2")))
    assertRows(rowsOf(textItem(crlf, 3, nullValue = Some("NA"))), Seq(Row("x", null), Row("y", "2")))
  }

  test("text with one header line: the first line goes whatever it holds, blank or not, per file of a folder too") {
    allow(root.toString)
    def rowsOf(items: FileOrFiles*) = read(files(ab, items: _*), "a", "b")
    // Spark's own header option would drop "h1|h2" here: it skips blank lines before taking one.
    assertRows(rowsOf(textItem(lines("blank-first.csv", "\nh1|h2\n1|a\n1|a\n"), 1)),
      Seq(Row("h1", "h2"), Row("1", "a"), Row("1", "a")))
    assertRows(rowsOf(textItem(lines("spaces-first.csv", " \t \n1|NA\n"), 1, nullValue = Some("NA"))),
      Seq(Row("1", null)))
    assertRows(rowsOf(textItem(lines("crlf-first.csv", "\r\nx|y\r\n2|b"), 1)), Seq(Row("x", "y"), Row("2", "b")))
    // A first line of delimiters only is not blank: it is the header.
    assertRows(rowsOf(textItem(lines("delims-first.csv", "|\n3|c\n"), 1)), Seq(Row("3", "c")))
    assertRows(rowsOf(textItem(lines("header-only.csv", "a|b\n"), 1)), Nil)
    assertRows(rowsOf(textItem(lines("empty.csv", ""), 1)), Nil)
    // A folder whose files begin one with a header, one with a blank line: each loses its first line.
    val dir = Files.createDirectories(data.resolve("headers"))
    Files.write(dir.resolve("a.csv"), "h|h\n1|a\n".getBytes(StandardCharsets.UTF_8))
    Files.write(dir.resolve("b.csv"), "\nx|y\n2|b\n".getBytes(StandardCharsets.UTF_8))
    val expected = Seq(Row("1", "a"), Row("x", "y"), Row("2", "b"))
    assertRows(rowsOf(FileOrFiles.newBuilder(textItem(dir, 1)).setUriFolder(dir.toString).build()), expected)
    assertRows(rowsOf(FileOrFiles.newBuilder(textItem(dir, 1)).setUriPathGlob(dir.toString + "/*.csv").build()),
      expected)
    // Every file with a header line: Spark's header option, unchanged.
    assertRows(rowsOf(FileOrFiles.newBuilder(textItem(dir, 1)).setUriPathGlob(dir.toString + "/a*.csv").build()),
      Seq(Row("1", "a")))
  }

  test(
    "text byte slices: slices tiling a file give every line once; a lone slice gives the rows of Spark's own split") {
    allow(root.toString)
    val body = (0 until 600).map(i => s"k${i % 37}|${if (i % 4 == 0) "NA" else "v" + ("x" * (i % 11))}\n").mkString
    val f = lines("many.csv", body)
    val size = Files.size(f)
    val whole = body.split("\n").toSeq.map(_.split('|')).map(a => Row(a(0), if (a(1) == "NA") null else a(1)))
    for (parts <- Seq(2, 3, 7, 13)) {
      val step = size / parts + 1
      val items = (0 until parts).map(k => textItem(f, 0, k * step, step, Some("NA")))
      assertRows(read(files(ab, items: _*), "a", "b"), whole)
      val expected = withConf("spark.sql.files.maxPartitionBytes", step.toString) {
        withConf("spark.sql.files.openCostInBytes", step.toString) {
          spark.read.option("sep", "|").option("nullValue", "NA").schema("a STRING, b STRING").csv(f.toString)
            .selectExpr("input_file_block_start() AS s", "a", "b").collect().toSeq
            .groupBy(_.getLong(0)).map { case (k, rows) => k -> rows.map(r => Row(r.get(1), r.get(2))) }
        }
      }
      assert(expected.size == parts, s"Spark's splits: ${expected.keys}")
      for (k <- 0 until parts) {
        assertRows(read(files(ab, textItem(f, 0, k * step, step, Some("NA"))), "a", "b"),
          expected.getOrElse(k * step, Nil))
      }
    }
  }

  /** One ORC file of several stripes: 6000 rows with duplicates and NULLs, small stripes (ORC's writer ends a stripe at most every 1024 rows). */
  private lazy val slicedOrc: Path = {
    val dir = data.resolve("sliced-orc")
    spark.range(6000).selectExpr("CASE WHEN id % 7 = 0 THEN NULL ELSE id % 50 END AS id",
      "CASE WHEN id % 5 = 0 THEN NULL ELSE concat('n', id % 30) END AS name")
      .coalesce(1).write.option("orc.stripe.size", "512").option("orc.rows.between.memory.checks", "10").orc(
        dir.toString)
    Files.list(dir).filter(_.toString.endsWith(".orc")).findFirst().get()
  }

  test("orc byte slices: a stripe goes to the slice holding its midpoint; slices tiling a file give every row once") {
    allow(root.toString)
    val file = slicedOrc
    val size = Files.size(file)
    // The stripes (offset, length, rows) from the footer, and the file's rows in file order:
    // a slice's rows, worked out, are the rows of the stripes whose midpoint it holds.
    val stripes = {
      val reader = org.apache.orc.OrcFile.createReader(new org.apache.hadoop.fs.Path(file.toString),
        org.apache.orc.OrcFile.readerOptions(spark.sparkContext.hadoopConfiguration))
      try {
        import scala.jdk.CollectionConverters._;
        reader.getStripes.asScala.toSeq.map(s => (s.getOffset, s.getLength, s.getNumberOfRows))
      } finally reader.close()
    }
    assert(stripes.size >= 4, s"stripes: ${stripes.size}")
    val inOrder = withConf("spark.sql.files.maxPartitionBytes", (size + 1).toString) {
      spark.read.orc(file.toString).collect().toSeq
    }
    val firstRows = stripes.scanLeft(0L)(_ + _._3)
    def expected(start: Long, length: Long): Seq[Row] =
      stripes.zip(firstRows).flatMap { case ((offset, len, rows), first) =>
        val mid = offset + len / 2
        if (mid >= start && mid < start + length) inOrder.slice(first.toInt, (first + rows).toInt) else Nil
      }
    def slice(start: Long, length: Long) =
      FileOrFiles.newBuilder().setUriFile(file.toUri.toString).setOrc(FileOrFiles.OrcReadOptions.getDefaultInstance)
        .setStart(start).setLength(length).build()
    for (parts <- Seq(2, 3, 7)) {
      val step = size / parts + 1
      assertRows(read(files(s, (0 until parts).map(k => slice(k * step, step)): _*), "id", "name"), inOrder)
      for (k <- 0 until parts) {
        assertRows(read(files(s, slice(k * step, step)), "id", "name"), expected(k * step, step))
      }
    }
    // One stripe's bytes exactly; a slice holding no midpoint; one past the file's end.
    val (offset, len, rows) = stripes(1)
    assertRows(read(files(s, slice(offset, len)), "id", "name"),
      inOrder.slice(stripes(0)._3.toInt, (stripes(0)._3 + rows).toInt))
    assertRows(read(files(s, slice(0, 1)), "id", "name"), Nil)
    assertRows(read(files(s, slice(size + 10, 100)), "id", "name"), Nil)
    // Columns chosen by base_schema.
    assertRows(read(files(schema("name" -> string()), slice(0, size)), "n"), inOrder.map(r => Row(r.get(1))))
  }

  test("byte slices of folders and globs, negative or empty slices are refused") {
    allow(root.toString)
    val file = sliced.toString
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.read.local_files.items[0].start") {
      read(files(s,
          parquet(_.setUriPathGlob(data.resolve("sliced").toString + "/*.parquet").setStart(0).setLength(10))), "a",
        "b")
    }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.read.local_files.items[0]") {
      read(files(ab, FileOrFiles.newBuilder(textItem(data, 2)).setUriPath(data.toString).build()), "a", "b")
    }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.read.local_files.items[0].text.header_lines_to_skip") {
      read(files(ab, FileOrFiles.newBuilder(textItem(data, 2)).setUriFolder(data.toString).build()), "a", "b")
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN",
      "relations[0].root.input.read.local_files.items[0].text.header_lines_to_skip") {
      read(files(ab, textItem(data.resolve("t.csv"), -1)), "a", "b")
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.read.local_files.items[0].start") {
      read(files(s, parquet(_.setUriFile(file).setStart(-1).setLength(10))), "a", "b")
    }
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.read.local_files.items[0].length") {
      read(files(s, parquet(_.setUriFile(file).setStart(10))), "a", "b")
    }
  }

  test("byte slices and dwrf files are refused; a missing file is named") {
    allow(root.toString)
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.read.local_files.items[0].start") {
      read(files(s, parquet(_.setUriFolder(data.resolve("p1").toString).setStart(4).setLength(10))), "a", "b")
    }
    // Arrow files: LocalFilesFormatsSuite.
    val dwrf = FileOrFiles.newBuilder().setUriFile(data.resolve("x.dwrf").toString).setDwrf(
      FileOrFiles.DwrfReadOptions.getDefaultInstance).build()
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.read.local_files.items[0].dwrf") {
      read(files(s, dwrf), "a", "b")
    }
    val e = assertPlanError("SUBSTRAIT_FILE_NOT_READABLE", "relations[0].root.input.read.local_files.items[0]") {
      read(files(s, parquet(_.setUriFolder(data.resolve("missing").toString))), "a", "b")
    }
    assert(e.getMessage.contains("missing"))
  }
}
