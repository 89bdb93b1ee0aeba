package io.sparksubstrait.foundation

/**
 * Extension URNs as every stage compares them: the plan's declarations (the function table's
 * ExtensionRegistry) and the user-defined type handlers a session registers (extending/)
 * must name an extension the same way.
 */
private[sparksubstrait] object ExtensionUrns {
  private val UrnPrefix = "extension:io.substrait:"

  /**
   * The standard extension a URN or URI stands for. URIs are matched by their file name
   * because producers write many prefixes (GitHub URLs, `/functions_x.yaml`, …). A URI
   * naming a folder rather than a file (DuckDB) identifies nothing: None.
   */
  def canonical(urnOrUri: String): Option[String] = {
    val trimmed = urnOrUri.trim
    if (trimmed.isEmpty) None
    else if (trimmed.startsWith(UrnPrefix)) Some(trimmed.stripPrefix(UrnPrefix))
    else if (trimmed.startsWith("extension:")) Some(trimmed)
    else {
      val file = trimmed.reverse.takeWhile(_ != '/').reverse
      if (file.endsWith(".yaml") || file.endsWith(".yml")) Some(file.substring(0, file.lastIndexOf('.')))
      else None
    }
  }
}
