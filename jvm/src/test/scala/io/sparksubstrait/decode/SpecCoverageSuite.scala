package io.sparksubstrait
package decode

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

import scala.jdk.CollectionConverters._

import io.sparksubstrait.decode.{PlanDecoder, SpecCoverage}
import io.sparksubstrait.decode.SpecCoverage.{Advisory, Refused}
import io.sparksubstrait.proto.{AdvancedExtension, ReadRel, Rel}

import io.sparksubstrait.testing.{Datasets, PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Every field of every message of the pinned spec (and the legacy fields merged back) is
 * classed by [[SpecCoverage]]: read, lifted, inlined, advisory or refused; a refused one set
 * in a plan is the plan's error naming it. docs/supported.md's list of advisory and refused
 * fields is this table (SPARK_SUBSTRAIT_REGENERATE_DOCS=1 rewrites it).
 */
class SpecCoverageSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = { super.beforeAll(); Datasets.registerPeople(spark) }

  test("the descriptor walk: every field of every message a plan can hold is classed, and only those") {
    val reachable = SpecCoverage.reachable
    assert(reachable.size > 150)
    val unclassed = for {
      d <- reachable
      f <- d.getFields.asScala
      if !SpecCoverage.table.get(d.getFullName).exists(_.contains(f.getName))
    } yield s"${d.getFullName}.${f.getName}"
    assert(unclassed.isEmpty, s"fields neither converted nor refused: ${unclassed.mkString(", ")}")
    val byName = reachable.map(d => d.getFullName -> d).toMap
    val stale = SpecCoverage.table.toSeq.flatMap { case (m, fields) =>
      byName.get(m) match {
        case None => Seq(m)
        case Some(d) => fields.keys.filter(d.findFieldByName(_) == null).map(f => s"$m.$f")
      }
    }
    assert(stale.isEmpty, s"classed but not in the spec: ${stale.mkString(", ")}")
  }

  test("a refused field set anywhere is the plan's error naming it, before anything runs") {
    val b = new PlanBuilder()
    val people = readNamed(Datasets.peopleSchema, "people")
    val names = Seq("id", "name", "score", "grp")
    // An extension table: no handler API reads one (extension relations have theirs: ExtensionRelationsSuite).
    val extensionTable = Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(schema("x" -> i32()))
        .setExtensionTable(ReadRel.ExtensionTable.getDefaultInstance)).build()
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.read.extension_table") {
      run(b.plan(extensionTable, "x"))
    }
    // A field a converter would otherwise not look at: an enhancement on a named table.
    val enhanced = people.toBuilder
    enhanced.getReadBuilder.getNamedTableBuilder.setAdvancedExtension(AdvancedExtension.newBuilder()
        .setEnhancement(com.google.protobuf.Any.pack(com.google.protobuf.StringValue.of("x"))))
    val e = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.read.named_table.advanced_extension.enhancement") {
      run(b.plan(enhanced.build(), names: _*))
    }
    assert(e.getMessage.contains("enhancement of substrait.extensions.AdvancedExtension"), e.getMessage)
    // An optimization there is advisory: the rows are the table's.
    val optimized = people.toBuilder
    optimized.getReadBuilder.getNamedTableBuilder.setAdvancedExtension(AdvancedExtension.newBuilder()
        .addOptimization(com.google.protobuf.Any.pack(com.google.protobuf.StringValue.of("x"))))
    assertSameRows(run(b.plan(optimized.build(), names: _*)), spark.sql("SELECT * FROM people"))
  }

  test("docs/supported.md lists the advisory and refused fields of the table") {
    val path = Paths.get("docs/supported.md")
    val doc = new String(Files.readAllBytes(path), StandardCharsets.UTF_8)
    val (begin, end) = ("<!-- spec-coverage:begin -->", "<!-- spec-coverage:end -->")
    assert(doc.contains(begin) && doc.contains(end), s"docs/supported.md lacks the $begin … $end markers")
    val section = begin + "\n" + SpecCoverageSuite.section + end
    val current = doc.substring(doc.indexOf(begin), doc.indexOf(end) + end.length)
    if (sys.env.get("SPARK_SUBSTRAIT_REGENERATE_DOCS").contains("1")) {
      Files.write(path, doc.replace(current, section).getBytes(StandardCharsets.UTF_8))
    } else {
      assert(current == section,
        "docs/supported.md's spec coverage is stale: rerun with SPARK_SUBSTRAIT_REGENERATE_DOCS=1")
    }
  }
}

object SpecCoverageSuite {

  /** The generated Markdown: a row per advisory or refused field (one per message when all its fields are alike). */
  def section: String = {
    def row(name: String, use: SpecCoverage.Use): Option[String] = use match {
      case Refused(why) => Some(s"| `$name` | refused: `SUBSTRAIT_UNSUPPORTED_FEATURE` | $why |")
      case Advisory(why) => Some(s"| `$name` | advisory (no effect on rows) | $why |")
      case _ => None
    }
    val rows = SpecCoverage.table.toSeq.sortBy(_._1).flatMap { case (message, fields) =>
      if (fields.size > 1 && fields.values.toSet.size == 1) row(s"$message (every field)", fields.values.head).toSeq
      else fields.toSeq.sortBy(_._1).flatMap { case (f, use) => row(s"$message.$f", use) }
    }
    s"""Generated from the spec coverage table (`jvm/src/main/scala/io/sparksubstrait/decode/SpecCoverageTable.scala`) by
       |`SpecCoverageSuite`, for Substrait ${PlanDecoder.SupportedVersion}. Every other field of every message is read by a
       |converter, lifted from its older form or inlined at decode time; the suite fails when the spec has a field the
       |table does not class.
       |
       |""".stripMargin + "| Field | Use | Why |\n|---|---|---|\n" + rows.map(_ + "\n").mkString
  }
}
