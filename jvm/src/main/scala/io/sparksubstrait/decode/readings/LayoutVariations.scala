package io.sparksubstrait.decode.readings

import com.google.protobuf.Message
import io.sparksubstrait.proto.{Expression, Plan, Type}
import io.sparksubstrait.proto.Expression.Literal.LiteralTypeCase

/**
 * DataFusion writes undeclared type variations 1 and 2 for Arrow's memory layouts (large
 * types, views: Utf8View is 2): the same values in another layout. Lifted into the spec's
 * shape: the system-preferred variation 0 on every type that carries 1 or 2. On an integer
 * literal, DataFusion's variation 1 means unsigned: such a literal becomes the next wider
 * signed integer of the same value (a u8 200 is an i16 200, never an i8 -56); an integer type
 * of variation 1 is unsigned too, and is read as the next wider signed type (u8 as i16, u16 as
 * i32, u32 as i64, as Spark reads Parquet's unsigned columns), so that a declared u8 result
 * (DataFusion's grouping id, TPC-DS q70) holds its values. A u64 stays an i64: Spark has no
 * wider integer, and a u64 result DataFusion declares (row_number, rank) counts rows.
 */
private[sparksubstrait] object LayoutVariations extends Reading {
  val name = "datafusion-layout-variations"
  val releases = "DataFusion, every release (spec 0.33 to 0.85)"
  val meaning =
    "undeclared type variations 1 and 2 name Arrow layouts (large, view) of the same values; read as variation 0"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("datafusion", "0.0", ProducerStamp.Newest)

  private val Field = "type_variation_reference"

  def lift(plan: Plan, found: String => Unit): Plan = MessageRewrite(plan) {
    case lit: Expression.Literal if lit.getTypeVariationReference == 1 && Unsigned.contains(lit.getLiteralTypeCase) =>
      found(s"unsigned ${lit.getLiteralTypeCase.name.toLowerCase} literal")
      widened(lit)
    case lit: Expression.Literal if Set(1, 2).contains(lit.getTypeVariationReference) =>
      found(s"${lit.getLiteralTypeCase.name.toLowerCase} literal with variation ${lit.getTypeVariationReference}")
      lit.toBuilder.setTypeVariationReference(0).build()
    case t: Type if UnsignedType.contains(t.getKindCase) && variation(kindOf(t)) == 1 =>
      found(s"unsigned ${t.getKindCase.name.toLowerCase} type")
      widenedType(t)
    case kind: Message
        if kind.getDescriptorForType.getContainingType == Type.getDescriptor && layout(kind) && !unsignedKind(kind) =>
      val field = kind.getDescriptorForType.findFieldByName(Field)
      found(s"${kind.getDescriptorForType.getName.toLowerCase} with variation ${kind.getField(field)}")
      kind.toBuilder.setField(field, Integer.valueOf(0)).build()
  }

  private val Unsigned = Set(LiteralTypeCase.I8, LiteralTypeCase.I16, LiteralTypeCase.I32, LiteralTypeCase.I64)

  private def widened(lit: Expression.Literal): Expression.Literal = {
    val b = lit.toBuilder.setTypeVariationReference(0)
    lit.getLiteralTypeCase match {
      case LiteralTypeCase.I8 => b.setI16(lit.getI8 & 0xff)
      case LiteralTypeCase.I16 => b.setI32(lit.getI16 & 0xffff)
      case LiteralTypeCase.I32 => b.setI64(lit.getI32.toLong & 0xffffffffL)
      case _ =>
        val value = new java.math.BigDecimal(java.lang.Long.toUnsignedString(lit.getI64))
        val bytes = value.unscaledValue.toByteArray.reverse.padTo(16, 0.toByte) // little-endian two's complement
        b.setDecimal(Expression.Literal.Decimal.newBuilder().setPrecision(20).setScale(0)
            .setValue(com.google.protobuf.ByteString.copyFrom(bytes)))
    }
    b.build()
  }

  private val UnsignedType = Set(Type.KindCase.I8, Type.KindCase.I16, Type.KindCase.I32, Type.KindCase.I64)

  private def kindOf(t: Type): Message = t.getField(t.getDescriptorForType.findFieldByNumber(t.getKindCase.getNumber))
    .asInstanceOf[Message]

  private def variation(kind: Message): Int =
    kind.getField(kind.getDescriptorForType.findFieldByName(Field)).asInstanceOf[Integer].intValue

  /** An integer kind of variation 1, left for its Type (visited after it) to widen. */
  private def unsignedKind(kind: Message): Boolean = IntegerKinds(kind.getDescriptorForType) && variation(kind) == 1

  private val IntegerKinds =
    Set(Type.I8.getDescriptor, Type.I16.getDescriptor, Type.I32.getDescriptor, Type.I64.getDescriptor)

  private def widenedType(t: Type): Type = t.getKindCase match {
    case Type.KindCase.I8 =>
      Type.newBuilder().setI16(Type.I16.newBuilder().setNullability(t.getI8.getNullability)).build()
    case Type.KindCase.I16 =>
      Type.newBuilder().setI32(Type.I32.newBuilder().setNullability(t.getI16.getNullability)).build()
    case Type.KindCase.I32 =>
      Type.newBuilder().setI64(Type.I64.newBuilder().setNullability(t.getI32.getNullability)).build()
    case _ => Type.newBuilder().setI64(Type.I64.newBuilder().setNullability(t.getI64.getNullability)).build()
  }

  private def layout(kind: Message): Boolean = {
    val field = kind.getDescriptorForType.findFieldByName(Field)
    field != null && Set(1, 2).contains(kind.getField(field).asInstanceOf[Integer].intValue)
  }
}
