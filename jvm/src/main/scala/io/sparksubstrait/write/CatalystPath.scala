package io.sparksubstrait.write

/**
 * Where a Catalyst node sits in the plan being written, from the root down, e.g.
 * `Sort > Aggregate > Filter.condition > Like`: what an unwritable-plan error names, so the
 * user finds the part of the query that has no Substrait form.
 */
private[sparksubstrait] final case class CatalystPath private (reversed: List[String]) {
  def /(part: String): CatalystPath = CatalystPath(part :: reversed)

  /** The node `node` as the step below this one (its simple class name). */
  def /(node: AnyRef): CatalystPath = this / CatalystPath.nameOf(node)
  override def toString: String = if (reversed.isEmpty) "the plan's root" else reversed.reverse.mkString(" > ")
}

private[sparksubstrait] object CatalystPath {
  val root: CatalystPath = CatalystPath(Nil)
  def nameOf(node: AnyRef): String = node.getClass.getSimpleName.stripSuffix("$")
}
