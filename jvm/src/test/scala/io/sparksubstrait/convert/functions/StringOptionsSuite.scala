package io.sparksubstrait
package convert.functions

import org.apache.spark.sql.Row

import io.sparksubstrait.errors.SubstraitFunctionException
import io.sparksubstrait.proto.{Expression, Plan, Type}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * functions_string under the options the differential run (dev/function_semantics) once found
 * refused: case_sensitivity CASE_INSENSITIVE_ASCII (A–Z folded alone, so positions stay),
 * replace without regard to case, substring's negative_start ERROR, char_set ASCII_ONLY,
 * title, a NULL string_agg separator, and like's backslash (no escape character in the YAML).
 * Rows worked out by hand, over columns (generated code) and as literals (constant folding).
 */
class StringOptionsSuite extends SparkSuite with SubstraitAssertions {
  private val Strings = "functions_string"

  /** `fn` over rows of string (and i32) columns; each row also run with every argument a literal. */
  private def values(fn: String, options: Seq[(String, Seq[String])], types: Seq[Type], rows: Seq[Seq[Expression]])
    : Seq[Any] = {
    def plan(args: Seq[Expression], table: Seq[Seq[Expression]]): Plan = {
      val pb = new PlanBuilder()
      val t = readVirtual(schema(types.zipWithIndex.map { case (ty, i) => s"c$i" -> ty }: _*), table)
      pb.plan(emit(project(t, pb.callWith(pb.fn(Strings, fn), options, None, args: _*)), types.size), "r")
    }
    val columns = run(plan(types.indices.map(field), rows)).collect().toSeq.map(_.get(0))
    val literals = rows.map(r => run(plan(r, Seq(r))).collect().head.get(0))
    assert(columns == literals, s"$fn $options: columns $columns, literals $literals")
    columns
  }

  private def strs(rows: Seq[String]*): Seq[Seq[Expression]] =
    rows.map(_.map(v => if (v == null) litNull(string()) else litString(v)))
  private val Ascii = Seq("case_sensitivity" -> Seq("CASE_INSENSITIVE_ASCII"))
  private val Insensitive = Seq("case_sensitivity" -> Seq("CASE_INSENSITIVE"))
  private val AsciiOnly = Seq("char_set" -> Seq("ASCII_ONLY"))

  test("like: every character but % and _ stands for itself, a backslash too") {
    val rows = strs(Seq("a\\b", "a\\b"), Seq("ab", "a\\b"), Seq("\\", "\\"), Seq("100%", "100\\%"),
      Seq("100\\x", "100\\%"),
      Seq("a\\", "%\\"), Seq("a.b", "a.b"), Seq("axb", "a.b"), Seq("a😀b", "a_b"), Seq("x\ny", "x_y"), Seq(null, "a"),
      Seq("a", null))
    assert(values("like:str_str", Nil, Seq(string(), string()), rows) ==
      Seq(true, false, true, false, true, true, true, false, true, true, null, null))
  }

  test("case_sensitivity CASE_INSENSITIVE_ASCII folds A-Z alone, keeping every position") {
    val two = Seq(string(), string())
    val likeRows = strs(Seq("ABC", "a%"), Seq("ÄBC", "ä%"), Seq("İstanbul", "i%"), Seq("A\\B", "a\\b"),
      Seq("abc", "A_C"), Seq("ß", "SS"))
    assert(values("like:str_str", Ascii, two, likeRows) == Seq(true, false, false, true, true, false))
    val cmp = strs(Seq("ÀABC", "abc"), Seq("😀ABC", "bc"), Seq("STRASSE", "ß"), Seq("xyz", ""), Seq("ÉCOLE", "école"),
      Seq(null, "a"))
    // À and É are not ASCII: "ÀABC" folds to "Àabc", where abc begins at 2.
    assert(values("strpos:str_str", Ascii, two, cmp) == Seq(2L, 3L, 0L, 1L, 0L, null))
    assert(values("contains:str_str", Ascii, two, cmp) == Seq(true, true, false, true, false, null))
    assert(values("starts_with:str_str", Ascii, two, cmp) == Seq(false, false, false, true, false, null))
    assert(values("ends_with:str_str", Ascii, two, cmp) == Seq(true, true, false, true, false, null))
    val counts = strs(Seq("ABab😀AB", "ab"), Seq("AAAA", "aa"), Seq("ÀàAa", "a"), Seq("abc", "x"))
    assert(values("count_substring:str_str", Ascii, two, counts) == Seq(3L, 2L, 2L, 0L))
  }

