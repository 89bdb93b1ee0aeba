package io.sparksubstrait.write

import scala.collection.mutable

import org.apache.spark.sql.SparkSession

import io.sparksubstrait.proto.{Plan, SimpleExtensionDeclaration, SimpleExtensionURI, SimpleExtensionURN}
import io.sparksubstrait.write.expr.InputRecord

/**
 * What every writer shares while writing one plan: the extensions and functions declared
 * so far (anchors in first-use order, so a plan is written the same way every time), the
 * records outer references can see, and whether a GlobalLimit encloses the node written.
 */
private[sparksubstrait] final class WriteContext(val session: SparkSession, val target: WriteTarget) {
  private val extensionAnchors = mutable.LinkedHashMap.empty[String, Int]
  private val functionAnchors = mutable.LinkedHashMap.empty[(String, String), Int]

  /**
   * The anchor of function `compoundName` (e.g. `add:i64_i64`) of standard extension
   * `extension`; "" declares it under no extension (a consumer's own function, by name).
   */
  def functionAnchor(extension: String, compoundName: String): Int = {
    if (extension.nonEmpty) extensionAnchors.getOrElseUpdate(extension, extensionAnchors.size + 1)
    functionAnchors.getOrElseUpdate((extension, compoundName), functionAnchors.size + 1)
  }

  /** Declares the extensions and functions used, as URNs (or the target's URIs). */
  def declare(plan: Plan.Builder): Unit = {
    extensionAnchors.foreach { case (ext, anchor) =>
      if (target.extensionUris) {
        plan.addExtensionUris(
          SimpleExtensionURI.newBuilder().setExtensionUriAnchor(anchor).setUri(WriteContext.uri(ext)))
      } else {
        plan.addExtensionUrns(
          SimpleExtensionURN.newBuilder().setExtensionUrnAnchor(anchor).setUrn(WriteContext.urn(ext)))
      }
    }
    functionAnchors.foreach { case ((ext, name), anchor) =>
      val f = SimpleExtensionDeclaration.ExtensionFunction.newBuilder().setFunctionAnchor(anchor).setName(name)
      // Anchor 0 is never declared: a function of no extension.
      val ref = extensionAnchors.getOrElse(ext, 0)
      if (target.extensionUris) f.setExtensionUriReference(ref) else f.setExtensionUrnReference(ref)
      plan.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(f))
    }
  }

  /** The session's user function mappings: a UDF one of them names is written as its function. */
  lazy val userFunctions: io.sparksubstrait.convert.functions.UserFunctions =
    io.sparksubstrait.convert.functions.UserFunctions.of(org.apache.spark.sql.sparksubstrait.SparkShim.sqlConf(session))

  /** The records of the relations enclosing the subqueries being written, innermost first. */
  private var outer: List[InputRecord] = Nil
  def outerRecord: Option[InputRecord] = outer.headOption
  def inSubquery[T](enclosing: InputRecord)(body: => T): T = {
    outer = enclosing :: outer
    try body
    finally outer = outer.tail
  }

  /** The CTE definitions in scope (WithCTE), by id. */
  private var ctes: Map[Long, org.apache.spark.sql.catalyst.plans.logical.LogicalPlan] = Map.empty
  def cteDefinition(id: Long): Option[org.apache.spark.sql.catalyst.plans.logical.LogicalPlan] = ctes.get(id)
  def withCteDefinitions[T](defs: Seq[(Long, org.apache.spark.sql.catalyst.plans.logical.LogicalPlan)])(
    body: => T): T = {
    val saved = ctes
    ctes = ctes ++ defs
    try body
    finally ctes = saved
  }

  /**
   * Whether the node being written is under a GlobalLimit with only row-subsetting operators
   * in between (where Spark's LimitPushDown puts LocalLimits).
   */
  private var globalLimitAbove = false
  def underGlobalLimit: Boolean = globalLimitAbove
  def withGlobalLimit[T](on: Boolean)(body: => T): T = {
    val saved = globalLimitAbove
    globalLimitAbove = on
    try body
    finally globalLimitAbove = saved
  }
}

private[sparksubstrait] object WriteContext {

  /** A standard extension's URN; a user's extension is named by its own URN already. */
  def urn(extension: String): String =
    if (extension.startsWith("extension:")) extension else s"extension:io.substrait:$extension"

  /** The URI older consumers expect: the YAML's place in the spec repository. */
  def uri(extension: String): String =
    if (extension.startsWith("extension:")) extension
    else s"https://github.com/substrait-io/substrait/blob/main/extensions/$extension.yaml"
}
