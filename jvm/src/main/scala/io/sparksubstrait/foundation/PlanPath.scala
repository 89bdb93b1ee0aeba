package io.sparksubstrait.foundation

/**
 * A location in a Substrait plan, written the way the proto names its fields:
 * `relations[0].root.input.filter.condition.scalar_function.arguments[1]`.
 *
 * Built as a linked list of segments so that descending costs O(1) and the string is
 * made only when an error is raised.
 */
private[sparksubstrait] final class PlanPath private (parent: PlanPath, segment: String, index: Int) {

  /** Descend into a singular field. */
  def /(field: String): PlanPath = new PlanPath(this, field, -1)

  /** Descend into element `i` of a repeated field. */
  def at(field: String, i: Int): PlanPath = new PlanPath(this, field, i)

  override def toString: String = {
    val segments = Iterator.iterate(this)(_.parentPath).takeWhile(_ != null)
      .filter(_.segmentName != null).toList.reverse
    if (segments.isEmpty) "plan" else segments.map(_.render).mkString(".")
  }

  private def parentPath: PlanPath = parent
  private def segmentName: String = segment
  private def render: String = if (index >= 0) s"$segment[$index]" else segment
}

private[sparksubstrait] object PlanPath {
  val root: PlanPath = new PlanPath(null, null, -1)
}
