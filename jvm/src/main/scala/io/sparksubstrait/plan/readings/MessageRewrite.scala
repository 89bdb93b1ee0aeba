package io.sparksubstrait.plan.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Descriptors.FieldDescriptor
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

  private def walk(msg: Message, at: PlanPath, f: PartialFunction[(Message, PlanPath), Message], stop: Message => Boolean): Message = {
    var builder: Message.Builder = null
    def edit(): Message.Builder = { if (builder == null) builder = msg.toBuilder; builder }
    msg.getAllFields.asScala.foreach {
      case (fd, value) if fd.getJavaType == FieldDescriptor.JavaType.MESSAGE && (fd.isRepeated || !stop(value.asInstanceOf[Message])) =>
        if (fd.isRepeated) {
          val items = value.asInstanceOf[java.util.List[Message]].asScala.toSeq
          val rewritten = items.zipWithIndex.map { case (m, i) => if (stop(m)) m else walk(m, at.at(fd.getName, i), f, stop) }
          if (rewritten.zip(items).exists { case (a, b) => a ne b }) {
            edit().clearField(fd)
            rewritten.foreach(builder.addRepeatedField(fd, _))
          }
        } else {
          val child = value.asInstanceOf[Message]
          val rewritten = walk(child, at / fd.getName, f, stop)
          if (rewritten ne child) edit().setField(fd, rewritten)
        }
      case _ =>
    }
    val self = if (builder == null) msg else builder.build()
    f.applyOrElse((self, at), (_: (Message, PlanPath)) => self)
  }
}
