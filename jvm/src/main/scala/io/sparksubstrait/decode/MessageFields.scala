package io.sparksubstrait.decode

import java.lang.invoke.{LambdaMetafactory, MethodHandle, MethodHandles, MethodType}
import java.util.concurrent.ConcurrentHashMap

import scala.util.control.NonFatal

import com.google.protobuf.{Internal, Message}
import com.google.protobuf.Descriptors.{FieldDescriptor, OneofDescriptor}

/**
 * Reads of a generated message's fields by descriptor, for the walks that visit every message
 * of a plan ([[PlanTreeCheck]], the readings' [[readings.MessageRewrite]], the legacy lift).
 *
 * Why not protobuf's reflection (`hasField`, `getField`, `getOneofFieldDescriptor`): it calls the
 * generated accessor through `java.lang.reflect.Method`, whose access check caches one caller
 * and target class at a time, so a walk alternating between message classes pays the full check
 * on almost every call; measured, a third of decoding DuckDB's TPC-H plans. Here each accessor
 * is bound once per field to a direct call of the generated method (LambdaMetafactory). The
 * accessor names follow protoc's Java naming; a field whose methods are not found that way
 * (a name protoc escapes, a message that is not a generated class) is read through protobuf's
 * reflection instead, with the same results (`MessageFieldsSuite` compares both on every field
 * of the spec's messages).
 */
