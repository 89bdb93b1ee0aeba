package io.sparksubstrait
package decode

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message
import com.google.protobuf.Descriptors.{Descriptor, EnumValueDescriptor, FieldDescriptor}
import org.scalatest.funsuite.AnyFunSuite

import io.sparksubstrait.decode.{MessageFields, SpecCoverage}
import io.sparksubstrait.proto.Plan

/**
 * The accessors the plan walks read fields with ([[MessageFields]]) give what protobuf's
 * reflection gives, on every message- and enum-typed field of every message a plan can hold,
 * and every one of them is bound to its generated method (none falls back to reflection,
 * which would still be right, only slow).
 */
class MessageFieldsSuite extends AnyFunSuite {

  /** Each reachable message type with a generated builder (from its parent's field), by name. */
  private lazy val builders: Map[String, () => Message.Builder] = {
    val found = scala.collection.mutable.LinkedHashMap[String, () => Message.Builder](
      "substrait.Plan" -> (() => Plan.newBuilder()))
    val stack = scala.collection.mutable.Stack[Descriptor](Plan.getDescriptor)
    while (stack.nonEmpty) {
      val d = stack.pop()
      val make = found(d.getFullName)
      d.getFields.asScala.filter(_.getJavaType == FieldDescriptor.JavaType.MESSAGE).foreach { f =>
        val child = f.getMessageType
        if (!found.contains(child.getFullName) && !child.getFullName.startsWith("google.protobuf.")) {
          found(child.getFullName) = () => make().newBuilderForField(f)
          stack.push(child)
        }
      }
    }
    found.toMap
  }

  /** A message with `f` set (a repeated field twice), enum values not zero where the enum has one. */
  private def withField(d: Descriptor, f: FieldDescriptor): Message = {
    val b = builders(d.getFullName)()
    def value(i: Int): AnyRef = f.getJavaType match {
      case FieldDescriptor.JavaType.MESSAGE => b.newBuilderForField(f).build()
      case FieldDescriptor.JavaType.ENUM =>
        val values = f.getEnumType.getValues.asScala
        values.find(_.getNumber == i + 1).getOrElse(values.last)
      case _ => f.getDefaultValue
    }
    if (f.isRepeated) { b.addRepeatedField(f, value(0)); b.addRepeatedField(f, value(1)) }
    else b.setField(f, value(0))
    b.build()
  }

  private def walked(d: Descriptor) = d.getFields.asScala.filter(f =>
    f.getJavaType == FieldDescriptor.JavaType.MESSAGE || f.getJavaType == FieldDescriptor.JavaType.ENUM)

  private def number(v: AnyRef) = v.asInstanceOf[EnumValueDescriptor].getNumber

  test("every message- and enum-typed field reads as protobuf's reflection reads it, set and unset") {
    val reachable = SpecCoverage.reachable.filter(d => builders.contains(d.getFullName))
    assert(reachable.size > 150)
    var checked = 0
    for (d <- reachable; f <- walked(d)) {
      val unset = builders(d.getFullName)().build()
      val set = withField(d, f)
      val access = MessageFields.field(f, set.getClass)
      assert(access.direct, s"${f.getFullName} is read through reflection")
      for (m <- Seq(unset, set)) {
        val expectedSet = if (f.isRepeated) m.getRepeatedFieldCount(f) > 0 else m.hasField(f)
        assert(access.isSet(m) == expectedSet, f.getFullName)
        if (f.isRepeated) {
          assert(access.size(m) == m.getRepeatedFieldCount(f), f.getFullName)
          (0 until access.size(m)).foreach { i =>
            if (f.getJavaType == FieldDescriptor.JavaType.ENUM)
              assert(access.enumNumberAt(m, i) == number(m.getRepeatedField(f, i)))
            else assert(access.element(m, i) eq m.getRepeatedField(f, i), f.getFullName)
          }
        } else if (f.getJavaType == FieldDescriptor.JavaType.ENUM)
          assert(access.enumNumber(m) == number(m.getField(f)), f.getFullName)
        else assert(access.message(m) == m.getField(f), f.getFullName)
      }
      assert(access.isSet(set), s"${f.getFullName} set in the test message")
      checked += 1
    }
    assert(checked > 400)
  }

  test("every oneof's set field is protobuf's, and none is set in an empty message") {
    var checked = 0
    for (d <- SpecCoverage.reachable.filter(d => builders.contains(d.getFullName)); o <- d.getRealOneofs.asScala;
      f <- o.getFields.asScala if walked(d).contains(f)) {
      val m = withField(d, f)
      val access = MessageFields.oneof(o, m.getClass)
      assert(access.direct, s"${o.getFullName} is read through reflection")
      assert(access.set(m).descriptor == f, f.getFullName)
      assert(access.set(builders(d.getFullName)().build()) == null, o.getFullName)
      checked += 1
    }
    assert(checked > 100)
  }

  test("protoc's Java names: underscores and digits start a capital") {
    assert(Seq("rel_type", "fp32", "i8", "precision_timestamp_tz", "x").map(MessageFields.camel) ==
      Seq("RelType", "Fp32", "I8", "PrecisionTimestampTz", "X"))
  }
}
