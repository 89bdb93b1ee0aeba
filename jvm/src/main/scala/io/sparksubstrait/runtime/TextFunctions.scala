package io.sparksubstrait.runtime

import java.util.regex.Pattern

import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.errors.SubstraitErrors

/** Holds the static forwarders of [[TextFunctions$]] that generated code calls. */
final class TextFunctions private ()

/**
 * String functions of functions_string that Spark has no expression for, called from
 * generated code through StaticInvoke (so executors need this jar, as for [[ExactMath]]).
 * Positions and lengths count characters (code points), as Spark's string functions do.
 * NULL arguments never reach these methods: StaticInvoke returns NULL for them.
 */
object TextFunctions {

  /** Upper case letters become lower case and lower case upper; with `asciiOnly`, only A–Z and a–z. */
  def swapcase(s: UTF8String, asciiOnly: Boolean): UTF8String =
    mapCodePoints(s.toString, asciiOnly,
      cp =>
        if (Character.isUpperCase(cp) || Character.isTitleCase(cp)) Character.toLowerCase(cp)
        else if (Character.isLowerCase(cp)) Character.toUpperCase(cp)
        else cp)

  /** The first character in upper case, the rest as it is. */
  def capitalize(s: UTF8String, asciiOnly: Boolean): UTF8String = {
    val text = s.toString
    if (text.isEmpty) s
    else {
      val first = text.codePointAt(0)
      val rest = text.substring(Character.charCount(first))
      val upper = if (asciiOnly && first > 127) first else Character.toUpperCase(first)
      UTF8String.fromString(new String(Character.toChars(upper)) + rest)
    }
  }

  /**
   * `s` padded with `pad` on both sides to `length` characters; an odd amount of padding puts
   * the extra character on the left when `extraLeft`, else on the right. A string already
   * `length` long or longer is returned as it is.
   */
  def center(s: UTF8String, length: Int, pad: UTF8String, extraLeft: Boolean): UTF8String = {
    val padding = length - s.numChars()
    if (padding <= 0) s
    else {
      val left = if (extraLeft) (padding + 1) / 2 else padding / 2
      UTF8String.concat(pad.repeat(left), s, pad.repeat(padding - left))
    }
  }

  /**
   * The 1-based character position of the `occurrence`-th match of `pattern` in `s`, searching
   * from character `position`; 0 when there are fewer matches.
   */
  def regexpStrpos(s: UTF8String, pattern: UTF8String, position: Int, occurrence: Int): Long = {
    if (position < 1) throw new IllegalArgumentException(s"regexp_strpos: position $position is not positive")
    if (occurrence < 1) throw new IllegalArgumentException(s"regexp_strpos: occurrence $occurrence is not positive")
    val text = s.toString
    if (position - 1 > text.codePointCount(0, text.length)) return 0L
    val m = compiled(pattern.toString).matcher(text)
    var from = text.offsetByCodePoints(0, position - 1)
    var found = 0
    while (from <= text.length && m.find(from)) {
      found += 1
      if (found == occurrence) return text.codePointCount(0, m.start()).toLong + 1
      // After an empty match, search from the next character.
      from = if (m.end() > m.start()) m.end() else m.end() + 1
    }
    0L
  }

  /**
   * regexp_replace: the `occurrence`-th match of `pattern` (0: every match) searching from
   * character `position`, replaced by `replacement`, written in the spec's syntax
   * ([[RegexReplacement]]). Matching starts at `position` as if the string began there
   * (`^` matches there; lookbehind does not see before it), as in Spark's regexp_replace. A
   * position beyond the end leaves the string as it is; a position below 1, a negative
   * occurrence, an undefined escape or a group the pattern lacks are the domain errors the
   * spec leaves undefined, raised at `location`. `maxChars` is spark.substrait.maxStringBytes
   * (StringSizeLimit): a replacement repeated at each of many matches can grow a string past
   * any size, so the result is refused as soon as it passes the limit, before it is whole.
   */
  def regexpReplace(s: UTF8String, pattern: UTF8String, replacement: UTF8String, position: Int, occurrence: Int,
    location: UTF8String, maxChars: Long): UTF8String = {
    def undefined(detail: String) =
      SubstraitErrors.functionError("SUBSTRAIT_DOMAIN_ERROR", location.toString, "regexp_replace", detail)
    if (position < 1) throw undefined(s"position $position is not positive")
    if (occurrence < 0) throw undefined(s"occurrence $occurrence is negative")
    val rewrite = translated(replacement.toString).fold(e => throw undefined(e), identity)
    val text = s.toString
    if (position - 1 > text.codePointCount(0, text.length)) return s
    val regex = try compiled(pattern.toString)
    catch {
      case e: java.util.regex.PatternSyntaxException =>
        throw undefined(s"the pattern does not compile (${e.getDescription})")
    }
    val m = regex.matcher(text)
    if (rewrite.maxGroup > m.groupCount) {
      throw undefined(s"the replacement refers to group ${rewrite.maxGroup}; the pattern has ${m.groupCount}")
    }
    m.region(text.offsetByCodePoints(0, position - 1), text.length)
    val out = new java.lang.StringBuilder(text.length)
    var found = 0
    var replaced = false
    while ((occurrence == 0 || !replaced) && m.find()) {
      found += 1
      if (occurrence == 0 || found == occurrence) {
        m.appendReplacement(out, rewrite.replacement)
        replaced = true
        if (out.length > maxChars) throw tooLarge(location, maxChars)
      }
    }
    if (!replaced) s
    else {
      m.appendTail(out)
      if (out.length > maxChars) throw tooLarge(location, maxChars)
      UTF8String.fromString(out.toString)
    }
  }

  private def tooLarge(location: UTF8String, maxChars: Long) =
    SubstraitErrors.functionError("SUBSTRAIT_RESULT_TOO_LARGE", location.toString, "regexp_replace",
      s"a result of more than $maxChars characters, over spark.substrait.maxStringBytes")

  private def mapCodePoints(text: String, asciiOnly: Boolean, f: Int => Int): UTF8String = {
    val out = new java.lang.StringBuilder(text.length)
    var i = 0
    while (i < text.length) {
      val cp = text.codePointAt(i)
      out.appendCodePoint(if (asciiOnly && cp > 127) cp else f(cp))
      i += Character.charCount(cp)
    }
    UTF8String.fromString(out.toString)
  }

  // One translated replacement per thread, as for patterns.
  private val lastReplacement = new ThreadLocal[(String, Either[String, RegexReplacement.Java])]

  private def translated(spec: String): Either[String, RegexReplacement.Java] = {
    val last = lastReplacement.get()
    if (last != null && last._1 == spec) last._2
    else {
      val java = RegexReplacement.toJava(spec)
      lastReplacement.set((spec, java))
      java
    }
  }

  // One compiled pattern per thread: a column's pattern is almost always one constant.
  private val lastPattern = new ThreadLocal[(String, Pattern)]

  private def compiled(regex: String): Pattern = {
    val last = lastPattern.get()
    if (last != null && last._1 == regex) last._2
    else {
      val p = Pattern.compile(regex)
      lastPattern.set((regex, p))
      p
    }
  }
}
