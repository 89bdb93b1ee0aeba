package io.sparksubstrait.convert.functions

/**
 * The placeholders of a user mapping's SQL template: `$1` … `$n` for the call's value
 * arguments, `$name` for its option `name`. A `$` inside a quoted string or identifier is
 * text, not a placeholder; `$$` is a literal `$`.
 */
private[sparksubstrait] object SqlTemplates {

  /** The template with each placeholder replaced by `argument(n)` / `option(name)`. */
  def substitute(sql: String, argument: Int => String, option: String => String): String = {
    val out = new StringBuilder
    scan(sql)(out.append(_),
      {
        case Left(n) => out.append(argument(n))
        case Right(name) => out.append(option(name))
      })
    out.toString
  }

  /** The option names the template reads, in first-use order. */
  def optionNames(sql: String): Seq[String] = {
    val names = scala.collection.mutable.LinkedHashSet.empty[String]
    scan(sql)(_ => (), { case Right(name) => names += name; case _ => })
    names.toSeq
  }

  /** Walks the template: text to `text`, each placeholder (Left: argument number, Right: option name) to `placeholder`. */
  private def scan(sql: String)(text: Char => Unit, placeholder: Either[Int, String] => Unit): Unit = {
    var i = 0
    var quote: Char = 0
    while (i < sql.length) {
      val c = sql.charAt(i)
      if (quote != 0) {
        text(c)
        if (c == '\\' && quote != '`' && i + 1 < sql.length) { text(sql.charAt(i + 1)); i += 1 }
        else if (c == quote) quote = 0
        i += 1
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c; text(c); i += 1
      } else if (c == '$' && i + 1 < sql.length && sql.charAt(i + 1) == '$') {
        text('$'); i += 2
      } else if (c == '$' && i + 1 < sql.length && sql.charAt(i + 1).isDigit) {
        val end = sql.indexWhere(!_.isDigit, i + 1) match { case -1 => sql.length; case e => e }
        placeholder(Left(sql.substring(i + 1, end).toInt)); i = end
      } else if (c == '$' && i + 1 < sql.length && (sql.charAt(i + 1).isLetter || sql.charAt(i + 1) == '_')) {
        val end = sql.indexWhere(ch => !(ch.isLetterOrDigit || ch == '_'), i + 1) match {
          case -1 => sql.length; case e => e
        }
        placeholder(Right(sql.substring(i + 1, end))); i = end
      } else {
        text(c); i += 1
      }
    }
  }
}
