package io.sparksubstrait.decode

import scala.util.Try

import org.apache.spark.network.util.JavaUtils
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.errors.SubstraitErrors

/**
 * How big a plan may be, checked while decoding, before any converter recurses.
 *
 * Decoding, conversion and Spark's own analysis all recurse once per nesting level, on the
 * caller's thread (a Py4J or main thread: 1 MB of stack by default on Linux x64). The
 * default depth is chosen so a plan at the limit runs end to end on a 512 KB stack
 * (LimitsSuite proves it); the default size keeps the decoded message tree well inside a
 * default 1 GB driver heap. Both are session settings, read at each decode.
 *
 * @param maxDepth how deep protobuf messages may nest: the Plan is level 0, each message
 *                 inside another one level more (a FilterRel adds 2, a function argument 3).
 * @param maxBytes bytes of a binary plan, or characters of a JSON plan.
 */
private[sparksubstrait] final case class PlanLimits(maxDepth: Int, maxBytes: Long)

private[sparksubstrait] object PlanLimits {
  val MaxDepthKey = "spark.substrait.maxPlanDepth"
  val MaxBytesKey = "spark.substrait.maxPlanBytes"
  val DefaultMaxDepth = 300
  val DefaultMaxBytes: Long = 16L * 1024 * 1024

  val default: PlanLimits = PlanLimits(DefaultMaxDepth, DefaultMaxBytes)

  def fromConf(conf: SQLConf): PlanLimits = PlanLimits(
    positive(MaxDepthKey, conf.getConfString(MaxDepthKey, DefaultMaxDepth.toString),
      v => Try(v.trim.toInt).toOption, "a whole number of nesting levels, 1 or more"),
    positive(MaxBytesKey, conf.getConfString(MaxBytesKey, DefaultMaxBytes.toString),
      v => Try(JavaUtils.byteStringAsBytes(v.trim)).toOption, "a size of 1 byte or more, e.g. 16m"))

  /** What to do about a limit: the advice of a SUBSTRAIT_PLAN_TOO_LARGE error. */
  def raise(key: String, resource: String): String =
    s"raise $key only for trusted plans and a driver whose $resource allows it (docs/configuration.md)"

  /** The limits of the active session (or the defaults without one), for entry points without a session. */
  def active: PlanLimits = fromConf(SQLConf.get)

  private def positive[T](key: String, raw: String, parse: String => Option[T], expected: String)(
    implicit num: Numeric[T]): T =
    parse(raw).filter(v => num.gt(v, num.zero))
      .getOrElse(throw SubstraitErrors.invalidSetting(key, raw, expected))
}
