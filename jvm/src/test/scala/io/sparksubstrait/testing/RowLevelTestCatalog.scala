package io.sparksubstrait.testing

import java.util.concurrent.ConcurrentHashMap

import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters._

import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.{CatalystTypeConverters, InternalRow}
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.connector.catalog._
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.connector.read._
import org.apache.spark.sql.connector.write._
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * A test-only DSv2 catalog whose tables support row-level DELETE and UPDATE, so that the
 * commands WriteRel DELETE and UpdateRel become run through Spark's own rewrite rules
 * (RewriteDeleteFromTable / RewriteUpdateTable). Spark's InMemoryRowLevelOperationTableCatalog
 * lives in a tests jar that Maven Central does not have for every Spark we build, hence this one.
 *
 * Each table keeps its rows in memory, in the driver (tests run local[*]). Row-level
 * operations are group-based with one group, the whole table: Spark reads every row, and the
 * write that follows replaces the table's rows with what Spark writes back. Tables are created
 * with [[RowLevelTestCatalog.define]]; register the catalog as
 * `spark.sql.catalog.<name>=io.sparksubstrait.testing.RowLevelTestCatalog`.
 */
class RowLevelTestCatalog extends TableCatalog {
  import RowLevelTestCatalog._

  private var catalogName: String = _
  override def initialize(name: String, options: CaseInsensitiveStringMap): Unit = catalogName = name
  override def name(): String = catalogName

  override def listTables(namespace: Array[String]): Array[Identifier] =
    tables.keySet().asScala.toArray.map(k => Identifier.of(k.split('.').init, k.split('.').last)).filter(
      _.namespace.sameElements(namespace))
  override def loadTable(ident: Identifier): Table = Option(tables.get(key(ident))) match {
    case Some(data) => new RowLevelTestTable(key(ident), data)
    case None => throw new NoSuchTableException(ident)
  }
  override def createTable(ident: Identifier, schema: StructType, partitions: Array[Transform],
    properties: java.util.Map[String, String]): Table = {
    define(key(ident), schema, Nil)
    loadTable(ident)
  }
  override def alterTable(ident: Identifier, changes: TableChange*): Table =
    throw new UnsupportedOperationException("ALTER")
  override def dropTable(ident: Identifier): Boolean = tables.remove(key(ident)) != null
  override def renameTable(from: Identifier, to: Identifier): Unit = throw new UnsupportedOperationException("RENAME")
}

object RowLevelTestCatalog {
  final class Data(val schema: StructType) {
    @volatile var rows: Vector[InternalRow] = Vector.empty
  }
  private val tables = new ConcurrentHashMap[String, Data]()
  private def key(ident: Identifier): String = (ident.namespace() :+ ident.name()).mkString(".")

  /** Creates (or replaces) table `name` (namespace.table) holding `rows`. */
  def define(name: String, schema: StructType, rows: Seq[Row]): Unit = {
    val data = new Data(schema)
    val toCatalyst = CatalystTypeConverters.createToCatalystConverter(schema)
    data.rows = rows.map(r => toCatalyst(r).asInstanceOf[InternalRow]).toVector
    tables.put(name, data)
  }
}

private class RowLevelTestTable(tableName: String, data: RowLevelTestCatalog.Data)
    extends Table with SupportsRead with SupportsWrite with SupportsRowLevelOperations {
  override def name(): String = tableName
  override def schema(): StructType = data.schema
  override def capabilities(): java.util.Set[TableCapability] =
    Set(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE).asJava
  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = new RowsScanBuilder(data)
  override def newWriteBuilder(info: LogicalWriteInfo): WriteBuilder = new RowsWriteBuilder(data, info, replace = false)
  override def newRowLevelOperationBuilder(info: RowLevelOperationInfo): RowLevelOperationBuilder =
    new RowLevelOperationBuilder {
      override def build(): RowLevelOperation = new RowLevelOperation {
        override def command(): RowLevelOperation.Command = info.command()
        override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = new RowsScanBuilder(data)
        // One group, the whole table: what Spark writes back is the table's new content.
        override def newWriteBuilder(info: LogicalWriteInfo): WriteBuilder =
          new RowsWriteBuilder(data, info, replace = true)
      }
    }
}

private class RowsScanBuilder(data: RowLevelTestCatalog.Data) extends ScanBuilder {
  override def build(): Scan = new Scan with Batch {
    private val rows = data.rows.toArray
    override def readSchema(): StructType = data.schema
    override def toBatch: Batch = this
    override def planInputPartitions(): Array[InputPartition] = Array(RowsPartition(rows))
    override def createReaderFactory(): PartitionReaderFactory = RowsReaderFactory
  }
}

private case class RowsPartition(rows: Array[InternalRow]) extends InputPartition

private object RowsReaderFactory extends PartitionReaderFactory {
  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    new PartitionReader[InternalRow] {
      private val it = partition.asInstanceOf[RowsPartition].rows.iterator
      private var current: InternalRow = _
      override def next(): Boolean = it.hasNext && { current = it.next(); true }
      override def get(): InternalRow = current
      override def close(): Unit = ()
    }
}

private case class RowsMessage(rows: Array[InternalRow]) extends WriterCommitMessage

private class RowsWriteBuilder(data: RowLevelTestCatalog.Data, info: LogicalWriteInfo, replace: Boolean)
    extends WriteBuilder {
  override def build(): Write = new Write {
    override def toBatch: BatchWrite = new BatchWrite {
      // The table's columns, by name, in what Spark writes (which may carry more columns).
      private val columns = data.schema.fields.map(f => info.schema().fieldIndex(f.name) -> f.dataType)
      override def createBatchWriterFactory(physical: PhysicalWriteInfo): DataWriterFactory =
        new RowsWriterFactory(columns, info.schema().size)
      override def commit(messages: Array[WriterCommitMessage]): Unit = data.synchronized {
        val written = messages.toVector.flatMap(_.asInstanceOf[RowsMessage].rows)
        data.rows = if (replace) written else data.rows ++ written
      }
      override def abort(messages: Array[WriterCommitMessage]): Unit = ()
    }
  }
}

private class RowsWriterFactory(columns: Array[(Int, org.apache.spark.sql.types.DataType)], width: Int)
    extends DataWriterFactory {
  override def createWriter(partitionId: Int, taskId: Long): DataWriter[InternalRow] = new DataWriter[InternalRow] {
    private val rows = ArrayBuffer.empty[InternalRow]
    // Spark 4.0 hands a row-level write rows led by its row-operation column, which the
    // write's schema does not list: the schema's columns are the row's last ones.
    override def write(record: InternalRow): Unit = {
      val shift = math.max(record.numFields - width, 0)
      rows += new GenericInternalRow(columns.map { case (i, t) =>
        if (record.isNullAt(i + shift)) null else InternalRow.copyValue(record.get(i + shift, t))
      })
    }
    override def commit(): WriterCommitMessage = RowsMessage(rows.toArray)
    override def abort(): Unit = ()
    override def close(): Unit = ()
  }
}
