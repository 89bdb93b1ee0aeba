package io.sparksubstrait.convert.rel

import org.apache.spark.sql.catalyst.expressions.{Cast, Expression, Literal}
import org.apache.spark.sql.types.IntegerType

/**
 * A sort key or grouping key that is an integer constant means that constant (one group, no
 * order). Spark's analyzer reads a bare integer literal there as a column position (`ORDER BY
 * 2`, `GROUP BY 1`; spark.sql.orderByOrdinal / groupByOrdinal), which for a converted plan it
 * has to analyse again would group or sort by another column, or fail. A no-op cast keeps the
 * constant a constant for the analyzer; the optimizer folds it away.
 */
private[rel] object ConstantKeys {
  def notAnOrdinal(e: Expression): Expression = e match {
    case l @ Literal(_, IntegerType) => Cast(l, IntegerType)
    case other => other
  }
}
