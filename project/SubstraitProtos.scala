import java.nio.file.Files

import scala.collection.JavaConverters._

import com.google.protobuf.{AnyProto, EmptyProto}
import com.google.protobuf.DescriptorProtos._

import sbt._

/**
 * Our Substrait message classes, generated at build time (never checked in) from the pinned
 * spec release's descriptors (build/substrait-spec), into package io.sparksubstrait.proto.
 *
 * Producers still write fields that the pinned spec removed (function `args`, FetchRel's
 * int64 `offset`/`count`, the microsecond timestamp types, `Plan.extension_uris`, ...). The
 * spec reserved their numbers, so they can come back: every field of the oldest release on
 * PyPI (legacy.pb) that the pinned release no longer has is merged back into its message,
 * marked deprecated, with the messages it needs. The decoder then reads them like any field
 * and lifts them into the current ones (io.sparksubstrait.decode.LegacyLifting); converters
 * see the pinned spec's shape only. The merged fields are listed in SpecVersion.LEGACY_FIELDS.
 */
object SubstraitProtos {
  val JavaPackage = "io.sparksubstrait.proto"

  /** A field merged back: the message's full name, the field's name and number. */
  final case class LegacyField(message: String, name: String, number: Int)

  /** Generates the Java sources into `out`; returns them. `protoc` is the compiler binary. */
  def generate(specDir: File, specVersion: String, protoc: File, out: File, log: Logger): Seq[File] = {
    val stamp = out / ".generated-from"
    val key = s"$specVersion ${hashOf(specDir / "descriptors.pb")} ${hashOf(specDir / "legacy.pb")} $GeneratorVersion"
    if (stamp.exists && IO.read(stamp) == key) return (out ** "*.java").get
    IO.delete(out)
    IO.createDirectory(out)
    val current = FileDescriptorSet.parseFrom(Files.readAllBytes((specDir / "descriptors.pb").toPath))
    val legacy = FileDescriptorSet.parseFrom(Files.readAllBytes((specDir / "legacy.pb").toPath))
    val (merged, legacyFields) = merge(current, legacy)
    val withWellKnown = FileDescriptorSet.newBuilder()
      .addFile(AnyProto.getDescriptor.toProto).addFile(EmptyProto.getDescriptor.toProto)
      .addAllFile(merged.getFileList).build()
    val setFile = out / "substrait-merged.pb"
    IO.write(setFile, withWellKnown.toByteArray)
    protoc.setExecutable(true)
    val javaOut = out / "java"
    IO.createDirectory(javaOut)
    val cmd = Seq(protoc.getAbsolutePath, s"--descriptor_set_in=${setFile.getAbsolutePath}",
      s"--java_out=${javaOut.getAbsolutePath}") ++ merged.getFileList.asScala.map(_.getName)
    log.info(
      s"generating Substrait $specVersion message classes ($JavaPackage, ${legacyFields.size} legacy fields merged back)")
    val exit = scala.sys.process.Process(cmd).!(log)
    if (exit != 0) sys.error(s"protoc failed ($exit): ${cmd.mkString(" ")}")
    writeSpecVersion(javaOut, specVersion, legacyFields)
    IO.delete(setFile)
    IO.write(stamp, key)
    (out ** "*.java").get
  }

  /** This file: a change to it regenerates the sources. */
  private def GeneratorVersion: String = hashOf(file("project") / "SubstraitProtos.scala")

  private def hashOf(f: File): String = Hash.toHex(Hash(f))

