package io.sparksubstrait.plan.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Descriptors.{Descriptor, FieldDescriptor}
import com.google.protobuf.Message

import io.sparksubstrait.plan.PlanPath

/**
 * A bottom-up rewrite of a protobuf message tree, by its descriptors, so that a reading can
 * lift one kind of message wherever it occurs without a walker per message type. `f` sees
 * each message, with its location in the plan (the proto's field names, as errors name
 * places), after its children were rewritten; subtrees it leaves alone are kept (no copy),
 * so a plan no reading touches costs one walk.
 */
object MessageRewrite {
  def apply[M <: Message](root: M)(f: PartialFunction[Message, Message]): M =
    located(root) { case (m, _) if f.isDefinedAt(m) => f(m) }

  def located[M <: Message](root: M)(f: PartialFunction[(Message, PlanPath), Message]): M =
    walk(root, PlanPath.root, f, _ => false).asInstanceOf[M]

  /** The same, leaving alone (and not entering) the messages below `root` for which `stop` holds. */
  def until[M <: Message](root: M, stop: Message => Boolean)(f: PartialFunction[Message, Message]): M =
    walk(root, PlanPath.root, { case (m, _) if f.isDefinedAt(m) => f(m) }, stop).asInstanceOf[M]

  /** The message-typed fields of each message type (repeated ones and map entries included). */
  private val messageFields = new java.util.concurrent.ConcurrentHashMap[Descriptor, Array[FieldDescriptor]]()
  private def fieldsOf(d: Descriptor): Array[FieldDescriptor] =
    messageFields.computeIfAbsent(d, _ => d.getFields.asScala.filter(_.getJavaType == FieldDescriptor.JavaType.MESSAGE).toArray)

  // Every reading walks the whole plan, so the walk reads only the message-typed fields its
  // type has (by descriptor, cached) and copies nothing it leaves alone: reflection through
  // getAllFields (a sorted map of every set field, per message) cost DuckDB's TPC-H plans
  // more than their conversion.
  private def walk(msg: Message, at: PlanPath, f: PartialFunction[(Message, PlanPath), Message], stop: Message => Boolean): Message = {
    var builder: Message.Builder = null
    def edit(): Message.Builder = { if (builder == null) builder = msg.toBuilder; builder }
    val fields = fieldsOf(msg.getDescriptorForType)
    var k = 0
    while (k < fields.length) {
      val fd = fields(k)
      if (fd.isRepeated) {
        val n = msg.getRepeatedFieldCount(fd)
        var rewritten: Array[Message] = null
        var i = 0
        while (i < n) {
          val m = msg.getRepeatedField(fd, i).asInstanceOf[Message]
          val r = if (stop(m)) m else walk(m, at.at(fd.getName, i), f, stop)
          if (rewritten == null && (r ne m)) {
            rewritten = new Array[Message](n)
            var j = 0
            while (j < i) { rewritten(j) = msg.getRepeatedField(fd, j).asInstanceOf[Message]; j += 1 }
          }
          if (rewritten != null) rewritten(i) = r
          i += 1
        }
        if (rewritten != null) {
          edit().clearField(fd)
          rewritten.foreach(builder.addRepeatedField(fd, _))
        }
      } else if (msg.hasField(fd)) {
        val child = msg.getField(fd).asInstanceOf[Message]
        if (!stop(child)) {
          val r = walk(child, at / fd.getName, f, stop)
          if (r ne child) edit().setField(fd, r)
        }
      }
      k += 1
    }
    val self = if (builder == null) msg else builder.build()
    f.applyOrElse((self, at), (_: (Message, PlanPath)) => self)
  }
}
