package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.types._

import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.FunctionCatalog.{AggregateEntry, ScalarEntry}

/**
 * functions_string: Substrait's string functions as Catalyst string expressions. varchar
 * and fixedchar arguments arrive as Spark strings. Regular expressions are Java's (Spark's
 * own); the spec's regex options become inline flags.
 */
private[functions] object StringFunctions {
  private val Strings = Set("functions_string")

  /**
   * string_agg: the non-NULL values joined by the separator in the plan's order (sort fields on
   * the measure), NULL when there are none: Spark 4's listagg; on Spark 3.5 collect_list sorted
   * and joined (the shims). The spec's sort is not stable, so rows tying on every sort field may
   * come in any order; we order them by the value itself (ascending) on every Spark, so the
   * string depends on the group's rows alone, never on the order they reach the aggregate.
   */
  val aggregateEntries: Seq[AggregateEntry] = Seq(
    AggregateEntry("string_agg", Strings,
      c => {
        val (value, separator, order) = stringAgg(c)
        if (!separator.foldable) {
          throw SubstraitErrors.unsupported(c.at.at("arguments", 1), "a separator that is not a constant string",
            "a constant separator (the spec declares it constant)")
        }
        SparkShim.stringAgg(value, joinWith(separator), order)
      },
      // The YAML declares no nullability (MIRROR): a NULL separator makes the result NULL.
      finish = (c, result) => {
        val (value, separator, order) = stringAgg(c)
        if (separator.foldable && nullSeparator(separator)) Literal(null, StringType)
        else SparkShim.stringAggResult(result, value, joinWith(separator), order)
      }))

  /**
   * string_agg's value, separator and order: the sort fields, a repeated key left out (it
   * cannot change the order), then the value itself unless it is a key already (the tie-break
   * above; with DISTINCT the keys are the value).
   */
  private def stringAgg(c: FunctionCall): (Expression, Expression, Seq[SortOrder]) = {
    c.expectArity(2)
    val Seq(value, separator) = strings(c, c.args)
    val keys = c.ordering.foldLeft(Seq.empty[SortOrder]) { (seen, o) =>
      if (seen.exists(_.child.semanticEquals(o.child))) seen else seen :+ o
    }
    val order = if (keys.isEmpty || keys.exists(_.child.semanticEquals(value))) keys
    else keys :+ SortOrder(value, Ascending)
    (value, separator, order)
  }

  private def nullSeparator(separator: Expression): Boolean = separator.eval() == null

  /** A NULL separator: the aggregate joins with '' and `finish` makes every group's result NULL. */
  private def joinWith(separator: Expression): Expression =
    if (separator.foldable && nullSeparator(separator)) Literal("") else separator

  val entries: Seq[ScalarEntry] = Seq(
    ScalarEntry("concat", Strings,
      c => {
        c.expectAtLeast(1)
        val args = strings(c, c.args)
        // ACCEPT_NULLS: NULL if any argument is; IGNORE_NULLS: NULLs are skipped (concat_ws does that).
        val ignore = c.option("null_handling", Map("ACCEPT_NULLS" -> false, "IGNORE_NULLS" -> true)).getOrElse(false)
        if (ignore) ConcatWs(Literal("") +: args) else Concat(args)
      }),
    ScalarEntry("concat_ws", Strings, c => { c.expectAtLeast(2); ConcatWs(strings(c, c.args)) }),
    ScalarEntry("like", Strings,
      c => {
        if (c.args.size != 2 && c.args.size != 3) c.wrongArguments("a string and a pattern (and an escape character)")
        val Seq(s, p) = strings(c, c.args.take(2))
        // The YAML's like names no escape character: every character but % and _ stands for
        // itself, a backslash too, so it is doubled for Spark's backslash escape. A third
        // argument (DataFusion's ESCAPE) keeps its escape.
        val (pattern, escape) = c.args.lift(2).map(e => (p, likeEscape(c, e))).getOrElse((literalBackslashes(p), '\\'))
        caseSensitivity(c) match {
          case CaseSensitive => Like(s, pattern, escape)
          case CaseInsensitive => new ILike(s, pattern, escape)
          // % and _ are not letters; the escape character folds with the pattern.
          case CaseInsensitiveAscii => Like(foldAscii(s), foldAscii(pattern), lowerAscii(escape))
        }
      }),
    ScalarEntry("contains", Strings, c => caseAware(c)(Contains(_, _))),
    ScalarEntry("starts_with", Strings, c => caseAware(c)(StartsWith(_, _))),
    ScalarEntry("ends_with", Strings, c => caseAware(c)(EndsWith(_, _))),
    // Positions and lengths are i64 in the YAML; Spark's are int.
    ScalarEntry("strpos", Strings, c => caseAware(c)((s, sub) => Cast(new StringLocate(sub, s), LongType))),
    ScalarEntry("substring", Strings, substring),
    ScalarEntry("left", Strings, c => { c.expectArity(2); Left(string(c, 0), int(c.arg(1))) }),
    ScalarEntry("right", Strings, c => { c.expectArity(2); Right(string(c, 0), int(c.arg(1))) }),
    ScalarEntry("lower", Strings,
      c => { c.expectArity(1); if (isAsciiOnly(c)) foldAscii(string(c, 0)) else Lower(string(c, 0)) }),
    ScalarEntry("upper", Strings,
      c => {
        c.expectArity(1)
        if (isAsciiOnly(c)) StringTranslate(string(c, 0), Literal(AsciiLower), Literal(AsciiUpper))
        else Upper(string(c, 0))
      }),
    ScalarEntry("initcap", Strings,
      c => {
        c.expectArity(1)
        if (isAsciiOnly(c)) caseText("initcapAscii", StringType, string(c, 0)) else InitCap(string(c, 0))
      }),
    ScalarEntry("title", Strings, c => { c.expectArity(1); caseText("title", StringType, string(c, 0), asciiOnly(c)) }),
    ScalarEntry("char_length", Strings, c => { c.expectArity(1); Cast(Length(string(c, 0)), LongType) }),
    ScalarEntry("octet_length", Strings, c => { c.expectArity(1); Cast(OctetLength(string(c, 0)), LongType) }),
    ScalarEntry("bit_length", Strings, c => { c.expectArity(1); Cast(BitLength(string(c, 0)), LongType) }),
    ScalarEntry("reverse", Strings, c => { c.expectArity(1); Reverse(string(c, 0)) }),
    ScalarEntry("repeat", Strings,
      c => {
        c.expectArity(2)
        // A result over spark.substrait.maxStringBytes is refused before Spark allocates it
        // (StringSizeLimit; the limit is below int, so the count then fits Spark's int). '' repeated
        // any number of times is '' (the count may be beyond int), never handed to Spark's repeat.
        val s = string(c, 0)
        val count = Cast(c.arg(1), LongType)
        val bytes = Cast(OctetLength(s), LongType)
        val limit = StringSizeLimit.maxBytes(c.ctx.conf)
        // And evaluates its right side only for a non-empty string (no division by zero).
        val tooLarge = And(GreaterThan(bytes, Literal(0L)), GreaterThan(count, IntegralDivide(Literal(limit), bytes)))
        If(EqualTo(bytes, Literal(0L)), If(IsNull(count), Literal(null, StringType), Literal("")),
          StringSizeLimit.guard(c, tooLarge, s"more than $limit bytes, over ${StringSizeLimit.Key}")(
            StringRepeat(s, int(c.arg(1)))))
      }),
    ScalarEntry("replace", Strings,
      c => {
        c.expectArity(3)
        val Seq(s, from, to) = strings(c, c.args)
        def replaced(by: Expression) = caseSensitivity(c) match {
          case CaseSensitive => StringReplace(s, from, by)
          case mode => caseText("replace", StringType, s, from, by, Literal(mode == CaseInsensitiveAscii))
        }
        StringSizeLimit.replacementGuard(c, s, from, to, replaced(Literal("")))(replaced(to))
      }),
    // The target length sets the result's size: bounded by spark.substrait.maxStringBytes.
    ScalarEntry("lpad", Strings,
      c => {
        c.expectArity(3)
        StringSizeLimit.lengthGuard(c, Cast(c.arg(1), LongType))(StringLPad(string(c, 0), int(c.arg(1)), string(c, 2)))
      }),
    ScalarEntry("rpad", Strings,
      c => {
        c.expectArity(3)
        StringSizeLimit.lengthGuard(c, Cast(c.arg(1), LongType))(StringRPad(string(c, 0), int(c.arg(1)), string(c, 2)))
      }),
    trim("trim")(StringTrim(_, _)), trim("ltrim")(StringTrimLeft(_, _)), trim("rtrim")(StringTrimRight(_, _)),
    ScalarEntry("string_split", Strings,
      c => {
        c.expectArity(2)
        val Seq(s, sep) = strings(c, c.args)
        // A NULL separator does not split: the whole string is the one element.
        If(IsNull(sep), If(IsNull(s), Literal(null, ArrayType(StringType)), CreateArray(Seq(s))),
          StringSplitSQL(s, sep))
      }),
    ScalarEntry("regexp_string_split", Strings,
      c => {
        c.expectArity(2)
        StringSplit(string(c, 0), pattern(c, string(c, 1)), Literal(-1))
      }),
    // The replacement is in the spec's syntax (\1 a group, $ itself): RegexReplacement.
    ScalarEntry("regexp_replace", Strings,
      c => {
        if (c.args.size != 3 && c.args.size != 5) c.wrongArguments("3 or 5 arguments")
        val Seq(s, p, rep) = strings(c, c.args.take(3))
        RegexReplacements.checkLiterals(c, p, rep)
        val Seq(position, occurrence) = Seq(3 -> 1, 4 -> 0).map { case (i, default) =>
          c.args.lift(i).map(int).getOrElse(Literal(default))
        }
        text("regexpReplace", StringType, s, pattern(c, p), rep, position, occurrence, Literal(c.at.toString),
          Literal(StringSizeLimit.maxBytes(c.ctx.conf)))
      }),
    ScalarEntry("regexp_match_substring", Strings,
      c => {
        if (c.args.size != 2 && c.args.size != 5) c.wrongArguments("2 or 5 arguments")
        val Seq(s, p) = strings(c, c.args.take(2))
        val Seq(position, occurrence, group) = (2 to 4).map(i =>
          c.args.lift(i).map(int).getOrElse(Literal(if (i == 4) 0 else 1)))
        // The occurrence-th match (from `position`) or NULL when there are fewer.
        GetArrayItem(RegExpExtractAll(fromPosition(c, s, position), pattern(c, p), group),
          Subtract(occurrence, Literal(1)), failOnError = false)
      }),
    ScalarEntry("regexp_match_substring_all", Strings,
      c => {
        if (c.args.size != 2 && c.args.size != 4) c.wrongArguments("2 or 4 arguments")
        val Seq(s, p) = strings(c, c.args.take(2))
        val position = c.args.lift(2).map(int).getOrElse(Literal(1))
        val group = c.args.lift(3).map(int).getOrElse(Literal(0))
        RegExpExtractAll(fromPosition(c, s, position), pattern(c, p), group)
      }),
    ScalarEntry("regexp_strpos", Strings,
      c => {
        if (c.args.size != 2 && c.args.size != 4) c.wrongArguments("2 or 4 arguments")
        val Seq(s, p) = strings(c, c.args.take(2))
        val Seq(position, occurrence) = (2 to 3).map(i => c.args.lift(i).map(int).getOrElse(Literal(1)))
        text("regexpStrpos", LongType, s, pattern(c, p), position, occurrence)
      }),
    ScalarEntry("count_substring", Strings,
      c => {
        c.expectArity(2)
        val fold = folding(c)
        val Seq(s, sub) = strings(c, c.args).map(fold)
        // Non-overlapping occurrences, left to right: what replacing them all removes. An empty
        // substring (undefined by the spec) counts NULL rather than a guess.
        val removed = Subtract(Length(s), Length(StringReplace(s, sub, Literal(""))))
        If(EqualTo(Length(sub), Literal(0)), Literal(null, LongType),
          IntegralDivide(Cast(removed, LongType), Cast(Length(sub), LongType)))
      }),
    ScalarEntry("replace_slice", Strings,
      c => {
        c.expectArity(4)
        val s = string(c, 0)
        // Compared as longs: an i64 start beyond int is outside; a length beyond the string deletes
        // to its end (clamped to the string's length: Spark 3.5's overlay overflows start + length).
        val Seq(start, length) = Seq(Cast(c.arg(1), LongType), Cast(c.arg(2), LongType))
        // A start outside the string or a negative length gives NULL, as the spec says.
        val outside = Or(Or(LessThan(start, Literal(1L)), GreaterThan(start, Cast(Length(s), LongType))),
          LessThan(length, Literal(0L)))
        If(outside, Literal(null, StringType),
          Overlay(s, string(c, 3), Cast(start, IntegerType),
            Cast(If(GreaterThan(length, Cast(Length(s), LongType)), Cast(Length(s), LongType), length), IntegerType)))
      }),
    ScalarEntry("swapcase", Strings,
      c => { c.expectArity(1); text("swapcase", StringType, string(c, 0), asciiOnly(c)) }),
    ScalarEntry("capitalize", Strings,
      c => { c.expectArity(1); text("capitalize", StringType, string(c, 0), asciiOnly(c)) }),
    ScalarEntry("center", Strings,
      c => {
        c.expectArity(3)
        val extraLeft = c.option("padding", Map("RIGHT" -> false, "LEFT" -> true)).getOrElse(false)
        StringSizeLimit.lengthGuard(c, Cast(c.arg(1), LongType))(
          text("center", StringType, string(c, 0), int(c.arg(1)), string(c, 2), Literal(extraLeft)))
      }),
    ScalarEntry("regexp_count_substring", Strings,
      c => {
        if (c.args.size != 2 && c.args.size != 3) c.wrongArguments("2 or 3 arguments")
        val Seq(s, p) = strings(c, c.args.take(2))
        val position = c.args.lift(2).map(int).getOrElse(Literal(1))
        Cast(RegExpCount(fromPosition(c, s, position), pattern(c, p)), LongType)
      })
  )

  private def trim(name: String)(f: (Expression, Expression) => Expression): ScalarEntry = ScalarEntry(name, Strings,
    c => {
      if (c.args.size != 1 && c.args.size != 2) c.wrongArguments("1 or 2 arguments")
      // spaces_only:FALSE (the characters given are trimmed) is what Spark's trim does.
      c.option("spaces_only", Map("FALSE" -> ()))
      val s = string(c, 0)
      f(s, if (c.args.size == 2) string(c, 1) else Literal(" "))
    })

  /** substring(s, start, length) with the spec's negative_start choices. */
  private def substring(c: FunctionCall): Expression = {
    if (c.args.size != 2 && c.args.size != 3) c.wrongArguments("2 or 3 arguments")
    val s = string(c, 0)
    val start = int(c.arg(1))
    val length = c.args.lift(2).map(int)
    val fromStart = (from: Expression) => length.map(Substring(s, from, _)).getOrElse(new Substring(s, from))
    c.option("negative_start", Map("WRAP_FROM_END" -> "wrap", "LEFT_OF_BEGINNING" -> "left", "ERROR" -> "error"))
      .getOrElse("wrap") match {
      // Spark's own: a negative start counts from the end. Without a length Spark reads up to
      // Int.MaxValue characters from the start, so a start before -length(s) would end short of the
      // string's end (start + Int.MaxValue): any such start is the whole string, as -length(s) is.
      case "wrap" => fromStart(if (length.isEmpty) atLeastMinusLength(s, start) else start)
      // A negative start is the domain error the option asks for; others are as WRAP_FROM_END's.
      case "error" =>
        If(LessThan(start, Literal(0)),
          FunctionErrors.domain(c, "negative_start ERROR: the start is negative", StringType),
          fromStart(start))
      case _ =>
        // Positions before the first character count towards the length but yield nothing.
        val from = If(LessThan(start, Literal(1)), Literal(1), start)
        length match {
          case None => new Substring(s, from)
          case Some(len) =>
            // In longs: length + start - 1 overflows int for a start near i32 MIN.
            val (longStart, longLen) = (Cast(start, LongType), Cast(len, LongType))
            val shortened = If(LessThan(start, Literal(1)), Add(longLen, Subtract(longStart, Literal(1L))), longLen)
            Substring(s, from, Cast(If(LessThan(shortened, Literal(0L)), Literal(0L), shortened), IntegerType))
        }
    }
  }

  /** `start`, or -length(s) when it is further left (a NULL start stays NULL). */
  private def atLeastMinusLength(s: Expression, start: Expression): Expression = {
    val minusLength = UnaryMinus(Length(s))
    If(LessThan(start, minusLength), minusLength, start)
  }

  /** The string from character `position` (1-based) on. */
  private def fromPosition(c: FunctionCall, s: Expression, position: Expression): Expression = position match {
    case Literal(1, IntegerType) => s
    case p => new Substring(s, p)
  }

  private def caseAware(c: FunctionCall)(f: (Expression, Expression) => Expression): Expression = {
    c.expectArity(2)
    val fold = folding(c)
    val Seq(s, t) = strings(c, c.args)
    f(fold(s), fold(t))
  }

  private sealed trait CaseSensitivity
  private case object CaseSensitive extends CaseSensitivity
  private case object CaseInsensitive extends CaseSensitivity
  private case object CaseInsensitiveAscii extends CaseSensitivity

  /** case_sensitivity; unset, the session's behaviour: case-sensitive. */
  private def caseSensitivity(c: FunctionCall): CaseSensitivity = c.option("case_sensitivity",
    Map(
      "CASE_SENSITIVE" -> CaseSensitive, "CASE_INSENSITIVE" -> CaseInsensitive,
      "CASE_INSENSITIVE_ASCII" -> CaseInsensitiveAscii)).getOrElse(CaseSensitive)

  /**
   * What both sides of a comparison go through: nothing, Unicode's simple case folding one code
   * point for one ([[io.sparksubstrait.runtime.CaseMapping.fold]]), or A–Z to a–z alone; both
   * keep every position.
   */
  private def folding(c: FunctionCall): Expression => Expression = caseSensitivity(c) match {
    case CaseSensitive => identity
    case CaseInsensitive => e => caseText("fold", StringType, e)
    case CaseInsensitiveAscii => foldAscii
  }

  private val AsciiUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
  private val AsciiLower = "abcdefghijklmnopqrstuvwxyz"

  /** A–Z to a–z, no other character changed; a constant is folded here. */
  private def foldAscii(e: Expression): Expression = e match {
    case Literal(null, _) => e
    case Literal(v, t: StringType) => Literal.create(v.toString.map(lowerAscii), t)
    case _ => StringTranslate(e, Literal(AsciiUpper), Literal(AsciiLower))
  }
  private def lowerAscii(ch: Char): Char = if (ch >= 'A' && ch <= 'Z') (ch + ('a' - 'A')).toChar else ch

  /** A like pattern with every backslash doubled: a literal backslash under Spark's backslash escape. */
  private def literalBackslashes(p: Expression): Expression = p match {
    case Literal(null, _) => p
    case Literal(v, t: StringType) =>
      if (v.toString.contains('\\')) Literal.create(v.toString.replace("\\", "\\\\"), t) else p
    case _ => StringReplace(p, Literal("\\"), Literal("\\\\"))
  }

  /** char_set ASCII_ONLY (A–Z and a–z alone change); UTF8 (every letter) is the default. */
  private def isAsciiOnly(c: FunctionCall): Boolean = {
    c.option("full_unicode", Map("TRUE" -> ()))
    c.option("char_set", Map("UTF8" -> false, "ASCII_ONLY" -> true)).getOrElse(false)
  }

  /**
   * The escape character of like's third argument (DataFusion writes one): a one-character
   * literal, or a NULL literal for LIKE without ESCAPE, whose escape is the backslash there
   * as in Spark.
   */
  private def likeEscape(c: FunctionCall, e: Expression): Char = e match {
    case Literal(null, _) => '\\'
    case Literal(v, _: StringType) if v.toString.length == 1 => v.toString.charAt(0)
    case other => c.wrongArguments(s"a one-character literal escape, not ${other.sql}")
  }

  /** char_set: UTF8 (every letter, the default) or ASCII_ONLY, as a literal for the runtime. */
  private def asciiOnly(c: FunctionCall): Expression =
    Literal(c.option("char_set", Map("UTF8" -> false, "ASCII_ONLY" -> true)).getOrElse(false))

  /** A call of [[io.sparksubstrait.runtime.CaseMapping]]: case mappings Spark lacks. */
  private def caseText(method: String, result: DataType, args: Expression*): Expression =
    StaticInvoke(classOf[io.sparksubstrait.runtime.CaseMapping], result, method, args)

  /** A call of [[io.sparksubstrait.runtime.TextFunctions]]: string functions Spark lacks. */
  private def text(method: String, result: DataType, args: Expression*): Expression =
    StaticInvoke(classOf[io.sparksubstrait.runtime.TextFunctions], result, method, args)

  /**
   * The pattern with the requested regex options as inline flags, after U: ICU's \\w, \\d, \\s
   * and \\b (the syntax the YAML names) are Unicode's, Java's ASCII's unless
   * UNICODE_CHARACTER_CLASS. U also turns on Unicode case folding, which CASE_INSENSITIVE_ASCII
   * turns off again (-u): then (?i) folds A-Z alone. Under CASE_INSENSITIVE the pattern's ß also
   * matches ẞ, which Java's folding misses ([[io.sparksubstrait.runtime.RegexCaseFolding]]).
   */
  private def pattern(c: FunctionCall, p: Expression): Expression = {
    // (flags turned on, flags turned off)
    val flags: Seq[(String, String)] = Seq(
      Some("U" -> ""),
      c.option("case_sensitivity",
        Map("CASE_SENSITIVE" -> ("" -> ""), "CASE_INSENSITIVE" -> ("i" -> ""),
          "CASE_INSENSITIVE_ASCII" -> ("i" -> "u"))),
      c.option("multiline", Map("MULTILINE_DISABLED" -> ("" -> ""), "MULTILINE_ENABLED" -> ("m" -> ""))),
      c.option("dotall", Map("DOTALL_DISABLED" -> ("" -> ""), "DOTALL_ENABLED" -> ("s" -> ""))),
      // Java regular expressions have lookahead and lookbehind.
      c.option("lookaround", Map("TRUE" -> ("" -> "")))
    ).flatten
    val (on, off) = (flags.map(_._1).mkString, flags.map(_._2).mkString)
    // No match starts inside a surrogate pair: after an empty match Java steps one UTF-16 unit,
    // ICU one code point (x* finds 3 empty matches in one emoji, not 2). The group keeps the
    // guard on every alternative (a pattern ending in an open \Q quote no longer compiles: an
    // error, never a wrong match).
    val folded = if (caseSensitivity(c) == CaseInsensitive)
      StaticInvoke(classOf[io.sparksubstrait.runtime.RegexCaseFolding], StringType, "withCapitalSharpS", Seq(p))
    else p
    Concat(Seq(Literal(s"(?$on${if (off.isEmpty) "" else "-" + off})(?![\\uDC00-\\uDFFF])(?:"), folded, Literal(")")))
  }

  private def isString(t: DataType) = t.isInstanceOf[StringType] || t == NullType
  private def string(c: FunctionCall, i: Int): Expression = strings(c, Seq(c.arg(i))).head
  private def strings(c: FunctionCall, args: Seq[Expression]): Seq[Expression] = {
    if (!args.forall(a => isString(a.dataType))) c.wrongArguments("string arguments")
    args.map(a => if (a.dataType == NullType) Cast(a, StringType) else a)
  }

  /** Counts and positions: Spark takes them as int. */
  private def int(e: Expression): Expression = e.dataType match {
    case IntegerType => e
    case ByteType | ShortType | LongType | NullType => Cast(e, IntegerType, None, EvalMode.ANSI)
    case _ => e
  }
}
