package io.sparksubstrait.convert

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.EvalMode
import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.convert.rel.SharedSubtrees
import io.sparksubstrait.functions.ExtensionRegistry
import io.sparksubstrait.plan.ProducerCompat

/**
 * What every converter may read while converting one plan. One per conversion: converters
 * share no mutable state across plans, so plans convert concurrently on one session (the
 * only memo, [[SharedSubtrees]], belongs to this conversion).
 */
final class ConversionContext(
    val session: SparkSession,
    val extensions: ExtensionRegistry,
    val compat: ProducerCompat,
    val conf: SQLConf,
    val subtrees: SharedSubtrees) {
  /** The overflow / division-by-zero behaviour Spark SQL would use here when a plan leaves it open. */
  def defaultEvalMode: EvalMode.Value = EvalMode.fromSQLConf(conf)
}
