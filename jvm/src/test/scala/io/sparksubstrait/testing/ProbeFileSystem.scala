package io.sparksubstrait.testing

import java.net.URI
import java.util.concurrent.atomic.AtomicInteger

import org.apache.hadoop.fs.{FileStatus, FSDataInputStream, Path, PathFilter, RawLocalFileSystem}

/**
 * The local file system under the scheme `probe:`, counting every look at a path (status,
 * listing, glob, open): a test registers it (`fs.probe.impl`) and asserts that a plan naming
 * `probe:///…` paths made no call at all, which an access time cannot prove.
 */
class ProbeFileSystem extends RawLocalFileSystem {
  override def getUri: URI = URI.create("probe:///")
  override def getScheme: String = "probe"
  private def seen[T](body: => T): T = { ProbeFileSystem.calls.incrementAndGet(); body }
  override def getFileStatus(p: Path): FileStatus = seen(super.getFileStatus(p))
  override def listStatus(p: Path): Array[FileStatus] = seen(super.listStatus(p))
  override def globStatus(p: Path): Array[FileStatus] = seen(super.globStatus(p))
  override def globStatus(p: Path, filter: PathFilter): Array[FileStatus] = seen(super.globStatus(p, filter))
  override def open(p: Path, bufferSize: Int): FSDataInputStream = seen(super.open(p, bufferSize))
  override def exists(p: Path): Boolean = seen(super.exists(p))
}

object ProbeFileSystem {
  val calls = new AtomicInteger()

  /** Registers the scheme with the session's Hadoop configuration (uncached, so each use is a fresh instance). */
  def register(spark: org.apache.spark.sql.SparkSession): Unit = {
    spark.sparkContext.hadoopConfiguration.set("fs.probe.impl", classOf[ProbeFileSystem].getName)
    spark.sparkContext.hadoopConfiguration.set("fs.probe.impl.disable.cache", "true")
  }
}