  test("replace without regard to case: simple case folding (CASE_INSENSITIVE) or A-Z alone (CASE_INSENSITIVE_ASCII)") {
    val three = Seq(string(), string(), string())
    val rows = strs(Seq("aBc ABC", "b", "x"), Seq("STRASSE straße ẞ", "ß", "-"), Seq("İi", "i", "x"),
      Seq("ΣΑΣ σας", "σ", "s"),
      Seq("ÀàAa", "a", "x"), Seq("abc", "B", "$1"), Seq("aaaa", "AA", "b"), Seq("abc", "", "x"),
      Seq("a😀A😀", "😀a", "!"),
      Seq(null, "a", "x"), Seq("a", null, "x"), Seq("a", "a", null))
    // ß matches ß and ẞ but not SS (one character for one); İ is no i; Σ, σ and ς fold alike.
    assert(values("replace:str_str_str", Insensitive, three, rows) ==
      Seq("axc AxC", "STRASSE stra-e -", "İx", "sΑs sαs", "Ààxx", "a$1c", "bb", "abc", "a!😀", null, null, null))
    assert(values("replace:str_str_str", Ascii, three, rows) ==
      Seq("axc AxC", "STRASSE stra-e ẞ", "İx", "ΣΑΣ sας", "Ààxx", "a$1c", "bb", "abc", "a!😀", null, null, null))
  }

  test("substring with negative_start ERROR raises a domain error for a negative start only") {
    val types = Seq(string(), i32(), i32())
    def row(s: String, start: Int, length: Int) = Seq(litString(s), litI32(start), litI32(length))
    val error = Seq("negative_start" -> Seq("ERROR"))
    assert(values("substring:str_i32_i32", error, types,
      Seq(row("abcdef", 2, 3), row("a😀b", 2, 5), row("abc", 4, 1),
        Seq(litString("abc"), litNull(i32()), litI32(1)))) ==
      Seq("bcd", "😀b", "", null))
    for (args <- Seq(Seq(field(0), field(1), field(2)), Seq(litString("abcdef"), litI32(-2), litI32(2)))) {
      val pb = new PlanBuilder()
      val t = readVirtual(schema("s" -> string(), "start" -> i32(), "n" -> i32()), Seq(row("abcdef", -2, 2)))
      val e = intercept[Exception](run(pb.plan(emit(project(t,
                pb.callWith(pb.fn(Strings, "substring:str_i32_i32"), error, None, args: _*)), 3), "r")).collect())
      val f = causes(e).collectFirst {
        case f: SubstraitFunctionException => f
      }
      assert(f.exists(_.getCondition == "SUBSTRAIT_DOMAIN_ERROR"), e.toString)
    }
  }

