package io.sparksubstrait.errors

import org.apache.spark.SparkThrowable

/**
 * Spark 3.5 calls an error's condition its error class. `getCondition` is added as well, so
 * callers (the Python client among them) ask every Spark version the same question.
 */
private[errors] trait SparkThrowableCondition extends SparkThrowable {
  def condition: String
  override def getErrorClass: String = condition
  def getCondition: String = condition
}
