package io.sparksubstrait.functions

/**
 * strftime / strptime formats (C's `%` directives, as the spec's datetime functions take)
 * as Spark datetime patterns. Only directives whose Spark form writes and reads exactly what
 * C's does are translated; any other is refused, never approximated. Spark's names of
 * months, weekdays and AM/PM are English, as in the C locale.
 */
object StrftimePattern {
  private val both: Map[Char, String] = Map(
    'Y' -> "yyyy", 'm' -> "MM", 'd' -> "dd", 'H' -> "HH", 'M' -> "mm", 'S' -> "ss",
    'j' -> "DDD", 'b' -> "MMM", 'h' -> "MMM", 'B' -> "MMMM", 'a' -> "EEE", 'A' -> "EEEE",
    'p' -> "a", 'I' -> "hh", 'f' -> "SSSSSS", 'z' -> "xx",
    'F' -> "yyyy-MM-dd", 'T' -> "HH:mm:ss", 'R' -> "HH:mm")
  // Two-digit years: C reads 69-99 as 19xx, Spark reads every one as 20xx; writing agrees.
  private val formatOnly: Map[Char, String] = Map('y' -> "yy", 'D' -> "MM/dd/yy")

  /** The Spark pattern, or Left(the directive that has none). */
  def toSpark(format: String, parsing: Boolean): Either[String, String] = {
    val directives = if (parsing) both else both ++ formatOnly
    val out = new StringBuilder
    val literal = new StringBuilder
    def flushLiteral(): Unit = if (literal.nonEmpty) {
      // Letters are pattern symbols in Spark: literal text is quoted ('' is one quote).
      out.append('\'').append(literal.toString.replace("'", "''")).append('\'')
      literal.clear()
    }
    var i = 0
    while (i < format.length) {
      format.charAt(i) match {
        case '%' if i + 1 < format.length =>
          val d = format.charAt(i + 1)
          if (d == '%') literal.append('%')
          else directives.get(d) match {
            case Some(p) => flushLiteral(); out.append(p)
            case None => return Left(s"%$d")
          }
          i += 2
        case '%' => return Left("a trailing %")
        case ch => literal.append(ch); i += 1
      }
    }
    flushLiteral()
    Right(out.toString)
  }
}
