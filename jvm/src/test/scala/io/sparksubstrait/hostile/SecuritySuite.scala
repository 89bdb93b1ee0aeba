package io.sparksubstrait
package hostile

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import io.sparksubstrait.proto.{DdlRel, ExtensionLeafRel, ReadRel, Rel, UpdateRel, WriteRel}
import io.sparksubstrait.proto.ReadRel.LocalFiles.FileOrFiles
import org.apache.spark.sql.Row

import io.sparksubstrait.decode.FileAccessPolicy
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * An untrusted plan reads nothing outside spark.substrait.localFiles.allowedPrefixes and
 * writes nothing: traversal, symbolic links (to files and folders, and inside a folder
 * that is read whole), glob escapes, SQL-on-files table names, writes and DDL.
 */
class SecuritySuite extends SparkSuite with SubstraitAssertions {
  private var root: Path = _
  private val ts = schema("a" -> string(), "b" -> string())

  override def beforeAll(): Unit = {
    super.beforeAll()
    root = tempDir("substrait-security")
    val allowed = Files.createDirectories(root.resolve("allowed/inner"))
    val outside = Files.createDirectories(root.resolve("outside"))
    val linked = Files.createDirectories(root.resolve("linked"))
    Files.write(root.resolve("allowed/t.csv"), "1|a\n2|\n".getBytes(StandardCharsets.UTF_8))
    Files.write(allowed.resolve("u.csv"), "3|c\n".getBytes(StandardCharsets.UTF_8))
    Files.write(outside.resolve("secret.csv"), "9|secret\n".getBytes(StandardCharsets.UTF_8))
    spark.sql("SELECT 'secret' AS a, 'x' AS b").write.parquet(outside.resolve("p").toString)
    Files.createSymbolicLink(linked.resolve("out"), outside)
    Files.createSymbolicLink(linked.resolve("f.csv"), outside.resolve("secret.csv"))
    spark.conf.set(FileAccessPolicy.ConfKey, s"${root.resolve("allowed")},${root.resolve("linked")}")
  }

  override def afterAll(): Unit = { spark.conf.unset(FileAccessPolicy.ConfKey); super.afterAll() }

  private def text(item: FileOrFiles.Builder => FileOrFiles.Builder): Rel = {
    val f = item(FileOrFiles.newBuilder().setText(
        FileOrFiles.DelimiterSeparatedTextReadOptions.newBuilder().setFieldDelimiter("|")))
    Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(ts)
        .setLocalFiles(ReadRel.LocalFiles.newBuilder().addItems(f))).build()
  }
  private def read(rel: Rel) = run(new PlanBuilder().plan(rel, "a", "b"))
  private val item = "relations[0].root.input.read.local_files.items[0]"

  private def denied(kind: String, uri: String)(set: FileOrFiles.Builder => FileOrFiles.Builder): Unit = {
    val e = assertPlanError("SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED", s"$item.$kind") { read(text(set)).collect() }
    assert(e.getMessage.contains(uri), e.getMessage)
  }

  test("files and globs inside the prefixes are read") {
    val a = root.resolve("allowed")
    assertRows(read(text(_.setUriFile(a.resolve("t.csv").toString))), Seq(Row("1", "a"), Row("2", "")))
    assertRows(read(text(_.setUriPathGlob(s"$a/*/*.csv"))), Seq(Row("3", "c")))
    assertRows(read(text(_.setUriFolder(a.resolve("inner").toUri.toString))), Seq(Row("3", "c")))
  }

  test("'..' in paths, file URIs (also percent-encoded) and inside glob braces is refused") {
    val a = root.resolve("allowed")
    Seq(s"$a/../outside/secret.csv", s"file://$a/../outside/secret.csv", s"file://$a/%2e%2e/outside/secret.csv")
      .foreach(u => denied("uri_file", u)(_.setUriFile(u)))
    // Hadoop's globber expands braces into paths: {..} would step out of the fixed part.
    Seq(s"$a/{..,inner}/outside/secret.csv", s"$a/{../outside/secret.csv,t.csv}", s"$a/*/../../outside/*.csv")
      .foreach(u => denied("uri_path_glob", u)(_.setUriPathGlob(u)))
    // A backslash escape (.\.) would be unescaped to '..' by the globber.
    val escaped = s"$a/.\\./outside/secret.csv"
    denied("uri_path", escaped)(_.setUriPath(escaped))
  }

  test("symbolic links out of the prefixes: to a file, through a folder, inside a folder or glob read whole") {
    val l = root.resolve("linked")
    denied("uri_file", "f.csv")(_.setUriFile(l.resolve("f.csv").toString))
    denied("uri_file", "out/secret.csv")(_.setUriFile(l.resolve("out/secret.csv").toString))
    denied("uri_folder", l.toString)(_.setUriFolder(l.toString))
    denied("uri_path_glob", s"$l/*.csv")(_.setUriPathGlob(s"$l/*.csv"))
  }

  test("a named table is looked up in the catalog only: SQL-on-files names do not read files") {
    val path = root.resolve("outside/p").toString
    assert(spark.sql(s"SELECT * FROM parquet.`$path`").count() == 1) // Spark SQL itself would read it
    val rel = readNamed(ts, "parquet", path)
    val e = assertPlanError("SUBSTRAIT_TABLE_NOT_FOUND", "relations[0].root.input.read.named_table.names") {
      run(new PlanBuilder().plan(rel, "a", "b")).collect()
    }
    assert(e.getMessage.contains(path), e.getMessage)
  }

  test("writes, DDL, updates and extension relations are refused, at the root and below it") {
    val b = new PlanBuilder()
    val kinds = Seq(
      "write" -> Rel.newBuilder().setWrite(WriteRel.newBuilder().setInput(readVirtual(ts,
            Seq(Seq(litString("x"), litString("y")))))).build(),
      "ddl" -> Rel.newBuilder().setDdl(DdlRel.getDefaultInstance).build(),
      "update" -> Rel.newBuilder().setUpdate(UpdateRel.getDefaultInstance).build(),
      "extension_leaf" -> Rel.newBuilder().setExtensionLeaf(ExtensionLeafRel.getDefaultInstance).build())
    for ((kind, rel) <- kinds) {
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"relations[0].root.input.$kind") { run(b.plan(rel, "a", "b")) }
      assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", s"relations[0].root.input.filter.input.$kind") {
        run(b.plan(filter(rel, litBool(true)), "a", "b"))
      }
    }
    assert(!Files.exists(root.resolve("allowed/written")))
  }
}
