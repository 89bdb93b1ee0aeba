package io.sparksubstrait.extending

import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.errors.SubstraitErrors

/**
 * The extension relation handlers a session registers ([[ExtensionRelations.Key]]), by the
 * type URLs they read. Made from the setting when a conversion first meets an extension
 * relation, and when a write meets a node it has no relation for: a plan without either
 * reads no setting and loads no class.
 */
private[sparksubstrait] final class ExtensionRelations private (val handlers: Seq[ExtensionRelation],
  byTypeUrl: Map[String, ExtensionRelation]) {
  def forTypeUrl(typeUrl: String): Option[ExtensionRelation] = byTypeUrl.get(typeUrl)

  /** What is registered, for an error naming what a plan could have used. */
  def describe: String =
    if (handlers.isEmpty) "none is registered"
    else handlers.map(h => s"${HandlerClasses.describe(h)} reads ${h.typeUrls.toSeq.sorted.mkString(", ")}")
      .mkString("registered: ", "; ", "")
}

private[sparksubstrait] object ExtensionRelations {
  val Key = "spark.substrait.extensionRelations"

  /** `at`: the relation that needed them (None: writing), named by a setting's error. */
  def fromConf(conf: SQLConf, at: Option[PlanPath]): ExtensionRelations = {
    val handlers = HandlerClasses.load(conf, Key, classOf[ExtensionRelation], at)
    val claims = handlers.flatMap { h =>
      HandlerClasses.call(h, "listing its type URLs", at.fold("the plan's writer")(_.toString))(h.typeUrls.toSeq)
        .map(_ -> h)
    }
    claims.groupBy(_._1).collectFirst { case (url, hs) if hs.map(_._2).distinct.size > 1 => url -> hs.map(_._2) }
      .foreach { case (url, hs) =>
        throw SubstraitErrors.invalidSetting(Key, conf.getConfString(Key, ""),
          s"handlers claiming distinct type URLs: $url is claimed by " +
            hs.map(HandlerClasses.describe).mkString(" and "),
          at)
      }
    new ExtensionRelations(handlers, claims.toMap)
  }
}
