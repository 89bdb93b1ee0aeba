import sbt._

/**
 * The Spark Connect messages (proto/spark_substrait/connect/substrait_relation.proto), one
 * definition for both sides: protoc generates the JVM's classes into target/ and writes the
 * file's descriptor set, which the jar carries as a resource (DescriptorResource) and the
 * Python client loads from the bundled jar, so neither side is written by hand and Python needs
 * no generated code tied to one protobuf release.
 */
object ConnectProto {
  val ProtoRoot = "proto"
  val ProtoFile = "spark_substrait/connect/substrait_relation.proto"

  /** Where the descriptor set sits in the jar (python/spark_substrait/_connect_proto.py reads it). */
  val DescriptorResource = "io/sparksubstrait/connect/substrait_relation.pb"

  /** Java sources into `javaOut`, the descriptor set into `resourceOut`; both skipped when up to date. */
  def generate(root: File, protoc: File, javaOut: File, resourceOut: File, log: Logger): (Seq[File], File) = {
    val proto = root / ProtoRoot / ProtoFile
    val descriptor = resourceOut / DescriptorResource
    val stamp = javaOut / ".generated-from"
    val key = Hash.toHex(Hash(proto)) + " " + Hash.toHex(Hash(root / "project" / "ConnectProto.scala"))
    if (!(stamp.exists && IO.read(stamp) == key && descriptor.exists)) {
      IO.delete(javaOut)
      IO.createDirectory(javaOut)
      IO.createDirectory(descriptor.getParentFile)
      protoc.setExecutable(true)
      val cmd = Seq(protoc.getAbsolutePath, s"--proto_path=${(root / ProtoRoot).getAbsolutePath}",
        s"--java_out=${javaOut.getAbsolutePath}", s"--descriptor_set_out=${descriptor.getAbsolutePath}", ProtoFile)
      log.info(s"generating the Spark Connect message classes from $ProtoRoot/$ProtoFile")
      val exit = scala.sys.process.Process(cmd).!(log)
      if (exit != 0) sys.error(s"protoc failed ($exit): ${cmd.mkString(" ")}")
      IO.write(stamp, key)
    }
    ((javaOut ** "*.java").get, descriptor)
  }
}
