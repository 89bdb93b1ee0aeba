package io.sparksubstrait.testing

/** The cause chain of an exception, for tests that look for our error inside Spark's wrapping. */
object Throwables {

  /** `e` and its causes, outermost first; at most 50 (a cyclic chain ends there). */
  def causes(e: Throwable): Seq[Throwable] = Iterator.iterate(e)(_.getCause).takeWhile(_ != null).take(50).toSeq
}