  /** The pinned files with our Java package and the legacy fields merged back. */
  def merge(current: FileDescriptorSet, legacy: FileDescriptorSet): (FileDescriptorSet, Seq[LegacyField]) = {
    val oldMessages: Map[String, DescriptorProto] = legacy.getFileList.asScala.flatMap(f =>
      messagesOf(f.getPackage, f.getMessageTypeList.asScala.toSeq)).toMap
    val added = Seq.newBuilder[LegacyField]
    val withFields = current.getFileList.asScala.map { file =>
      def mergeMessage(prefix: String, m: DescriptorProto): DescriptorProto = {
        val name = s"$prefix.${m.getName}"
        val mb = m.toBuilder
        oldMessages.get(name).foreach { old =>
          val numbers = m.getFieldList.asScala.map(_.getNumber).toSet
          val names = m.getFieldList.asScala.map(_.getName).toSet
          old.getFieldList.asScala.filter(f => !numbers(f.getNumber) && !names(f.getName)).foreach { f =>
            val fb = f.toBuilder.setOptions(f.getOptions.toBuilder.setDeprecated(true))
            if (f.hasOneofIndex) {
              // Back into its oneof.
              val oneof = old.getOneofDecl(f.getOneofIndex).getName
              val index = mb.getOneofDeclList.asScala.indexWhere(_.getName == oneof)
              if (index >= 0) fb.setOneofIndex(index)
              else {
                // Its oneof is gone (FetchRel's count_mode): a proto3 `optional` keeps knowing
                // whether it was written, so a count of 0 stays LIMIT 0. Synthetic oneofs come last.
                mb.addOneofDecl(OneofDescriptorProto.newBuilder().setName(s"_${f.getName}"))
                fb.setOneofIndex(mb.getOneofDeclCount - 1).setProto3Optional(true)
              }
            }
            // A oneof's fields must stand together (protoc refuses them apart): after its last one.
            val fields = mb.getFieldList.asScala
            val last = if (fb.hasOneofIndex)
              fields.lastIndexWhere(x => x.hasOneofIndex && x.getOneofIndex == fb.getOneofIndex)
            else -1
            val at = if (last >= 0) last + 1 else fields.size
            val reordered = (fields.take(at) :+ fb.build()) ++ fields.drop(at)
            mb.clearField().addAllField(reordered.asJava)
            added += LegacyField(name, f.getName, f.getNumber)
          }
          // The spec reserved the numbers and names of what it removed: free them again.
          val merged = mb.getFieldList.asScala.filter(f => !numbers(f.getNumber))
          val freed = merged.map(_.getNumber).toSet
          val ranges = mb.getReservedRangeList.asScala.flatMap { r =>
            // [start, end) split around the freed numbers inside it.
            val cuts = freed.filter(n => n >= r.getStart && n < r.getEnd).toSeq.sorted
            val bounds = (r.getStart +: cuts.map(_ + 1)).zip(cuts :+ r.getEnd)
            bounds.filter { case (s, e) => s < e }
              .map { case (s, e) => DescriptorProto.ReservedRange.newBuilder().setStart(s).setEnd(e).build() }
          }
          mb.clearReservedRange().addAllReservedRange(ranges.asJava)
          val mergedNames = merged.map(_.getName).toSet
          val keptNames = mb.getReservedNameList.asScala.filterNot(mergedNames)
          mb.clearReservedName().addAllReservedName(keptNames.asJava)
          // Nested messages the legacy fields need that the pinned release removed (Type.Timestamp).
          val nested = m.getNestedTypeList.asScala.map(_.getName).toSet
          old.getNestedTypeList.asScala.filter(n => !nested(n.getName) && referenced(mb.build(), s"$name.${n.getName}"))
            .foreach(n => mb.addNestedType(n))
        }
        val merged = mb.getNestedTypeList.asScala.map(n => mergeMessage(name, n))
        mb.clearNestedType().addAllNestedType(merged.asJava).build()
      }
      val b = file.toBuilder
      b.setOptions(b.getOptions.toBuilder.setJavaPackage(JavaPackage).setJavaMultipleFiles(true))
      val top = file.getMessageTypeList.asScala.map(m => mergeMessage(file.getPackage, m))
      b.clearMessageType().addAllMessageType(top.asJava)
    }
    // Top-level messages removed since (SimpleExtensionURI), kept when a merged field of any file names them.
    val files = withFields.map { b =>
      val existing = messagesOf(b.getPackage, b.getMessageTypeList.asScala.toSeq).map(_._1).toSet
      legacy.getFileList.asScala.find(_.getName == b.getName).toSeq.flatMap(_.getMessageTypeList.asScala)
        .filter(m =>
          !existing(s"${b.getPackage}.${m.getName}") &&
            withFields.exists(f => f.getMessageTypeList.asScala.exists(referenced(_, s"${b.getPackage}.${m.getName}"))))
        .foreach(m => b.addMessageType(m))
      b.build()
    }
    (FileDescriptorSet.newBuilder().addAllFile(files.asJava).build(), added.result())
  }

  /** Every message of a file by full name (without the leading dot), nested ones too. */
  private def messagesOf(prefix: String, ms: Seq[DescriptorProto]): Seq[(String, DescriptorProto)] =
    ms.flatMap { m =>
      val name = s"$prefix.${m.getName}"
      (name -> m) +: messagesOf(name, m.getNestedTypeList.asScala.toSeq)
    }

  /** Whether any field of `m` (or of its nested messages) has type `fullName`. */
  private def referenced(m: DescriptorProto, fullName: String): Boolean =
    m.getFieldList.asScala.exists(_.getTypeName == s".$fullName") ||
      m.getNestedTypeList.asScala.exists(referenced(_, fullName))

  private def writeSpecVersion(javaOut: File, version: String, legacy: Seq[LegacyField]): Unit = {
    val fields = legacy.map(f => s"""    "${f.message}.${f.name}",""").mkString("\n")
    IO.write(javaOut / JavaPackage.replace('.', '/') / "SpecVersion.java",
      s"""package $JavaPackage;
         |
         |/** Generated by the build (project/SubstraitProtos.scala): the Substrait release these classes come from. */
         |public final class SpecVersion {
         |  private SpecVersion() {}
         |  /** The pinned spec release (build/substrait-spec.version). */
         |  public static final String VERSION = "$version";
         |  /** Fields the pinned release removed, merged back from older releases so that the decoder can lift them. */
         |  public static final String[] LEGACY_FIELDS = {
         |$fields
         |  };
         |}
         |""".stripMargin)
  }
}
