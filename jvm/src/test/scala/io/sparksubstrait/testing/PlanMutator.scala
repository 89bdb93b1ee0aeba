package io.sparksubstrait.testing

import scala.collection.mutable
import scala.jdk.CollectionConverters._
import scala.util.Random

import com.google.protobuf.{ByteString, Message}
import com.google.protobuf.Descriptors.FieldDescriptor
import com.google.protobuf.Descriptors.FieldDescriptor.JavaType
import io.sparksubstrait.proto.{Expression, Plan, Rel, Type}

/**
 * Seeded mutations of valid plans, at two levels: the wire bytes (bit flips, truncation,
 * duplicated byte ranges) and the message tree (deleted, duplicated, re-typed and grafted
 * fields; random anchors, indices, counts, enum values and strings; deep nesting), and
 * targeted ones: a relation or expression swapped for another kind, out-of-range field
 * references, extreme literals, wrong output types, duplicate extension anchors.
 * Deterministic for a seed, so any failure can be replayed.
 */
final class PlanMutator(rnd: Random, corpus: Seq[Plan]) {

  /** Every message of the corpus by type, to graft a real message of the right type. */
  private val pool: Map[String, IndexedSeq[Message]] = {
    val all = mutable.Map.empty[String, mutable.ArrayBuffer[Message]]
    corpus.foreach(p =>
      nodes(p).foreach(m => all.getOrElseUpdate(m.getDescriptorForType.getFullName, mutable.ArrayBuffer.empty) += m))
    all.map { case (k, v) => k -> v.toIndexedSeq }.toMap
  }

  private val ints = IndexedSeq(0L, 1L, 2L, 3L, 4L, 5L, 7L, 9L, 16L, 38L, 100L, -1L, -2L,
    Int.MaxValue.toLong, Int.MinValue.toLong, Long.MaxValue, Long.MinValue, 255L, 65536L)
  private val strings = IndexedSeq("", "x", "nums", "people", "lineitem", "no_such_table", "add:i32_i32",
    "sum:fp64", "extension:io.substrait:functions_arithmetic", "/functions_comparison.yaml", "a.b",
    "\u0000", "é", "SATURATE", "ERROR", "1e400", "NaN", "2021-02-30", "99999999999999999999999")

  /** A mutated plan as bytes, and the name of the mutation. */
  def mutate(plan: Plan): (String, Array[Byte]) = rnd.nextInt(14) match {
    case 0 => "bit flip" -> flipBits(plan.toByteArray)
    case 1 => "truncation" -> { val b = plan.toByteArray; b.take(rnd.nextInt(b.length max 1)) }
    case 2 => "duplicated bytes" -> duplicateBytes(plan.toByteArray)
    case 3 => "deep nesting" -> nest(plan).toByteArray
    case 4 =>
      targeted(plan, "swapped relation kind", classOf[Rel.Builder])((b: Rel.Builder) => swapKind(b, "substrait.Rel"))
    case 5 => targeted(plan, "swapped expression kind", classOf[Expression.Builder])((b: Expression.Builder) =>
        swapKind(b, "substrait.Expression"))
    case 6 => targeted(plan, "out-of-range reference", classOf[Expression.ReferenceSegment.StructField.Builder])(
        (b: Expression.ReferenceSegment.StructField.Builder) => b.setField(pick(ints).toInt))
    case 7 => targeted(plan, "extreme literal", classOf[Expression.Literal.Builder])((b: Expression.Literal.Builder) =>
        b.clear().mergeFrom(pick(extremeLiterals)))
    case 8 => targeted(plan, "wrong output type", classOf[Expression.ScalarFunction.Builder])(
        (b: Expression.ScalarFunction.Builder) =>
          b.setOutputType(
            pool.get("substrait.Type").map(pick).map(_.asInstanceOf[Type]).getOrElse(Type.getDefaultInstance)))
    case 9 => "duplicate anchor" -> duplicateAnchor(plan).toByteArray
    case _ =>
      val b = plan.toBuilder
      val n = 1 + rnd.nextInt(3)
      val kinds = (1 to n).map(_ => mutateTree(b))
      kinds.mkString(" + ") -> b.build().toByteArray
  }

  /** One builder of type `B` of the plan (a random one) changed by `change`; the plan as it was when it has none. */
  private def targeted[B <: Message.Builder](plan: Plan, kind: String, cls: Class[B])(
    change: B => Any): (String, Array[Byte]) = {
    val b = plan.toBuilder
    val candidates = builders(b).filter(x => cls.isInstance(x))
    if (candidates.isEmpty) return s"$kind (none to change)" -> plan.toByteArray
    change(cls.cast(pick(candidates)))
    kind -> b.build().toByteArray
  }

  /** The message replaced by another of its type from the corpus, of another kind when the pool has one. */
  private def swapKind(b: Message.Builder, typeName: String): Unit = pool.get(typeName).foreach { others =>
    val current = b.build()
    val differing = others.filter(o => o.getAllFields.keySet != current.getAllFields.keySet)
    b.clear().mergeFrom(if (differing.nonEmpty) pick(differing) else pick(others))
  }

