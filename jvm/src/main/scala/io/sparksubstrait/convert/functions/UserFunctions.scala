package io.sparksubstrait.convert.functions

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}
import java.util.concurrent.ConcurrentHashMap

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.UserFunctionMapping.{SparkFunction, SqlTemplate}

/**
 * The user function mappings of one session, read from its SQL configuration: so they are
 * per session, reach the driver over Spark Connect (`spark.conf.set`), from `SET` before
 * the `substrait(...)` table function, from the CLI's `--conf`, and from a cluster's
 * spark-defaults, all in one form.
 *
 * {{{
 *   spark.substrait.function.<alias>.urn   = extension:org.example:my_functions
 *   spark.substrait.function.<alias>.name  = my_add            (my_add:i64_i64: that signature only)
 *   spark.substrait.function.<alias>.spark = my_udf            (or)
 *   spark.substrait.function.<alias>.sql   = ($1 + $2) * 2
 *   spark.substrait.functions.files        = /path/mappings.yaml,...
 *   spark.substrait.extensionYamls         = /path/my_functions.yaml,...
 *   spark.substrait.extensionYaml.<alias>  = <an extension YAML's text>
 * }}}
 *
 * Read only when a plan calls a function the standard table does not map (a plan of
 * standard functions pays nothing), and parsed once per distinct configuration.
 */
private[sparksubstrait] final class UserFunctions private (val mappings: Seq[UserFunctionMapping],
  val yamls: Map[String, UserExtensionYaml]) {
  private val byUrnAndName = mappings.groupBy(m => (m.urn, m.name.toLowerCase))
  private val byName = mappings.groupBy(_.name.toLowerCase)

  /**
   * The mapping for a call of `compoundName` from extension `urn` (None: the plan names no
   * URN, as DataFusion's and DuckDB's do: then any URN's function of that name, if only one).
   * A mapping for one signature wins over one for every signature.
   */
  def find(urn: Option[String], compoundName: String): Option[UserFunctionMapping] = {
    val base = compoundName.takeWhile(_ != ':').toLowerCase
    val candidates = urn match {
      case Some(u) => byUrnAndName.getOrElse((u, base), Nil)
      case None => byName.getOrElse(base, Nil).groupBy(_.urn).toSeq match {
          case Seq((_, ms)) => ms
          case _ => Nil // the same name under several URNs: the plan must say which
        }
    }
    candidates.find(_.signature.exists(s => s"$base:${s.toLowerCase}" == compoundName.toLowerCase))
      .orElse(candidates.find(_.signature.isEmpty))
  }

  /** The mappings named by base name under any URN, for an error naming near misses. */
  def named(base: String): Seq[UserFunctionMapping] = byName.getOrElse(base.toLowerCase, Nil)

  def isEmpty: Boolean = mappings.isEmpty && yamls.isEmpty
}