  test("substring with a start at i32 MIN: before the string under every negative_start") {
    val types = Seq(string(), i32(), i32())
    val min = Int.MinValue
    def row(start: Int, length: Int) = Seq(litString("abcdefg"), litI32(start), litI32(length))
    val rows = Seq(row(min, 5), row(min, Int.MaxValue), row(-8, 3), row(-3, 2), row(min + 1, Int.MaxValue))
    // WRAP_FROM_END: -8 is one before 'a' and counts towards the length (Spark's reading);
    // MIN + MAX ends at -1, one short of the last character.
    assert(values("substring:str_i32_i32", Seq("negative_start" -> Seq("WRAP_FROM_END")), types, rows) ==
      Seq("", "abcdef", "ab", "ef", "abcdefg"))
    // LEFT_OF_BEGINNING: positions before 1 count towards the length and yield nothing.
    assert(values("substring:str_i32_i32", Seq("negative_start" -> Seq("LEFT_OF_BEGINNING")), types, rows) ==
      Seq("", "", "", "", ""))
    // Without a length: to the end, however far left the start is.
    val two = Seq(string(), i32())
    val starts = Seq(min, -8, -7, -3, 0, 3, 8).map(st => Seq(litString("abcdefg"), litI32(st))) :+
      Seq(litString("abc"), litNull(i32()))
    assert(values("substring:str_i32", Seq("negative_start" -> Seq("WRAP_FROM_END")), two, starts) ==
      Seq("abcdefg", "abcdefg", "abcdefg", "efg", "abcdefg", "cdefg", "", null))
    assert(values("substring:str_i32", Seq("negative_start" -> Seq("LEFT_OF_BEGINNING")), two, starts) ==
      Seq("abcdefg", "abcdefg", "abcdefg", "abcdefg", "abcdefg", "cdefg", "", null))
  }

  test("regular expressions under CASE_INSENSITIVE: a pattern's ß finds ẞ, in a class and quoted too") {
    val two = Seq(string(), string())
    val rows = strs(Seq("Straẞe straße STRASSE", "ß"), Seq("ẞß", "[ß]+"), Seq("ẞa", "\\Qß\\E"), Seq("ẞ", "[a-ß]"),
      Seq("ẞ", "[ß-ÿ]"), Seq("ß", "ẞ"), Seq("ss", "ß"), Seq("ẞ", "ß"))
    assert(values("regexp_count_substring:str_str", Insensitive, two, rows) == Seq(2L, 1L, 1L, 1L, 1L, 1L, 0L, 1L))
    // Case-sensitive, ß and ẞ are two characters.
    assert(values("regexp_count_substring:str_str", Nil, two, rows) == Seq(1L, 1L, 0L, 0L, 0L, 0L, 0L, 0L))
    val found = strs(Seq("Straẞe straße", "s?ß"))
    assert(values("regexp_match_substring_all:str_str", Insensitive, two, found) == Seq(Seq("ẞ", "ß")))
  }

  test("char_set ASCII_ONLY changes A-Z and a-z alone") {
    val one = Seq(string())
    val rows = strs(Seq("ÀBC déF ß"), Seq("hello wORLD àb ÉCOLE"), Seq("a\tb\u00a0c"), Seq(""), Seq(null))
    assert(values("lower:str", AsciiOnly, one, rows) ==
      Seq("Àbc déf ß", "hello world àb École", "a\tb\u00a0c", "", null))
    assert(values("upper:str", AsciiOnly, one, rows) ==
      Seq("ÀBC DéF ß", "HELLO WORLD àB ÉCOLE", "A\tB\u00a0C", "", null))
    // Words split at white space (the no-break space too); a first letter beyond ASCII stays.
    assert(values("initcap:str", AsciiOnly, one, rows) ==
      Seq("Àbc Déf ß", "Hello World àb École", "A\tB\u00a0C", "", null))
  }

  test("title capitalizes each word's first character except in the articles a, an and the") {
    val one = Seq(string())
    val rows = strs(Seq("the cat and a dog"), Seq("A tale of THE city"), Seq("ßa ǆx ﬁne éa"), Seq("an  AN\tx"), Seq(""),
      Seq(null))
    // Unicode's full title case: ß → Ss, ﬁ → Fi; ǆ → ǅ; the rest of each word as it is.
    assert(values("title:str", Nil, one, rows) ==
      Seq("the Cat And a Dog", "A Tale Of THE City", "Ssa ǅx Fine Éa", "an  AN\tX", "", null))
    assert(values("title:str", AsciiOnly, one, rows) ==
      Seq("the Cat And a Dog", "A Tale Of THE City", "ßa ǆx ﬁne éa", "an  AN\tX", "", null))
  }

