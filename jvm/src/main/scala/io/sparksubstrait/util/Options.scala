package io.sparksubstrait.util

/** `Option.when` of Scala 2.13, which the Scala 2.12 build (Spark 3.5) lacks. */
private[sparksubstrait] object Options {
  def when[A](condition: Boolean)(value: => A): Option[A] = if (condition) Some(value) else None
}