private[sparksubstrait] object UserFunctions {
  val Prefix = "spark.substrait.function."
  val FilesKey = "spark.substrait.functions.files"
  val YamlFilesKey = "spark.substrait.extensionYamls"
  val InlineYamlPrefix = "spark.substrait.extensionYaml."
  private val AliasPattern = "[A-Za-z0-9_]+".r
  private val Fields = Set("urn", "name", "spark", "sql")

  val empty = new UserFunctions(Nil, Map.empty)

  // Parsed registries by the settings (and named files' stamps) they came from: a session
  // converting many plans parses its mappings once. Bounded: settings rarely change.
  private val cache = new ConcurrentHashMap[Map[String, String], UserFunctions]()

  /** The session's mappings and extension YAMLs, or the error naming the setting at fault. */
  def of(conf: SQLConf): UserFunctions = {
    val settings = conf.getAllConfs.filter { case (k, _) =>
      k.startsWith(Prefix) || k == FilesKey || k == YamlFilesKey || k.startsWith(InlineYamlPrefix)
    }
    if (settings.isEmpty) empty
    else {
      val key = settings ++ fileStamps(settings)
      Option(cache.get(key)).getOrElse {
        val parsed = parse(settings)
        if (cache.size > 64) cache.clear()
        cache.put(key, parsed)
        parsed
      }
    }
  }

  /** A named file's modification time and size: an edited file is read again. */
  private def fileStamps(settings: Map[String, String]): Map[String, String] =
    (paths(settings.get(FilesKey)) ++ paths(settings.get(YamlFilesKey))).map { p =>
      val f = new java.io.File(p)
      s"file:$p" -> s"${f.lastModified()}:${f.length()}"
    }.toMap

  private def paths(setting: Option[String]): Seq[String] =
    setting.toSeq.flatMap(_.split(',')).map(_.trim).filter(_.nonEmpty)

  private def parse(settings: Map[String, String]): UserFunctions = {
    val fromKeys = settings.collect { case (k, v) if k.startsWith(Prefix) => k.stripPrefix(Prefix) -> v }
      .groupBy { case (rest, _) => rest.substring(0, math.max(rest.lastIndexOf('.'), 0)) }
      .toSeq.sortBy(_._1).map { case (alias, fields) =>
        val byField = fields.map { case (rest, v) => rest.substring(rest.lastIndexOf('.') + 1) -> v }
        fromFields(alias, byField, s"$Prefix$alias.*")
      }
    val fromFiles = paths(settings.get(FilesKey)).zipWithIndex.flatMap { case (path, i) =>
      UserExtensionYaml.mappingFile(read(path, FilesKey), path).zipWithIndex.map { case (fields, j) =>
        fromFields(s"file${i + 1}_${j + 1}", fields, s"$path, entry ${j + 1}")
      }
    }
    val mappings = fromKeys ++ fromFiles
    mappings.foreach(UserFunctionRegistration.checkNotStandard)
    val yamlTexts = paths(settings.get(YamlFilesKey)).map(p => p -> read(p, YamlFilesKey)) ++
      settings.toSeq.collect { case (k, v) if k.startsWith(InlineYamlPrefix) => k -> v }.sortBy(_._1)
    val yamls = yamlTexts.map { case (where, text) => UserExtensionYaml.parse(text, where) }
      .map(y => y.urn -> y).toMap
    mappings.groupBy(m => (m.urn, m.compoundName.toLowerCase)).collectFirst { case (_, ms) if ms.size > 1 => ms }
      .foreach { ms =>
        throw SubstraitErrors.invalidSetting(ms.map(_.source).mkString(" and "), ms.head.describe,
          s"one mapping per function and signature (${ms.size} map ${ms.head.urn}#${ms.head.compoundName})")
      }
    new UserFunctions(mappings, yamls)
  }

  /** One mapping from its fields (`urn`, `name`, `spark` or `sql`), or the error naming the setting. */
  private[sparksubstrait] def fromFields(alias: String, fields: Map[String, String],
    source: String): UserFunctionMapping = {
    def bad(value: String, expected: String) = SubstraitErrors.invalidSetting(source, value, expected)
    if (!AliasPattern.pattern.matcher(alias).matches()) {
      throw bad(alias, s"an alias of letters, digits and underscores: $Prefix<alias>.urn, .name, .spark or .sql")
    }
    fields.keys.find(!Fields(_)).foreach(f => throw bad(f, "one of the fields urn, name, spark, sql"))
    val urn = fields.get("urn").map(_.trim).filter(_.nonEmpty)
      .getOrElse(throw bad("without urn",
          "the URN of the function's extension (e.g. extension:org.example:my_functions)"))
    val compound = fields.get("name").map(_.trim).filter(_.nonEmpty)
      .getOrElse(throw bad("without name",
          "the function's name as the plan declares it (e.g. my_add or my_add:i64_i64)"))
    val (name, signature) = compound.split(":", 2) match {
      case Array(n, s) if s.nonEmpty => (n, Some(s))
      case Array(n, _*) => (n, None)
    }
    val target = (fields.get("spark").map(_.trim), fields.get("sql").map(_.trim)) match {
      case (Some(f), None) if f.nonEmpty => SparkFunction(f)
      case (None, Some(s)) if s.nonEmpty => SqlTemplate(s)
      case _ => throw bad(fields.keys.toSeq.sorted.mkString(", "),
          "exactly one of spark (a Spark function's name) and sql (a SQL expression over $1 … $n)")
    }
    UserFunctionMapping(alias, urn, name, signature, target, source)
  }

  /** A file a setting names, read by the driver (a path the administrator chose, never the plan). */
  private def read(path: String, key: String): String =
    try new String(Files.readAllBytes(Paths.get(path)), StandardCharsets.UTF_8)
    catch {
      case e: java.io.IOException =>
        throw SubstraitErrors.invalidSetting(key, path, s"a readable file (${e.getClass.getSimpleName})")
    }

  /** The settings that make a mapping, for the registration API (Scala, Py4J). */
  def settingsFor(alias: String, urn: String, name: String, target: UserFunctionMapping.Target): Seq[(String, String)] =
    Seq(s"$Prefix$alias.urn" -> urn, s"$Prefix$alias.name" -> name) ++
      (target match {
        case SparkFunction(f) => Seq(s"$Prefix$alias.spark" -> f)
        case SqlTemplate(s) => Seq(s"$Prefix$alias.sql" -> s)
      })

  /** The alias the registration API gives a mapping: readable, and unique per URN and name. */
  def aliasFor(urn: String, name: String): String = {
    val digest = java.security.MessageDigest.getInstance("SHA-1").digest(s"$urn#$name".getBytes(StandardCharsets.UTF_8))
    name.replaceAll("[^A-Za-z0-9_]", "_") + "_" + digest.take(4).map(b => f"${b & 0xff}%02x").mkString
  }

  /**
   * The settings of every mapping of exactly `urn` and `name` (any alias; `my_add` is not
   * `my_add:i64_i64`), for unregistering.
   */
  def settingsOf(conf: SQLConf, urn: String, name: String): Seq[String] = {
    val all = conf.getAllConfs
    val aliases = all.collect {
      case (k, v) if k.startsWith(Prefix) && k.endsWith(".urn") && v.trim == urn =>
        k.stripPrefix(Prefix).stripSuffix(".urn")
    }.filter(a => all.get(s"$Prefix$a.name").exists(_.trim.equalsIgnoreCase(name)))
    aliases.toSeq.flatMap(a => Fields.toSeq.map(f => s"$Prefix$a.$f")).filter(all.contains)
  }

  private[sparksubstrait] def clearCache(): Unit = cache.clear()
  private[sparksubstrait] def asJava(ms: Seq[UserFunctionMapping]): java.util.List[String] = ms.map(_.describe).asJava
}
