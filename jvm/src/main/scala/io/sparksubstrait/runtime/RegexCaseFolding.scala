package io.sparksubstrait.runtime

import org.apache.spark.unsafe.types.UTF8String

/** Holds the static forwarders of [[RegexCaseFolding$]] that generated code calls. */
final class RegexCaseFolding private ()

/**
 * A pattern's case-insensitive matching made Unicode's simple case folding where Java's differs.
 *
 * Java's (?iu) compares a character with the lower case of the other's upper case. ẞ (U+1E9E)
 * has ß as its lower case, but ß has no one-character upper case, so a pattern's ß never meets
 * the input's ẞ (ẞ in the pattern does find ß). By CaseFolding.txt both fold to ß. It is the one
 * pair of the Unicode range where the two disagree (every code point tried against every other of
 * its folding class), so the pattern's ß is written as both.
 */
object RegexCaseFolding {
  private val SharpS = 'ß'
  private val CapitalSharpS = 'ẞ'

  /**
   * The pattern with every literal ß matching ẞ too: `[ßẞ]` outside a character class, both
   * characters inside one (ẞ after ß when ß ends a range, before it otherwise, so a range keeps
   * its ends). Text quoted with \Q…\E is closed around the ß and reopened. Escapes are copied.
   */
  def withCapitalSharpS(pattern: UTF8String): UTF8String = {
    val p = pattern.toString
    if (p.indexOf(SharpS) < 0) return pattern
    val out = new java.lang.StringBuilder(p.length + 8)
    var classDepth = 0
    var quoted = false
    var i = 0
    while (i < p.length) {
      val ch = p.charAt(i)
      if (quoted) {
        if (p.startsWith("\\E", i)) { quoted = false; out.append("\\E"); i += 2 }
        else if (ch == SharpS) { out.append("\\E").append(bothCases(out, classDepth)).append("\\Q"); i += 1 }
        else { out.append(ch); i += 1 }
      } else if (ch == '\\' && i + 1 < p.length) {
        if (p.charAt(i + 1) == 'Q') quoted = true
        out.append(ch).append(p.charAt(i + 1)); i += 2
      } else {
        if (ch == '[') classDepth += 1
        else if (ch == ']' && classDepth > 0) classDepth -= 1
        if (ch == SharpS) out.append(bothCases(out, classDepth)) else out.append(ch)
        i += 1
      }
    }
    UTF8String.fromString(out.toString)
  }

  private def bothCases(before: java.lang.StringBuilder, classDepth: Int): String =
    if (classDepth == 0) s"[$SharpS$CapitalSharpS]"
    else if (before.length > 0 && before.charAt(before.length - 1) == '-') s"$SharpS$CapitalSharpS"
    else s"$CapitalSharpS$SharpS"
}