  test("regular expressions take ICU's Unicode classes; CASE_INSENSITIVE_ASCII folds A-Z alone") {
    val two = Seq(string(), string())
    val rows = strs(Seq("straße ΣΑΣ", "\\w+"), Seq("x\u0663y 42", "\\d+"), Seq("a\u00a0b c", "\\s"), Seq("éÉ e", "\\b"),
      Seq("aAéÉ", "a"), Seq("aAéÉ", "é"))
    // \w takes ß and Greek, \d the Arabic-Indic three, \s the no-break space; \b bounds two words (4 places).
    assert(values("regexp_count_substring:str_str", Nil, two, rows) == Seq(2L, 2L, 2L, 4L, 1L, 1L))
    assert(values("regexp_count_substring:str_str", Insensitive, two, rows) == Seq(2L, 2L, 2L, 4L, 2L, 2L))
    assert(values("regexp_count_substring:str_str", Ascii, two, rows) == Seq(2L, 2L, 2L, 4L, 2L, 1L))
  }

  test("string_agg with a NULL separator is NULL for every group (MIRROR)") {
    val pb = new PlanBuilder()
    val rows = Seq(Seq(litI32(1), litString("a")), Seq(litI32(1), litString("b")), Seq(litI32(2), litNull(string())))
    val m = pb.measure(pb.fn(Strings, "string_agg:str_str"), Seq(field(1), litNull(string())))
    val plan =
      pb.plan(aggregate(readVirtual(schema("g" -> i32(), "s" -> string()), rows), Seq(field(0)), Seq(m)), "g", "r")
    assertRows(run(plan), Seq(Row(1, null), Row(2, null)))
    val sep = new PlanBuilder()
    val joined = sep.measure(sep.fn(Strings, "string_agg:str_str"), Seq(field(1), litString(",")),
      sorts = Seq(field(1) -> io.sparksubstrait.proto.SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST))
    assertRows(run(sep.plan(aggregate(readVirtual(schema("g" -> i32(), "s" -> string()), rows), Seq(field(0)),
            Seq(joined)), "g", "r")),
      Seq(Row(1, "a,b"), Row(2, null)))
  }

  test("positions under CASE_INSENSITIVE are the text's: İ folds to itself, one code point for one") {
    // Spark's lower case of İ is two characters (i and a combining dot), which would shift b to 7.
    val rows = strs(Seq("İstanbul", "b"), Seq("STRASSE ẞ", "ß"), Seq("Ab", "B"), Seq(null, "b"))
    assert(values("strpos:str_str", Insensitive, Seq(string(), string()), rows) == Seq(6L, 9L, 2L, null))
  }

  test(
    "i64 counts and positions beyond int: repeat beyond a string's size is an error, replace_slice beyond the string is NULL") {
    val big = litI64(Int.MaxValue.toLong + 1)
    assert(values("repeat:str_i64", Nil, Seq(string(), i64()),
      Seq(Seq(litString(""), litI64(3)), Seq(litString("ab"), litI64(2)),
        Seq(litString(""), big), Seq(litString(""), litI64(Long.MaxValue)), Seq(litString(""), litNull(i64())),
        Seq(litNull(string()), big), Seq(litString("ab"), litI64(-1)))) == Seq("", "abab", "", "", null, null, ""))
    // 2 bytes 2^31 times is beyond spark.substrait.maxStringBytes: refused before Spark allocates it.
    val huge = intercept[Exception](values("repeat:str_i64", Nil, Seq(string(), i64()), Seq(Seq(litString("ab"), big))))
    assert(causes(huge)
        .exists(_.getMessage.contains("SUBSTRAIT_RESULT_TOO_LARGE")), huge)
    val slices = Seq(Seq(litString("abc"), big, litI64(1), litString("X")),
      Seq(litString("abc"), litI64(2), big, litString("X")),
      Seq(litString("abc"), litI64(2), litI64(-1), litString("X")))
    assert(values("replace_slice:str_i64_i64_str", Nil, Seq(string(), i64(), i64(), string()), slices) ==
      Seq(null, "aX", null))
  }
}
