package io.sparksubstrait.convert.rel

import org.apache.spark.sql.{Row, SparkSession}
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.command.LeafRunnableCommand
import org.apache.spark.sql.sparksubstrait.SparkShim

/**
 * DdlRel's CREATE [OR REPLACE] VIEW: a temporary view (of the session, or global) holding
 * the view's converted plan itself, as `Dataset.createTempView` makes one. Spark keeps a
 * persistent catalog view as SQL text, which a converted plan has none of, so only temporary
 * views are made (the converter refuses other names). Runs when the DataFrame is created,
 * as Spark's own commands do; explaining the plan creates nothing.
 */
private[sparksubstrait] final case class CreateSubstraitTempView(name: String, global: Boolean, replace: Boolean,
  view: LogicalPlan)
    extends LeafRunnableCommand {
  override def output: Seq[Attribute] = Nil
  override def innerChildren: Seq[LogicalPlan] = Seq(view)

  override def run(session: SparkSession): Seq[Row] = {
    val frame = SparkShim.ofRows(session, view)
    (global, replace) match {
      case (false, false) => frame.createTempView(name)
      case (false, true) => frame.createOrReplaceTempView(name)
      case (true, false) => frame.createGlobalTempView(name)
      case (true, true) => frame.createOrReplaceGlobalTempView(name)
    }
    Nil
  }
}
