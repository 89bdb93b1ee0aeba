package io.sparksubstrait.arrow

import scala.jdk.CollectionConverters._

import org.apache.arrow.memory.RootAllocator
import org.apache.arrow.vector.ipc.ArrowFileReader
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}
import org.apache.spark.sql.vectorized.{ArrowColumnVector, ColumnVector, ColumnarBatch}

/** Reads one record batch per partition, as Spark column vectors over Arrow's own buffers. */
private[sparksubstrait] final class ArrowBatchReaderFactory(conf: SerializableConf) extends PartitionReaderFactory {
  override def supportColumnarReads(partition: InputPartition): Boolean = true

  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    throw new UnsupportedOperationException("Arrow batches are read as columns")

  override def createColumnarReader(partition: InputPartition): PartitionReader[ColumnarBatch] = {
    val p = partition.asInstanceOf[ArrowBatchPartition]
    new PartitionReader[ColumnarBatch] {
      private val allocator = new RootAllocator(Long.MaxValue)
      private val reader = try new ArrowFileReader(HadoopChannel.open(p.file, conf.value), allocator)
      catch {
        case e: Throwable => allocator.close(); throw e
      }
      private var batch: ColumnarBatch = _

      override def next(): Boolean = if (batch != null) false
      else {
        reader.loadRecordBatch(reader.getRecordBlocks.get(p.batch))
        val root = reader.getVectorSchemaRoot
        val columns: Array[ColumnVector] =
          root.getFieldVectors.asScala.map(v => new ArrowColumnVector(v): ColumnVector).toArray
        batch = new ColumnarBatch(columns, root.getRowCount)
        true
      }

      override def get(): ColumnarBatch = batch

      // Closing the reader frees the batch's buffers; Spark is done with them by then.
      override def close(): Unit = try reader.close()
      finally allocator.close()
    }
  }
}
