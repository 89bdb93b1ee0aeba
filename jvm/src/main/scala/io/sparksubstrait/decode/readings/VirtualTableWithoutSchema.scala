package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{NamedStruct, Plan, ReadRel, Rel, Type}

/**
 * DuckDB 1.1 writes a query without FROM (`SELECT 1 AS one`) over its dummy scan: a ReadRel of
 * a virtual table holding one row of one literal (`{i32: 42}`), with no base_schema, and a
 * projection above it whose expressions never read that row's column. The spec needs the
 * schema; the rows' literals state it: each column is its literals' type, nullable where a
 * literal is. Read with that schema (columns named `col0`, `col1`, …: nothing refers to a
 * virtual table's column by name). A row holding anything but literals of one type per column
 * (a typeless NULL, an expression) states no schema and stays the plan's error
 * (SUBSTRAIT_MISSING_FIELD at base_schema).
 */
private[sparksubstrait] object VirtualTableWithoutSchema extends Reading with LiftsOneAtATime {
  val name = "duckdb-virtual-table-without-schema"
  val releases = "DuckDB 1.1.0 to 1.1.3 (spec 0.53; 1.0 writes no plan for a query without FROM)"
  val meaning = "a virtual table (its dummy row for a query without FROM) without base_schema; read with the " +
    "schema its rows' literals state"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("duckdb", "0.53", ProducerStamp.Newest)
  override val needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set(ReadRel.VirtualTable.getDescriptor)

  def rewrite(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Message]] = Some {
    case (rel @ WithoutSchema(types), _) =>
      found(s"virtual table of ${rel.getRead.getVirtualTable.getExpressionsCount} rows: " +
        types.map(_.getKindCase.name.toLowerCase).mkString("(", ", ", ")"))
      val schema = NamedStruct.newBuilder().addAllNames(types.indices.map(i => s"col$i").asJava)
        .setStruct(Type.Struct.newBuilder().addAllTypes(types.asJava)
            .setNullability(Type.Nullability.NULLABILITY_REQUIRED))
      rel.toBuilder.setRead(rel.getRead.toBuilder.setBaseSchema(schema)).build()
  }

  /** A read of a virtual table without base_schema whose rows state one: its columns' types. */
  private object WithoutSchema {
    def unapply(rel: Rel): Option[Seq[Type]] =
      if (rel.hasRead && rel.getRead.hasVirtualTable && !rel.getRead.hasBaseSchema)
        schemaOf(rel.getRead.getVirtualTable)
      else None
  }

  /** The columns' types, when every row has the same number of literals, of one type per column. */
  private def schemaOf(vt: ReadRel.VirtualTable): Option[Seq[Type]] = {
    val rows = vt.getExpressionsList.asScala.toSeq.map(_.getFieldsList.asScala.toSeq)
    if (rows.isEmpty || rows.exists(_.size != rows.head.size) || rows.head.isEmpty) return None
    val typed = rows.map(_.map(e => if (e.hasLiteral) DeclaredTypes.of(e, Nil) else None))
    val columns = rows.head.indices.map(k => typed.map(_(k)))
    val kinds = columns.map(_.map(_.filter(_.getKindCase != Type.KindCase.KIND_NOT_SET)))
    if (kinds.exists(_.exists(_.isEmpty))) None
    else {
      val nullableOnes =
        rows.head.indices.map(k => rows.exists(r => r(k).getLiteral.getNullable || r(k).getLiteral.hasNull))
      val merged = kinds.zip(nullableOnes).map { case (ts, nullable) =>
        val plain = ts.flatten.map(required).distinct
        if (plain.size == 1) Some(if (nullable) nullableOf(plain.head) else plain.head) else None
      }
      if (merged.forall(_.isDefined)) Some(merged.flatten) else None
    }
  }

  private def required(t: Type): Type = DeclaredTypes.withNullability(t, Type.Nullability.NULLABILITY_REQUIRED)
  private def nullableOf(t: Type): Type = DeclaredTypes.withNullability(t, Type.Nullability.NULLABILITY_NULLABLE)
}
