package io.sparksubstrait.extending

import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.foundation.{ExtensionUrns, PlanPath}
import io.sparksubstrait.errors.SubstraitErrors

/**
 * The user-defined type handlers a session registers ([[UserDefinedTypes.Key]]), by the
 * extension and name of the type each holds (the extension canonical, as the plan's
 * declarations are: [[ExtensionUrns.canonical]]).
 */
private[sparksubstrait] final class UserDefinedTypes private (
  byType: Map[(Option[String], String), UserDefinedTypeHandler]) {
  def find(extension: Option[String], name: String): Option[UserDefinedTypeHandler] = byType.get((extension, name))

  /** What is registered, for an error naming what a plan could have used. */
  def describe: String =
    if (byType.isEmpty) "none is registered"
    else byType.toSeq.map { case ((ext, name), h) =>
      s"$name of ${ext.getOrElse("no extension")} (${HandlerClasses.describe(h)})"
    }.sorted.mkString("registered: ", ", ", "")
}

private[sparksubstrait] object UserDefinedTypes {
  val Key = "spark.substrait.userDefinedTypes"

  def fromConf(conf: SQLConf, at: PlanPath): UserDefinedTypes = {
    val handlers = HandlerClasses.load(conf, Key, classOf[UserDefinedTypeHandler], Some(at))
    val keyed = handlers.map { h =>
      HandlerClasses.call(h, "naming its type", at.toString)((ExtensionUrns.canonical(h.urn), h.name)) -> h
    }
    keyed.groupBy(_._1).collectFirst { case (t, hs) if hs.size > 1 => t -> hs.map(_._2) }.foreach { case (t, hs) =>
      throw SubstraitErrors.invalidSetting(Key, conf.getConfString(Key, ""),
        s"one handler per type: ${t._2} of ${t._1.getOrElse("no extension")} is held by " +
          hs.map(HandlerClasses.describe).mkString(" and "), Some(at))
    }
    new UserDefinedTypes(keyed.toMap)
  }

  /**
   * The session's handlers for one conversion, loaded when a plan first has a user-defined
   * type other than the spec's unsigned integers: a plan without one reads no setting.
   */
  final class PerConversion(conf: SQLConf) extends (PlanPath => UserDefinedTypes) {
    private var loaded: UserDefinedTypes = _
    override def apply(at: PlanPath): UserDefinedTypes = {
      if (loaded == null) loaded = fromConf(conf, at)
      loaded
    }
  }

  /** No session (a type converted outside a conversion): nothing registered. */
  val none: PlanPath => UserDefinedTypes = _ => new UserDefinedTypes(Map.empty)
}
