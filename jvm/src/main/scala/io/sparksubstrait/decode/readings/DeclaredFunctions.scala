package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Plan

/** The plan's extension function declarations, as readings look them up before conversion. */
private[sparksubstrait] object DeclaredFunctions {

  /** A declared name without its signature (`divide:i64_i64` is `divide`). */
  def baseName(name: String): String = name.takeWhile(_ != ':')

  /** The anchors of the functions declared under one of `names` (any signature). */
  def anchorsNamed(plan: Plan, names: Set[String]): Set[Int] =
    plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map(_.getExtensionFunction)
      .filter(f => names(baseName(f.getName))).map(_.getFunctionAnchor).toSet

  /** An anchor no function declaration of the plan uses, for a function a reading adds. */
  def freeAnchor(plan: Plan): Int =
    (plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map(_.getExtensionFunction.getFunctionAnchor) :+
      0).max + 1
}
