package io.sparksubstrait.decode

/**
 * The deepest nesting of JSON objects and arrays in a text, found in one pass without
 * recursion or a parse: brackets inside strings (with their escapes) do not count. Malformed
 * text is left to the parser, which names what is wrong.
 */
private[decode] object JsonDepth {
  def apply(text: String): Int = {
    var depth = 0
    var max = 0
    var inString = false
    var i = 0
    val n = text.length
    while (i < n) {
      val c = text.charAt(i)
      if (inString) {
        if (c == '\\') i += 1
        else if (c == '"') inString = false
      } else c match {
        case '"' => inString = true
        case '{' | '[' => depth += 1; if (depth > max) max = depth
        case '}' | ']' => depth -= 1
        case _ =>
      }
      i += 1
    }
    max
  }
}
