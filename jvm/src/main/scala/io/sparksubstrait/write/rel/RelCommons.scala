package io.sparksubstrait.write.rel

import io.sparksubstrait.proto.RelCommon

/** RelCommon: direct output, or an emit choosing (and ordering) the fields a relation outputs. */
private[sparksubstrait] object RelCommons {
  val direct: RelCommon = RelCommon.newBuilder().setDirect(RelCommon.Direct.getDefaultInstance).build()

  def emit(fields: Seq[Int]): RelCommon = {
    val e = RelCommon.Emit.newBuilder()
    fields.foreach(i => e.addOutputMapping(i))
    RelCommon.newBuilder().setEmit(e).build()
  }
}
