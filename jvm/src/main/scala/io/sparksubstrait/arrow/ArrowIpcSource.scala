package io.sparksubstrait.arrow

import java.util

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.connector.read.{Batch, InputPartition, PartitionReaderFactory, Scan, ScanBuilder}
import org.apache.spark.sql.sparksubstrait.ArrowTypes
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * Arrow IPC files (the random-access "file" format, `.arrow` / Feather v2) as a DataSource V2
 * source, which Spark lacks: `spark.read.format(classOf[ArrowIpcSource].getName).load(path)`,
 * the path a file, a folder or a glob. Each record batch of each file is one input partition,
 * read by Arrow Java (which Spark carries) into Spark's ArrowColumnVector without copying.
 * Types are Spark's own Arrow mapping; what it cannot hold exactly (dictionary-encoded
 * columns, files whose schemas differ) is an error when the source is loaded.
 */
private[sparksubstrait] class ArrowIpcSource extends TableProvider {
  override def inferSchema(options: CaseInsensitiveStringMap): StructType = {
    val session = SparkSession.active
    val files = ArrowFiles.list(options.get("path"), ArrowTypes.hadoopConf(session))
    ArrowFiles.schema(files, ArrowTypes.hadoopConf(session))
  }

  override def getTable(schema: StructType, partitioning: Array[Transform], properties: util.Map[String, String])
    : Table =
    new ArrowIpcTable(schema, properties.get("path"))
}

private[sparksubstrait] final class ArrowIpcTable(tableSchema: StructType, path: String) extends Table
    with SupportsRead {
  override def name(): String = s"arrow $path"
  override def schema(): StructType = tableSchema
  override def capabilities(): util.Set[TableCapability] = Set(TableCapability.BATCH_READ).asJava

  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder =
    () => new ArrowIpcScan(tableSchema, path)
}

private[sparksubstrait] final class ArrowIpcScan(tableSchema: StructType, path: String) extends Scan with Batch {
  override def readSchema(): StructType = tableSchema
  override def toBatch: Batch = this

  /** One partition per record batch, in file order (the driver reads each file's footer). */
  override def planInputPartitions(): Array[InputPartition] = {
    val session = SparkSession.active
    val conf = ArrowTypes.hadoopConf(session)
    ArrowFiles.list(path, conf).flatMap { file =>
      (0 until ArrowFiles.batches(file, conf)).map(i => ArrowBatchPartition(file, i): InputPartition)
    }.toArray
  }

  override def createReaderFactory(): PartitionReaderFactory =
    new ArrowBatchReaderFactory(new SerializableConf(ArrowTypes.hadoopConf(SparkSession.active)))
}

private[sparksubstrait] final case class ArrowBatchPartition(file: String, batch: Int) extends InputPartition