private[sparksubstrait] object MessageFields {
  trait Test { def test(m: Message): Boolean }
  trait Count { def count(m: Message): Int }
  trait Get { def get(m: Message): AnyRef }
  trait GetAt { def get(m: Message, i: Int): AnyRef }
  trait IntGet { def get(m: Message): Int }
  trait IntGetAt { def get(m: Message, i: Int): Int }

  /**
   * One field of one message class. Message fields: `isSet`, `message`, `size` and `element`;
   * enum fields: `isSet`, `size`, and the numbers `enumNumber` and `enumNumberAt` (open enums
   * keep numbers the proto does not define, which is what the tree check looks for).
   */
  final class Field private[MessageFields] (val descriptor: FieldDescriptor, has: Test, counted: Count, get: Get,
    getAt: GetAt,
    number: IntGet, numberAt: IntGetAt, val direct: Boolean) {
    def isSet(m: Message): Boolean = if (descriptor.isRepeated) counted.count(m) > 0 else has.test(m)
    def message(m: Message): Message = get.get(m).asInstanceOf[Message]
    def size(m: Message): Int = counted.count(m)
    def element(m: Message, i: Int): Message = getAt.get(m, i).asInstanceOf[Message]
    def enumNumber(m: Message): Int = number.get(m)
    def enumNumberAt(m: Message, i: Int): Int = numberAt.get(m, i)
  }

  /** One oneof of one message class: its set field, or null. */
  final class Oneof private[MessageFields] (val descriptor: OneofDescriptor, caseOf: Get, byNumber: Map[Int, Field],
    val direct: Boolean) {
    def set(m: Message): Field = {
      val n = caseOf.get(m).asInstanceOf[Internal.EnumLite].getNumber
      if (n == 0) null else byNumber.getOrElse(n, null)
    }
  }

  private val fields = new ConcurrentHashMap[FieldDescriptor, Field]()
  private val oneofs = new ConcurrentHashMap[OneofDescriptor, Oneof]()

  /** The field's accessors on `cls`, the generated class of the field's message type. */
  def field(fd: FieldDescriptor, cls: Class[_]): Field =
    fields.computeIfAbsent(fd, fd => bound(fd, cls).getOrElse(reflective(fd)))

  def oneof(od: OneofDescriptor, cls: Class[_]): Oneof = oneofs.computeIfAbsent(od,
    { od =>
      import scala.jdk.CollectionConverters._
      val members = od.getFields.asScala.map(f => f.getNumber -> field(f, cls)).toMap
      val bound = bind[Get](cls, s"get${camel(od.getName)}Case", Nil)
      val caseOf = bound.getOrElse(new Get {
        // protobuf's own lookup, as a case number.
        def get(m: Message): AnyRef = {
          val f = m.getOneofFieldDescriptor(od)
          val n = if (f == null) 0 else f.getNumber
          new Internal.EnumLite { def getNumber: Int = n }
        }
      })
      new Oneof(od, caseOf, members, bound.isDefined)
    })

  private def bound(fd: FieldDescriptor, cls: Class[_]): Option[Field] = {
    val name = camel(fd.getName)
    val isEnum = fd.getJavaType == FieldDescriptor.JavaType.ENUM
    if (fd.isRepeated) {
      for {
        count <- bind[Count](cls, s"get${name}Count", Nil)
        at <- if (isEnum) Some(null) else bind[GetAt](cls, s"get$name", List(classOf[Int]))
        numberAt <- if (isEnum) bind[IntGetAt](cls, s"get${name}Value", List(classOf[Int])) else Some(null)
      } yield new Field(fd, null, count, null, at, null, numberAt, direct = true)
    } else if (isEnum) {
      for {
        number <- bind[IntGet](cls, s"get${name}Value", Nil)
        // A proto3 enum has presence only when `optional`; otherwise it is set when not zero.
        has <- if (fd.hasPresence) bind[Test](cls, s"has$name", Nil)
        else Some(new Test { def test(m: Message): Boolean = number.get(m) != 0 })
      } yield new Field(fd, has, null, null, null, number, null, direct = true)
    } else if (fd.getJavaType == FieldDescriptor.JavaType.MESSAGE) {
      for {
        has <- bind[Test](cls, s"has$name", Nil)
        get <- bind[Get](cls, s"get$name", Nil)
      } yield new Field(fd, has, null, get, null, null, null, direct = true)
    } else None
  }

  /** protobuf's reflection: any message, any field. */
  private def reflective(fd: FieldDescriptor): Field = new Field(fd,
    new Test { def test(m: Message): Boolean = m.hasField(fd) },
    new Count { def count(m: Message): Int = m.getRepeatedFieldCount(fd) },
    new Get { def get(m: Message): AnyRef = m.getField(fd) },
    new GetAt { def get(m: Message, i: Int): AnyRef = m.getRepeatedField(fd, i) },
    new IntGet {
      def get(m: Message): Int =
        m.getField(fd).asInstanceOf[com.google.protobuf.Descriptors.EnumValueDescriptor].getNumber
    },
    new IntGetAt {
      def get(m: Message, i: Int): Int =
        m.getRepeatedField(fd, i).asInstanceOf[com.google.protobuf.Descriptors.EnumValueDescriptor].getNumber
    },
    direct = false)

  private val lookup = MethodHandles.lookup()

  /**
   * `cls.method(params)` as an instance of the one-method interface T, or None when there is no
   * such public instance method returning what T returns (a message, for T returning one: a field
   * whose Java name protoc escapes would otherwise find Object's `getClass`).
   */
  private def bind[T](cls: Class[_], method: String, params: List[Class[_]])(
    implicit t: scala.reflect.ClassTag[T]): Option[T] =
    try {
      val target = cls.getMethod(method, params: _*)
      val sam = t.runtimeClass.getMethods.filter(m => java.lang.reflect.Modifier.isAbstract(m.getModifiers)).head
      val returns = target.getReturnType
      val fits = if (sam.getReturnType.isPrimitive) returns == sam.getReturnType
      else classOf[Message].isAssignableFrom(returns) || classOf[Internal.EnumLite].isAssignableFrom(returns)
      if (!fits || java.lang.reflect.Modifier.isStatic(target.getModifiers)) return None
      val impl: MethodHandle = lookup.unreflect(target)
      val samType = MethodType.methodType(sam.getReturnType, sam.getParameterTypes)
      // The interface's own signature, with the receiver narrowed to the message class.
      val instantiated = samType.changeParameterType(0, cls)
      val site = LambdaMetafactory.metafactory(lookup, sam.getName, MethodType.methodType(t.runtimeClass), samType,
        impl, instantiated)
      Some(site.getTarget.invokeWithArguments().asInstanceOf[T])
    } catch { case NonFatal(_) => None } // no such method, no access, or LambdaMetafactory refused it

  /** protoc's Java name of a field or oneof, capitalised: `rel_type` → `RelType`, `fp32` → `Fp32`, `i8` → `I8`. */
  def camel(name: String): String = {
    val out = new StringBuilder
    var upper = true
    name.foreach { c =>
      if (c.isLower) { out += (if (upper) c.toUpper else c); upper = false }
      else if (c.isUpper) { out += c; upper = false }
      else if (c.isDigit) { out += c; upper = true }
      else upper = true
    }
    out.toString
  }
}