  /** Two extension declarations under one anchor: a function's, or a URN's. */
  private def duplicateAnchor(plan: Plan): Plan = {
    val b = plan.toBuilder
    if (b.getExtensionsCount > 0 && rnd.nextBoolean()) {
      val e = b.getExtensions(rnd.nextInt(b.getExtensionsCount))
      if (e.hasExtensionFunction) {
        val f =
          e.getExtensionFunction.toBuilder.setName(pick(IndexedSeq("subtract:i32_i32", "no_such:any", "count:any", "")))
        b.addExtensions(e.toBuilder.setExtensionFunction(f))
      } else b.addExtensions(e)
    } else if (b.getExtensionUrnsCount > 0) {
      val u = b.getExtensionUrns(rnd.nextInt(b.getExtensionUrnsCount))
      b.addExtensionUrns(u.toBuilder.setUrn(pick(IndexedSeq("extension:io.substrait:functions_string", "extension:x:y",
              ""))))
    }
    b.build()
  }

  /** Literals at and beyond the edges of what their kinds and Spark hold. */
  private val extremeLiterals: IndexedSeq[Expression.Literal] = {
    def l(f: Expression.Literal.Builder => Expression.Literal.Builder) = f(Expression.Literal.newBuilder()).build()
    IndexedSeq(
      l(_.setDate(Int.MinValue)), l(_.setDate(Int.MaxValue)), l(_.setDate(-719163)), l(_.setI64(Long.MinValue)),
      l(_.setI8(1000)),
      l(_.setI16(-40000)), l(_.setFp64(Double.NaN)), l(_.setFp64(-0.0)), l(_.setFp32(Float.NegativeInfinity)),
      l(_.setPrecisionTimestamp(
          Expression.Literal.PrecisionTimestamp.newBuilder().setPrecision(0).setValue(Long.MaxValue))),
      l(_.setPrecisionTimestampTz(
          Expression.Literal.PrecisionTimestamp.newBuilder().setPrecision(12).setValue(Long.MinValue))),
      l(_.setPrecisionTimestamp(Expression.Literal.PrecisionTimestamp.newBuilder().setPrecision(13).setValue(1))),
      l(_.setIntervalDayToSecond(
          Expression.Literal.IntervalDayToSecond.newBuilder().setDays(Int.MaxValue).setSeconds(Int.MaxValue)
            .setSubseconds(Long.MaxValue).setPrecision(9))),
      l(_.setIntervalYearToMonth(
          Expression.Literal.IntervalYearToMonth.newBuilder().setYears(Int.MaxValue).setMonths(Int.MaxValue))),
      l(_.setDecimal(Expression.Literal.Decimal.newBuilder().setPrecision(38).setScale(0).setValue(
            ByteString.copyFrom(Array.fill(16)(0x7f.toByte))))),
      l(_.setDecimal(Expression.Literal.Decimal.newBuilder().setPrecision(39).setScale(40).setValue(
            ByteString.copyFrom(Array.fill(3)(1.toByte))))),
      l(_.setString("\u0000" * 3 + "é😀" + "x" * 5000)), l(_.setFixedChar("")),
      l(_.setUuid(ByteString.copyFrom(Array.fill(15)(1.toByte)))),
      l(_.setVarChar(Expression.Literal.VarChar.newBuilder().setValue("toolong").setLength(2))),
      l(_.setNull(Type.getDefaultInstance)),
      l(_.setList(Expression.Literal.List.newBuilder().addValues(l(_.setI32(1))).addValues(l(_.setString("x"))))),
      l(_.setMap(Expression.Literal.Map.newBuilder().addKeyValues(Expression.Literal.Map.KeyValue.newBuilder()
              .setKey(l(_.setNull(Type.newBuilder().setI32(Type.I32.getDefaultInstance).build()))).setValue(
                l(_.setI32(1)))))),
      l(_.setPrecisionTime(Expression.Literal.PrecisionTime.newBuilder().setPrecision(6).setValue(-1))))
  }

  private def flipBits(bytes: Array[Byte]): Array[Byte] = {
    val out = bytes.clone()
    if (out.nonEmpty) (1 to 1 + rnd.nextInt(8)).foreach { _ =>
      val i = rnd.nextInt(out.length)
      out(i) = (out(i) ^ (1 << rnd.nextInt(8))).toByte
    }
    out
  }

  private def duplicateBytes(bytes: Array[Byte]): Array[Byte] = {
    if (bytes.isEmpty) return bytes
    val from = rnd.nextInt(bytes.length)
    val len = 1 + rnd.nextInt(math.min(64, bytes.length - from))
    val at = rnd.nextInt(bytes.length + 1)
    bytes.take(at) ++ bytes.slice(from, from + len) ++ bytes.drop(at)
  }

