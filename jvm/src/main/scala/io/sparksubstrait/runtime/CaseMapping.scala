package io.sparksubstrait.runtime

import org.apache.spark.unsafe.types.UTF8String

/** Holds the static forwarders of [[CaseMapping$]] that generated code calls. */
final class CaseMapping private ()

/**
 * The case-dependent string functions of functions_string that Spark has no expression for,
 * called from generated code through StaticInvoke: replace without regard to case, title, and
 * initcap of ASCII letters only. NULL arguments never reach these methods.
 *
 * Comparing without case is Unicode's simple case folding, one code point for one, so that
 * positions and lengths in the folded text are those of the input (a full folding such as
 * ß → ss would move them). ASCII folding changes A–Z alone.
 */
object CaseMapping {

  /**
   * The simple case folding of one code point, as a key: two code points fold alike exactly
   * when their keys are equal. Java's lower case of the upper case gives Unicode's simple
   * folding classes except for the Turkic dotted and dotless i: İ (U+0130) and ı (U+0131) fold
   * to themselves (CaseFolding.txt maps them only in its Turkic T entries), while Java's
   * mappings would join both to i.
   */
  def foldCodePoint(cp: Int, asciiOnly: Boolean): Int =
    if (asciiOnly) { if (cp >= 'A' && cp <= 'Z') cp + ('a' - 'A') else cp }
    else if (cp == 0x130 || cp == 0x131) cp
    else Character.toLowerCase(Character.toUpperCase(cp))

  /**
   * Every code point through [[foldCodePoint]]: one code point for each, so positions in the
   * folded text are positions in the text (Spark's lower case of İ is two: i and a dot).
   */
  def fold(s: UTF8String): UTF8String = {
    val text = s.toString
    val out = new java.lang.StringBuilder(text.length)
    text.codePoints().forEach(cp => out.appendCodePoint(foldCodePoint(cp, asciiOnly = false)))
    UTF8String.fromString(out.toString)
  }

  /**
   * replace with case_sensitivity CASE_INSENSITIVE (`asciiOnly` false) or
   * CASE_INSENSITIVE_ASCII: every non-overlapping occurrence of `search`, left to right, compared
   * code point by code point under [[foldCodePoint]], replaced by `replacement`; the text between
   * occurrences is kept as it is. An empty `search` (which the spec leaves undefined) replaces
   * nothing, as Spark's replace.
   */
  def replace(s: UTF8String, search: UTF8String, replacement: UTF8String, asciiOnly: Boolean): UTF8String = {
    val text = s.toString
    val input = text.codePoints().toArray
    val target = search.toString.codePoints().map(foldCodePoint(_, asciiOnly)).toArray
    if (target.isEmpty || target.length > input.length) return s
    val folded = input.map(foldCodePoint(_, asciiOnly))
    val out = new java.lang.StringBuilder(text.length)
    val rep = replacement.toString
    var kept = 0 // input code points before `kept` are written
    var i = 0
    var replaced = false
    while (i + target.length <= folded.length) {
      if (occursAt(folded, target, i)) {
        appendCodePoints(out, input, kept, i)
        out.append(rep)
        replaced = true
        i += target.length
        kept = i
      } else i += 1
    }
    if (!replaced) s
    else {
      appendCodePoints(out, input, kept, input.length)
      UTF8String.fromString(out.toString)
    }
  }

  /**
   * title: the first character of each word in title case, except in the articles a, an and
   * the (in any case), the rest as it is. Words are runs of characters that are not white space
   * ([[isWhiteSpace]]). The title case is Unicode's full mapping (ß → Ss, ﬁ → Fi: SpecialCasing.txt,
   * [[FullTitleCase]]), else the simple one (ǆ → ǅ); `asciiOnly` title-cases a–z alone.
   */
  def title(s: UTF8String, asciiOnly: Boolean): UTF8String = {
    val text = s.toString
    val out = new java.lang.StringBuilder(text.length + 4)
    var i = 0
    while (i < text.length) {
      val cp = text.codePointAt(i)
      if (isWhiteSpace(cp)) {
        out.appendCodePoint(cp)
        i += Character.charCount(cp)
      } else {
        val end = wordEnd(text, i)
        val word = text.substring(i, end)
        if (isArticle(word)) out.append(word)
        else {
          appendTitleCase(out, cp, asciiOnly)
          out.append(word, Character.charCount(cp), word.length)
        }
        i = end
      }
    }
    UTF8String.fromString(out.toString)
  }

  /**
   * initcap with char_set ASCII_ONLY: in each word (as [[title]] splits them, articles
   * included) a first letter a–z becomes A–Z and the letters A–Z after it a–z; no other
   * character changes.
   */
  def initcapAscii(s: UTF8String): UTF8String = {
    val text = s.toString
    val out = new java.lang.StringBuilder(text.length)
    var wordStart = true
    var i = 0
    while (i < text.length) {
      val cp = text.codePointAt(i)
      if (isWhiteSpace(cp)) { out.appendCodePoint(cp); wordStart = true }
      else {
        out.appendCodePoint(
          if (wordStart && cp >= 'a' && cp <= 'z') cp - ('a' - 'A')
          else if (!wordStart && cp >= 'A' && cp <= 'Z') cp + ('a' - 'A')
          else cp)
        wordStart = false
      }
      i += Character.charCount(cp)
    }
    UTF8String.fromString(out.toString)
  }

