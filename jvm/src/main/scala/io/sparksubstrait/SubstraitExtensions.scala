package io.sparksubstrait

import org.apache.spark.sql.SparkSessionExtensions

import io.sparksubstrait.catalyst.{ResolveSubstraitPlans, SubstraitTableFunctions}

/**
 * The Spark SQL extension: `spark.sql.extensions=io.sparksubstrait.SubstraitExtensions`.
 * A flat list of what it injects.
 */
class SubstraitExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit = {
    extensions.injectResolutionRule(session => ResolveSubstraitPlans(session))
    SubstraitTableFunctions.all.foreach(extensions.injectTableFunction)
  }
}
