package org.apache.spark.sparksubstraitbench

import org.apache.spark.SparkContext

/**
 * Waits until Spark's listener bus has delivered every event posted so far: a stage's
 * completion reaches listeners after the action that ran it returned. The bus is Spark's
 * private API, hence this package.
 */
object ListenerBusWait {
  def apply(sc: SparkContext, timeoutMs: Long = 30000): Unit = sc.listenerBus.waitUntilEmpty(timeoutMs)
}
