package io.sparksubstrait.functiontests

import scala.collection.mutable.ArrayBuffer
import scala.util.matching.Regex

/** The tokens of one line of a test file. */
sealed trait Tok { def text: String }

/** Punctuation: `( ) [ ] { } , = < > ? : :: -> .` */
final case class Punct(text: String) extends Tok
final case class Word(text: String) extends Tok

/** A number, date, time, timestamp, interval, `inf` or `nan`, as written. */
final case class WordTok(text: String) extends Tok
final case class Quoted(value: String) extends Tok { def text: String = s"'$value'" }

/** `<!ERROR>` or `<!UNDEFINED>`. */
final case class Marker(text: String) extends Tok

/**
 * Splits one line into tokens. Dates and times contain `:` and `-`, numbers `.` and `+`,
 * so literal shapes are matched before punctuation.
 */
object TestFileLexer {
  private val literalShapes: Seq[Regex] = Seq(
    """\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)?""".r,
    """\d{4}-\d{2}-\d{2}""".r,
    """\d{2}:\d{2}:\d{2}(\.\d+)?""".r,
    """[+-]?(?i:inf|infinity|nan)(?![A-Za-z0-9_])""".r,
    """[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?""".r,
    // ISO 8601 durations (P5D, PT10H, P1DT10H0M0S); "POPULATION" is a word, not a duration.
    """-?P(\d+Y)?(\d+M)?(\d+D)?(T(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?(?![A-Za-z0-9_])""".r
  )
  private val word = """[A-Za-z_][A-Za-z0-9_!]*""".r
  private val markers = Seq("<!ERROR>", "<!UNDEFINED>")

  def tokenize(line: String, file: String, lineNo: Int): IndexedSeq[Tok] = {
    val out = ArrayBuffer.empty[Tok]
    var i = 0
    def fail(msg: String) = throw TestFileSyntaxError(file, lineNo, s"$msg at column ${i + 1}: $line")
    while (i < line.length) {
      val rest = line.substring(i)
      val c = line.charAt(i)
      if (c.isWhitespace) i += 1
      else markers.find(m => rest.regionMatches(true, 0, m, 0, m.length)) match {
        case Some(m) => out += Marker(m.toUpperCase); i += m.length
        case None if rest.startsWith("::") || rest.startsWith("->") => out += Punct(rest.take(2)); i += 2
        case None if c == '\'' =>
          val end = line.indexOf('\'', i + 1)
          if (end < 0) fail("unterminated string")
          out += Quoted(line.substring(i + 1, end)); i = end + 1
        case None =>
          literalShapes.iterator.flatMap(_.findPrefixOf(rest)).find(_.nonEmpty)
            .filter(t => !(t == "P" || t == "-P")) match {
            case Some(t) => out += WordTok(t); i += t.length
            case None => word.findPrefixOf(rest) match {
                case Some(w) => out += Word(w); i += w.length
                case None if "()[]{},=<>?:.".indexOf(c) >= 0 => out += Punct(c.toString); i += 1
                case None => fail(s"unexpected character '$c'")
              }
          }
      }
    }
    out.toIndexedSeq
  }
}
