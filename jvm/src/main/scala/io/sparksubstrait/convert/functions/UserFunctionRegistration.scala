package io.sparksubstrait.convert.functions

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.functions.{DeclaredFunction, FunctionCatalog, SqlTemplates}
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.UserFunctionMapping.{SparkFunction, SqlTemplate}

/**
 * Registering a mapping from the APIs (Scala, Java, Python over Py4J): checked at once, then
 * written as the session's settings, the one form [[UserFunctions]] reads.
 */
private[sparksubstrait] object UserFunctionRegistration {
  private val StandardUrn = "extension:io.substrait:"

  def register(session: SparkSession, urn: String, name: String, target: UserFunctionMapping.Target): Unit = {
    val alias = UserFunctions.aliasFor(urn.trim, name.trim)
    val settings = UserFunctions.settingsFor(alias, urn.trim, name.trim, target)
    val mapping = UserFunctions.fromFields(alias,
      settings.map { case (k, v) => k.substring(k.lastIndexOf('.') + 1) -> v }.toMap,
      s"${UserFunctions.Prefix}$alias.*")
    checkNotStandard(mapping)
    checkParses(session, mapping)
    unregister(session, urn, name)
    settings.foreach { case (k, v) => session.conf.set(k, v) }
  }

  def unregister(session: SparkSession, urn: String, name: String): Unit =
    UserFunctions.settingsOf(SparkShim.sqlConf(session), urn.trim, name.trim)
      .foreach(session.conf.unset)

  /** An extension YAML's text, kept in the session's settings under its URN (checked first). */
  def registerYaml(session: SparkSession, text: String): String = {
    val yaml = UserExtensionYaml.parse(text, "the registered extension YAML")
    session.conf.set(UserFunctions.InlineYamlPrefix + UserFunctions.aliasFor(yaml.urn, "yaml"), text)
    yaml.urn
  }

  def registered(conf: SQLConf): Seq[UserFunctionMapping] = UserFunctions.of(conf).mappings

  /**
   * A mapping may fill a gap in a standard extension but never stand in for a function the
   * standard table maps: the plan's author meant the spec's semantics.
   */
  def checkNotStandard(m: UserFunctionMapping): Unit = if (m.urn.startsWith(StandardUrn)) {
    val fn = DeclaredFunction(0, Some(m.urn.stripPrefix(StandardUrn)), m.compoundName)
    if (FunctionCatalog.scalar(fn).orElse(FunctionCatalog.aggregate(fn)).orElse(FunctionCatalog.window(fn)).isDefined) {
      throw SubstraitErrors.invalidSetting(m.source, m.describe,
        s"a function the standard table does not map: ${m.urn} ${m.name} is mapped already (docs/functions.md)")
    }
  }

  /** The target parses now, not at a plan's first call (whether it resolves depends on the call's types). */
  private def checkParses(session: SparkSession, m: UserFunctionMapping): Unit = {
    val parser = SparkShim.sessionState(session).sqlParser
    try m.target match {
        case SparkFunction(f) => parser.parseMultipartIdentifier(f)
        case SqlTemplate(sql) =>
          parser.parseExpression(SqlTemplates.substitute(sql, n => s"`__substrait_arg_$n`",
              o => s"`__substrait_option_$o`"))
      }
    catch {
      case e: org.apache.spark.sql.catalyst.parser.ParseException =>
        throw SubstraitErrors.invalidSetting(m.source, m.target.describe,
          s"a Spark function name or SQL expression that parses (${e.getMessage.linesIterator.next()})")
    }
  }
}
