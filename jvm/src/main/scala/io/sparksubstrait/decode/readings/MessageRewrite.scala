package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Descriptors.{Descriptor, FieldDescriptor}
import com.google.protobuf.Message

import io.sparksubstrait.decode.MessageFields

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Expression, NamedStruct, Type}

/**
 * A bottom-up rewrite of a protobuf message tree, by its descriptors, so that a reading can
 * lift one kind of message wherever it occurs without a walker per message type. `f` sees
 * each message, with its location in the plan (the proto's field names, as errors name
 * places), after its children were rewritten; subtrees it leaves alone are kept (no copy),
 * so a plan no reading touches costs one walk.
 */
private[sparksubstrait] object MessageRewrite {
  def apply[M <: Message](root: M)(f: PartialFunction[Message, Message]): M = until(root, _ => false)(f)

  def located[M <: Message](root: M)(f: PartialFunction[(Message, PlanPath), Message]): M =
    walk(root, PlanPath.root, f, _ => false, located = true).asInstanceOf[M]

  /** The same, leaving alone (and not entering) the messages below `root` for which `stop` holds. */
  def until[M <: Message](root: M, stop: Message => Boolean)(f: PartialFunction[Message, Message]): M =
    walk(root, PlanPath.root, { case (m, _) if f.isDefinedAt(m) => f(m) }, stop, located = false).asInstanceOf[M]

  /**
   * Messages that can hold no relation, expression or function call: types, literals,
   * schemas and the path of a field reference. A third or more of a plan's messages.
   */
  def isLeaf(m: Message): Boolean = m match {
    case _: Type | _: Expression.Literal | _: NamedStruct | _: Expression.ReferenceSegment => true
    case _ => false
  }

  /**
   * `apply` for a reading that rewrites only relations, expressions and function calls (never
   * a leaf, [[isLeaf]]): the walk does not enter the leaves.
   */
  def skippingLeaves[M <: Message](root: M)(f: PartialFunction[Message, Message]): M =
    until(root, isLeaf)(f)

  /** `located` for such a reading. */
  def skippingLeavesLocated[M <: Message](root: M)(f: PartialFunction[(Message, PlanPath), Message]): M =
    walk(root, PlanPath.root, f, isLeaf, located = true).asInstanceOf[M]

  /**
   * The rewrites at every message but the leaves, with its location, each applied in turn to
   * what the one before it made of the message (after its children were rewritten). One walk.
   */
  def liftAll[M <: Message](root: M, rewrites: Seq[PartialFunction[(Message, PlanPath), Message]]): M =
    if (rewrites.isEmpty) root
    else walk(root, PlanPath.root,
      { case (m, at) =>
        rewrites.foldLeft(m)((current, f) => f.applyOrElse((current, at), (_: (Message, PlanPath)) => current))
      }, isLeaf, located = true).asInstanceOf[M]

  /**
   * Each finder at every message but the leaves, with its location, in the order `located`
   * visits them; nothing is rewritten. One walk for all of them.
   */
  def findAll(root: Message, finders: Seq[PartialFunction[(Message, PlanPath), Unit]]): Unit =
    if (finders.nonEmpty) walk(root, PlanPath.root,
      { case (m, at) =>
        finders.foreach(_.applyOrElse((m, at), (_: (Message, PlanPath)) => ())); m
      }, isLeaf, located = true)

  /**
   * A message type's message-typed fields: those outside a oneof (repeated ones and map
   * entries included), and the oneofs holding any, whose set field is looked up once.
   */
  private final class Shape(val plain: Array[MessageFields.Field], val oneofs: Array[MessageFields.Oneof])

  private val shapes = new java.util.concurrent.ConcurrentHashMap[Descriptor, Shape]()
  private def shapeOf(msg: Message): Shape = shapes.computeIfAbsent(msg.getDescriptorForType,
    { d =>
      def isMessage(f: FieldDescriptor) = f.getJavaType == FieldDescriptor.JavaType.MESSAGE
      // A proto3 `optional` is a oneof of one (synthetic, not a "real" one): a plain field here.
      new Shape(
        d.getFields.asScala.filter(f => isMessage(f) && f.getRealContainingOneof == null).map(MessageFields.field(_,
            msg.getClass)).toArray,
        d.getRealOneofs.asScala.filter(_.getFields.asScala.exists(isMessage)).map(MessageFields.oneof(_,
            msg.getClass)).toArray)
    })

  // Every reading walks the whole plan, so the walk reads only the message-typed fields its
  // type has (by descriptor, cached), a oneof (a relation's, expression's, literal's or type's
  // kind: most of a plan) by one lookup of its set field rather than a test of each of its
  // fields, through accessors bound to the generated methods (MessageFields: protobuf's
  // reflection was a third of decoding), and copies nothing it leaves alone. Through
  // getAllFields (a sorted map of every set field, per message) the walk had cost DuckDB's
  // TPC-H plans more than their conversion; testing each field of a oneof, half of it still.
  // Without `located`, `f` ignores places: every message gets the root's, allocating none.
  private def walk(msg: Message, at: PlanPath, f: PartialFunction[(Message, PlanPath), Message],
    stop: Message => Boolean,
    located: Boolean): Message = {
    var builder: Message.Builder = null
    def edit(): Message.Builder = { if (builder == null) builder = msg.toBuilder; builder }
    def visit(field: MessageFields.Field): Unit = {
      val fd = field.descriptor
      if (fd.isRepeated) {
        val n = field.size(msg)
        var rewritten: Array[Message] = null
        var i = 0
        while (i < n) {
          val m = field.element(msg, i)
          val r = if (stop(m)) m else walk(m, if (located) at.at(fd.getName, i) else at, f, stop, located)
          if (rewritten == null && (r ne m)) {
            rewritten = new Array[Message](n)
            var j = 0
            while (j < i) { rewritten(j) = field.element(msg, j); j += 1 }
          }
          if (rewritten != null) rewritten(i) = r
          i += 1
        }
        if (rewritten != null) {
          edit().clearField(fd)
          rewritten.foreach(builder.addRepeatedField(fd, _))
        }
      } else if (field.isSet(msg)) {
        val child = field.message(msg)
        if (!stop(child)) {
          val r = walk(child, if (located) at / fd.getName else at, f, stop, located)
          if (r ne child) edit().setField(fd, r)
        }
      }
    }
    val shape = shapeOf(msg)
    // Children in field order, as before: `f` may record the places it rewrites in order.
    val set: Array[MessageFields.Field] =
      if (shape.oneofs.isEmpty) shape.plain
      else {
        val chosen = shape.oneofs.flatMap(o =>
          Option(o.set(msg)).filter(_.descriptor.getJavaType == FieldDescriptor.JavaType.MESSAGE))
        if (chosen.isEmpty) shape.plain
        else if (shape.plain.isEmpty) chosen
        else (shape.plain ++ chosen).sortBy(_.descriptor.getIndex)
      }
    var k = 0
    while (k < set.length) { visit(set(k)); k += 1 }
    val self = if (builder == null) msg else builder.build()
    f.applyOrElse((self, at), (_: (Message, PlanPath)) => self)
  }
}
