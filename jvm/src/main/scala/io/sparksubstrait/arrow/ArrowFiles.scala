package io.sparksubstrait.arrow

import java.io.{DataInputStream, DataOutputStream, ObjectInputStream, ObjectOutputStream}
import java.nio.ByteBuffer
import java.nio.channels.{NonWritableChannelException, SeekableByteChannel}

import scala.jdk.CollectionConverters._

import org.apache.arrow.memory.RootAllocator
import org.apache.arrow.vector.ipc.ArrowFileReader
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FSDataInputStream, FileStatus, Path}
import org.apache.spark.sql.sparksubstrait.ArrowTypes
import org.apache.spark.sql.types.StructType

/** Listing Arrow IPC files and reading their footers, on the driver. */
private[sparksubstrait] object ArrowFiles {

  /** The files of a file, folder or glob path, sorted; hidden files (`.`, `_`) left out, as Spark's sources do. */
  def list(path: String, conf: Configuration): Seq[String] = {
    require(path != null, "an Arrow source needs a path")
    val p = new Path(path)
    val fs = p.getFileSystem(conf)
    val matched = Option(fs.globStatus(p)).map(_.toSeq).getOrElse(Nil)
    if (matched.isEmpty) throw new java.io.FileNotFoundException(s"no Arrow file at $path")
    def visible(s: FileStatus) = !s.getPath.getName.startsWith(".") && !s.getPath.getName.startsWith("_")
    matched.flatMap(s =>
      if (s.isDirectory) fs.listStatus(s.getPath).toSeq.filter(f => f.isFile && visible(f)) else Seq(s))
      .map(_.getPath.toString).sorted
  }

  /** The one schema of the files (Spark's types); files of other schemas are an error. */
  def schema(files: Seq[String], conf: Configuration): StructType = {
    val schemas = files.map(f =>
      withReader(f, conf) { r =>
        val arrow = r.getVectorSchemaRoot.getSchema
        arrow.getFields.asScala.find(_.getDictionary != null).foreach { field =>
          throw new UnsupportedOperationException(
            s"$f: column ${field.getName} is dictionary-encoded, which this reader does not decode")
        }
        f -> ArrowTypes.toSpark(arrow)
      })
    schemas.find(_._2 != schemas.head._2).foreach { case (f, s) =>
      throw new IllegalArgumentException(
        s"$f has the schema ${s.simpleString}, ${schemas.head._1} ${schemas.head._2.simpleString}")
    }
    schemas.headOption.map(_._2).getOrElse(new StructType())
  }

  def batches(file: String, conf: Configuration): Int = withReader(file, conf)(_.getRecordBlocks.size)

  def withReader[T](file: String, conf: Configuration)(body: ArrowFileReader => T): T = {
    val allocator = new RootAllocator(Long.MaxValue)
    try {
      val reader = new ArrowFileReader(HadoopChannel.open(file, conf), allocator)
      try body(reader)
      finally reader.close()
    } finally allocator.close()
  }
}

/** A Hadoop file as the seekable channel Arrow's file reader reads its footer and batches from. */
private[sparksubstrait] final class HadoopChannel(in: FSDataInputStream, length: Long) extends SeekableByteChannel {
  private var open = true
  override def read(dst: ByteBuffer): Int = {
    val wanted = dst.remaining()
    if (wanted == 0) return 0
    val bytes = new Array[Byte](wanted)
    val n = in.read(bytes, 0, wanted)
    if (n > 0) dst.put(bytes, 0, n)
    n
  }
  override def position(): Long = in.getPos
  override def position(to: Long): SeekableByteChannel = { in.seek(to); this }
  override def size(): Long = length
  override def write(src: ByteBuffer): Int = throw new NonWritableChannelException
  override def truncate(size: Long): SeekableByteChannel = throw new NonWritableChannelException
  override def isOpen: Boolean = open
  override def close(): Unit = { open = false; in.close() }
}

private[sparksubstrait] object HadoopChannel {
  def open(file: String, conf: Configuration): HadoopChannel = {
    val p = new Path(file)
    val fs = p.getFileSystem(conf)
    new HadoopChannel(fs.open(p), fs.getFileStatus(p).getLen)
  }
}

/** The session's Hadoop settings, sent to the executors that open the files. */
private[sparksubstrait] final class SerializableConf(@transient var value: Configuration) extends Serializable {
  private def writeObject(out: ObjectOutputStream): Unit = {
    out.defaultWriteObject(); value.write(new DataOutputStream(out))
  }
  private def readObject(in: ObjectInputStream): Unit = {
    in.defaultReadObject()
    value = new Configuration(false)
    value.readFields(new DataInputStream(in))
  }
}
