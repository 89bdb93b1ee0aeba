package io.sparksubstrait.plan.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{AggregateFunction, Plan}

/**
 * A known DuckDB bug: duckdb-extension-substrait writes `string_agg(x, sep ORDER BY y)` as
 * `string_agg(x)`, without its ORDER BY (and without its separator, which
 * FunctionSpellings reads as DuckDB's default ','). The plan asks for the values in any
 * order: it runs as written, with a warning at each such call.
 */
object StringAggOrderDropped extends Reading {
  val name = "duckdb-string-agg-order-dropped"
  val releases = "DuckDB 1.0 to 1.1.3 with duckdb-extension-substrait (spec 0.48 to 0.53)"
  val meaning = "string_agg's ORDER BY is not written (the values come in any order); run as written"
  override def kind: Reading.Kind = Reading.KnownBug

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("duckdb", "0.0", ProducerStamp.Newest)

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchors = plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map(_.getExtensionFunction)
      .filter(_.getName.takeWhile(_ != ':') == "string_agg").map(_.getFunctionAnchor).toSet
    MessageRewrite(plan) {
      case f: AggregateFunction if anchors(f.getFunctionReference) && f.getSortsCount == 0 =>
        found("string_agg without sort fields")
        f
    }
  }
}
