package io.sparksubstrait.util

/**
 * A variadic call as a balanced tree of a binary one: `and` of n arguments is log2(n) levels
 * deep instead of n, so thousands of arguments neither reach the depth limit nor make
 * Catalyst's recursive passes overflow the stack. Only for associative operators; the order
 * of the leaves (and so the order of evaluation) is kept.
 */
private[sparksubstrait] object Balanced {
  def reduce[T](items: IndexedSeq[T])(combine: (T, T) => T): T = {
    require(items.nonEmpty, "a balanced reduce of nothing")
    def over(from: Int, until: Int): T =
      if (until - from == 1) items(from)
      else {
        val middle = (from + until) >>> 1
        combine(over(from, middle), over(middle, until))
      }
    over(0, items.size)
  }
}
