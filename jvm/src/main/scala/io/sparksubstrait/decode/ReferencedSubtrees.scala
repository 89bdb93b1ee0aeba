package io.sparksubstrait.decode

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message
import io.sparksubstrait.proto.{Plan, PlanRel, Rel}

import io.sparksubstrait.errors.SubstraitErrors

/**
 * The size a plan's ReferenceRel DAG stands for. Conversion keeps each referenced subtree one
 * shared CTE definition, so it stays linear in the message; but Spark plans a query as a tree
 * (its physical planning puts the definition's plan at every reference), so a DAG of n
 * relations each using the one before twice asks Spark for 2^n operators. The bytes the DAG
 * unfolds to are counted here on the DAG itself, in time linear in the plan, and held to
 * `spark.substrait.maxPlanBytes` like the unfolded shared definitions of [[SharedDefinitions]]:
 * refused before anything is built.
 */
private[decode] object ReferencedSubtrees {
  def check(plan: Plan, limits: PlanLimits): Unit = {
    val relations = plan.getRelationsList.asScala.toIndexedSeq
    val direct: IndexedSeq[Seq[Int]] = relations.map(references)
    val valid = (o: Int) => o >= 0 && o < relations.size
    val memo = new Array[Long](relations.size)
    val state = new Array[Byte](relations.size) // 0 not met, 1 its references pending, 2 done
    // Depth-first over relations with an explicit stack (a chain of references may be as long
    // as the plan has relations); a reference back into a pending relation is a cycle, which
    // counts nothing here and which conversion names.
    val stack = new java.util.ArrayDeque[Integer]()
    def unfolded(root: Int): Long = {
      stack.push(root)
      while (!stack.isEmpty) {
        val i: Int = stack.peek()
        state(i) match {
          case 2 => stack.pop()
          case 0 =>
            state(i) = 1
            direct(i).filter(o => valid(o) && state(o) == 0).foreach(o => stack.push(o))
          case _ =>
            memo(i) = direct(i).filter(o => valid(o) && state(o) == 2)
              .foldLeft(relations(i).getSerializedSize.toLong)((sum, o) => saturatingAdd(sum, memo(o)))
            state(i) = 2
            stack.pop()
        }
      }
      memo(root)
    }
    val total = relations.indices.filter(i => relations(i).hasRoot).map(unfolded).foldLeft(0L)(saturatingAdd)
    if (total > limits.maxBytes) {
      throw SubstraitErrors.planTooLarge(
        s"a plan whose shared subtrees (ReferenceRel) unfold to more than ${limits.maxBytes} bytes",
        s"${limits.maxBytes} bytes", PlanLimits.raise(PlanLimits.MaxBytesKey, "heap"))
    }
  }

  private def saturatingAdd(a: Long, b: Long): Long = if (a > Long.MaxValue - b) Long.MaxValue else a + b

  /** The subtree ordinals of the ReferenceRels in one relation (each use counted), with an explicit stack. */
  private def references(planRel: PlanRel): Seq[Int] = {
    val found = Seq.newBuilder[Int]
    val stack = new java.util.ArrayDeque[Message]()
    stack.push(planRel)
    while (!stack.isEmpty) {
      stack.pop() match {
        case r: Rel if r.hasReference => found += r.getReference.getSubtreeOrdinal
        case m => m.getAllFields.asScala.foreach { case (field, value) =>
            value match {
              case child: Message => stack.push(child)
              case list: java.util.List[_] if field.isRepeated =>
                list.asScala.foreach {
                  case child: Message => stack.push(child)
                  case _ =>
                }
              case _ =>
            }
          }
      }
    }
    found.result()
  }
}
