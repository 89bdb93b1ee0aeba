package io.sparksubstrait.convert.functions

/**
 * Operator spellings that mean the standard function in any plan (`+`, `=`, `count_star`),
 * whoever wrote it. A name that means a standard function only in one producer's plans is
 * that producer's reading (decode/readings/FunctionSpellings), keyed on its stamp.
 */
private[sparksubstrait] object FunctionAliases {
  private val aliases: Map[String, String] = Map(
    "count_star" -> "count", // count(*) under its own name
    "mod" -> "modulus",
    "neg" -> "negate",
    "=" -> "equal", "<>" -> "not_equal", "!=" -> "not_equal",
    "<" -> "lt", ">" -> "gt", "<=" -> "lte", ">=" -> "gte",
    "+" -> "add", "-" -> "subtract", "*" -> "multiply", "/" -> "divide", "%" -> "modulus"
  )

  def canonicalName(name: String): String = aliases.getOrElse(name, name)
  def all: Map[String, String] = aliases
}
