package io.sparksubstrait.errors

import org.apache.spark.SparkThrowable

/** Spark 4 names an error's condition `getCondition` (and keeps `getErrorClass` as its deprecated alias). */
private[errors] trait SparkThrowableCondition extends SparkThrowable {
  def condition: String
  override def getCondition: String = condition
}
