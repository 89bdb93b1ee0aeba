package io.sparksubstrait.runtime

/**
 * The replacement string of regexp_replace in the spec's syntax, as java.util.regex writes it.
 *
 * functions_string.yaml says the replacement "can capture groups using numbered backreferences";
 * its test cases write them `\1`, and so do the engines producers translate from (RE2 in
 * DuckDB, DataFusion's Rust regex front end). So: `\0`…`\9` are groups (`\0` the whole
 * match), `\\` is one backslash, and every other character is itself, `$` included. Java
 * reads `$n` as a group and `\x` as an escaped `x`, so literals that Java would read
 * otherwise (`$`, `\`, digits after a group) are escaped. A backslash before any other
 * character, or at the end, is left undefined by that syntax (RE2 refuses it) and is an error.
 */
object RegexReplacement {

  /** The replacement in Java's syntax, and the highest group it refers to (0 when none). */
  final case class Java(replacement: String, maxGroup: Int)

  def toJava(spec: String): Either[String, Java] = {
    val out = new java.lang.StringBuilder(spec.length + 8)
    var maxGroup = 0
    var i = 0
    while (i < spec.length) {
      val ch = spec.charAt(i)
      if (ch == '\\') {
        if (i + 1 == spec.length) return Left("the replacement ends in a lone backslash (write \\\\ for one backslash)")
        val next = spec.charAt(i + 1)
        if (next >= '0' && next <= '9') {
          out.append('$').append(next)
          maxGroup = math.max(maxGroup, next - '0')
        } else if (next == '\\') {
          out.append("\\\\")
        } else {
          return Left(s"the replacement has the escape \\$next, which the spec's syntax does not define " +
            "(\\0 to \\9 are groups, \\\\ is a backslash)")
        }
        i += 2
      } else {
        // Java would read $ as a group and a digit right after a group as part of its number.
        if (ch == '$' || (ch >= '0' && ch <= '9')) out.append('\\')
        out.append(ch)
        i += 1
      }
    }
    Right(Java(out.toString, maxGroup))
  }
}