  /** All messages of a tree, without recursion. */
  private def nodes(m: Message): Seq[Message] = {
    val out = mutable.ArrayBuffer.empty[Message]
    val stack = mutable.Stack[Message](m)
    while (stack.nonEmpty) {
      val x = stack.pop()
      out += x
      x.getAllFields.asScala.foreach {
        case (f, v) if f.getJavaType == JavaType.MESSAGE =>
          if (f.isRepeated) v.asInstanceOf[java.util.List[Message]].asScala.foreach(stack.push)
          else stack.push(v.asInstanceOf[Message])
        case _ =>
      }
    }
    out.toSeq
  }

  /** All builders of a tree (each edits the tree in place). */
  private def builders(root: Message.Builder): IndexedSeq[Message.Builder] = {
    val out = mutable.ArrayBuffer.empty[Message.Builder]
    val stack = mutable.Stack[Message.Builder](root)
    while (stack.nonEmpty) {
      val b = stack.pop()
      out += b
      b.getAllFields.asScala.keys.filter(_.getJavaType == JavaType.MESSAGE).foreach { f =>
        if (f.isRepeated) (0 until b.getRepeatedFieldCount(f)).foreach(i => stack.push(b.getRepeatedFieldBuilder(f, i)))
        else stack.push(b.getFieldBuilder(f))
      }
    }
    out.toIndexedSeq
  }

  private def pick[T](xs: IndexedSeq[T]): T = xs(rnd.nextInt(xs.size))

  private def mutateTree(root: Message.Builder): String = {
    val b = pick(builders(root))
    val fields = b.getDescriptorForType.getFields.asScala.toIndexedSeq
    if (fields.isEmpty) return "nothing"
    val f = pick(fields)
    val name = s"${b.getDescriptorForType.getName}.${f.getName}"
    if (f.isRepeated) {
      val n = b.getRepeatedFieldCount(f)
      rnd.nextInt(4) match {
        case 0 => b.clearField(f); s"cleared $name"
        case 1 if n > 0 =>
          b.addRepeatedField(f, b.getRepeatedField(f, rnd.nextInt(n))); s"duplicated an element of $name"
        case 2 if n > 0 =>
          val keep = (0 until n).map(b.getRepeatedField(f, _)).patch(rnd.nextInt(n), Nil, 1)
          b.clearField(f); keep.foreach(b.addRepeatedField(f, _)); s"removed an element of $name"
        case _ => b.addRepeatedField(f, value(b, f)); s"added to $name"
      }
    } else if (b.hasField(f) && rnd.nextInt(4) == 0) {
      b.clearField(f); s"deleted $name"
    } else {
      b.setField(f, value(b, f)); s"set $name"
    }
  }

  /** A value for a field: a grafted or empty message, or an interesting scalar. */
  private def value(owner: Message.Builder, f: FieldDescriptor): AnyRef = f.getJavaType match {
    case JavaType.MESSAGE =>
      pool.get(f.getMessageType.getFullName).filter(_ => rnd.nextInt(5) > 0).map(pick)
        .getOrElse(owner.newBuilderForField(f).build())
    case JavaType.INT => Integer.valueOf(pick(ints).toInt)
    case JavaType.LONG => java.lang.Long.valueOf(pick(ints))
    case JavaType.BOOLEAN => java.lang.Boolean.valueOf(rnd.nextBoolean())
    case JavaType.STRING => pick(strings)
    case JavaType.FLOAT =>
      java.lang.Float.valueOf(pick(IndexedSeq(0f, -0f, 1.5f, Float.NaN, Float.PositiveInfinity, Float.MinValue)))
    case JavaType.DOUBLE =>
      java.lang.Double.valueOf(pick(IndexedSeq(0d, -0d, 2.5d, Double.NaN, Double.NegativeInfinity, Double.MaxValue)))
    case JavaType.BYTE_STRING =>
      ByteString.copyFrom(Array.fill(pick(IndexedSeq(0, 1, 4, 8, 16, 17)))(rnd.nextInt(256).toByte))
    case JavaType.ENUM =>
      val values = f.getEnumType.getValues.asScala.toIndexedSeq
      if (rnd.nextInt(6) == 0) f.getEnumType.findValueByNumberCreatingIfUnknown(50 + rnd.nextInt(50)) else pick(values)
  }

  /** Wraps a random expression (or the first) in casts or negations, up to beyond the default depth limit. */
  private def nest(plan: Plan): Plan = {
    val b = plan.toBuilder
    val exprs = builders(b).collect { case e: Expression.Builder => e }
    if (exprs.isEmpty) return plan
    val target = pick(exprs)
    val levels = pick(IndexedSeq(2, 10, 50, 97, 98, 150, 400))
    var e = target.build()
    val i32 =
      Type.newBuilder().setI32(Type.I32.newBuilder().setNullability(Type.Nullability.NULLABILITY_NULLABLE)).build()
    (1 to levels).foreach { _ =>
      e = Expression.newBuilder().setCast(Expression.Cast.newBuilder().setInput(e).setType(i32)).build()
    }
    target.clear().mergeFrom(e)
    b.build()
  }
}
