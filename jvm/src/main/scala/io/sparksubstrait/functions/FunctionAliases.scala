package io.sparksubstrait.functions

/**
 * Spellings real producers emit that the standard YAMLs lack, mapped to the standard
 * name. One table, so every producer quirk of naming is visible in one place.
 */
object FunctionAliases {
  private val aliases: Map[String, String] = Map(
    "count_star" -> "count",        // count(*) under its own name
    "sum_no_overflow" -> "sum",     // DuckDB's sum over integers
    "mod" -> "modulus",
    "neg" -> "negate",
    "=" -> "equal", "<>" -> "not_equal", "!=" -> "not_equal",
    "<" -> "lt", ">" -> "gt", "<=" -> "lte", ">=" -> "gte",
    "+" -> "add", "-" -> "subtract", "*" -> "multiply", "/" -> "divide", "%" -> "modulus"
  )

  def canonicalName(name: String): String = aliases.getOrElse(name, name)
  def all: Map[String, String] = aliases
}
