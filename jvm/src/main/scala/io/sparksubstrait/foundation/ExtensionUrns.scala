package io.sparksubstrait.foundation

/**
 * Extension URNs as every stage compares them: the plan's declarations (the function table's
 * ExtensionRegistry) and the user-defined type handlers a session registers (extending/)
 * must name an extension the same way.
 */
private[sparksubstrait] object ExtensionUrns {
  private val UrnPrefix = "extension:io.substrait:"

  /**
   * substrait-java's Spark dialect (its module `spark`, `io.substrait.spark`): Spark's own
   * functions the standard YAMLs lack. Releases from 0.66 name it by this URN; 0.35 to 0.65
   * loaded the YAML from the resource `/spark.yml` and so wrote that text as its URI.
   */
  val SparkDialect: String = "extension:substrait:spark"
  private val SparkDialectUri = "/spark.yml"

  /**
   * The standard extension a URN or URI stands for. URIs are matched by their file name
   * because producers write many prefixes (GitHub URLs, `/functions_x.yaml`, …). A URI
   * naming a folder rather than a file (DuckDB) identifies nothing: None.
   */
  def canonical(urnOrUri: String): Option[String] = {
    val trimmed = urnOrUri.trim
    if (trimmed.isEmpty) None
    // Exactly the resource path the module wrote: another file named spark.yml is not its dialect.
    else if (trimmed == SparkDialectUri) Some(SparkDialect)
    else if (trimmed.startsWith(UrnPrefix)) Some(trimmed.stripPrefix(UrnPrefix))
    else if (trimmed.startsWith("extension:")) Some(trimmed)
    else {
      val file = trimmed.reverse.takeWhile(_ != '/').reverse
      if (file.endsWith(".yaml") || file.endsWith(".yml")) Some(file.substring(0, file.lastIndexOf('.')))
      else None
    }
  }
}