  /**
   * White space as Unicode's White_Space property has it (Java's isWhitespace misses the
   * no-break spaces, isSpaceChar the controls; NEL, U+0085, is in neither), and the separators
   * U+001C–U+001F, which Java and Python also count as white space.
   */
  def isWhiteSpace(cp: Int): Boolean = Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85

  private def wordEnd(text: String, from: Int): Int = {
    var i = from
    while (i < text.length && !isWhiteSpace(text.codePointAt(i))) i += Character.charCount(text.codePointAt(i))
    i
  }

  private def isArticle(word: String): Boolean =
    word.length <= 3 && (word.equalsIgnoreCase("a") || word.equalsIgnoreCase("an") || word.equalsIgnoreCase("the"))

  private def appendTitleCase(out: java.lang.StringBuilder, cp: Int, asciiOnly: Boolean): Unit =
    if (asciiOnly) out.appendCodePoint(if (cp >= 'a' && cp <= 'z') cp - ('a' - 'A') else cp)
    else FullTitleCase.get(cp) match {
      case Some(cps) => cps.foreach(out.appendCodePoint)
      case None => out.appendCodePoint(Character.toTitleCase(cp))
    }

  /**
   * The title case mappings of SpecialCasing.txt (unconditional) that are more than one code
   * point; every other code point's title case is Character.toTitleCase.
   */
  private val FullTitleCase: Map[Int, Array[Int]] = Map(
    0x00df -> Array(0x0053, 0x0073), 0x0149 -> Array(0x02bc, 0x004e), 0x01f0 -> Array(0x004a, 0x030c),
    0x0390 -> Array(0x0399, 0x0308, 0x0301), 0x03b0 -> Array(0x03a5, 0x0308, 0x0301), 0x0587 -> Array(0x0535, 0x0582),
    0x1e96 -> Array(0x0048, 0x0331), 0x1e97 -> Array(0x0054, 0x0308), 0x1e98 -> Array(0x0057, 0x030a),
    0x1e99 -> Array(0x0059, 0x030a), 0x1e9a -> Array(0x0041, 0x02be), 0x1f50 -> Array(0x03a5, 0x0313),
    0x1f52 -> Array(0x03a5, 0x0313, 0x0300), 0x1f54 -> Array(0x03a5, 0x0313, 0x0301),
    0x1f56 -> Array(0x03a5, 0x0313, 0x0342), 0x1fb2 -> Array(0x1fba, 0x0345), 0x1fb4 -> Array(0x0386, 0x0345),
    0x1fb6 -> Array(0x0391, 0x0342), 0x1fb7 -> Array(0x0391, 0x0342, 0x0345), 0x1fc2 -> Array(0x1fca, 0x0345),
    0x1fc4 -> Array(0x0389, 0x0345), 0x1fc6 -> Array(0x0397, 0x0342), 0x1fc7 -> Array(0x0397, 0x0342, 0x0345),
    0x1fd2 -> Array(0x0399, 0x0308, 0x0300), 0x1fd3 -> Array(0x0399, 0x0308, 0x0301),
    0x1fd6 -> Array(0x0399, 0x0342), 0x1fd7 -> Array(0x0399, 0x0308, 0x0342),
    0x1fe2 -> Array(0x03a5, 0x0308, 0x0300), 0x1fe3 -> Array(0x03a5, 0x0308, 0x0301),
    0x1fe4 -> Array(0x03a1, 0x0313), 0x1fe6 -> Array(0x03a5, 0x0342), 0x1fe7 -> Array(0x03a5, 0x0308, 0x0342),
    0x1ff2 -> Array(0x1ffa, 0x0345), 0x1ff4 -> Array(0x038f, 0x0345), 0x1ff6 -> Array(0x03a9, 0x0342),
    0x1ff7 -> Array(0x03a9, 0x0342, 0x0345), 0xfb00 -> Array(0x0046, 0x0066), 0xfb01 -> Array(0x0046, 0x0069),
    0xfb02 -> Array(0x0046, 0x006c), 0xfb03 -> Array(0x0046, 0x0066, 0x0069), 0xfb04 -> Array(0x0046, 0x0066, 0x006c),
    0xfb05 -> Array(0x0053, 0x0074), 0xfb06 -> Array(0x0053, 0x0074), 0xfb13 -> Array(0x0544, 0x0576),
    0xfb14 -> Array(0x0544, 0x0565), 0xfb15 -> Array(0x0544, 0x056b), 0xfb16 -> Array(0x054e, 0x0576),
    0xfb17 -> Array(0x0544, 0x056d))

  private def occursAt(folded: Array[Int], target: Array[Int], at: Int): Boolean = {
    var k = 0
    while (k < target.length && folded(at + k) == target(k)) k += 1
    k == target.length
  }

  private def appendCodePoints(out: java.lang.StringBuilder, cps: Array[Int], from: Int, until: Int): Unit = {
    var k = from
    while (k < until) { out.appendCodePoint(cps(k)); k += 1 }
  }
}
