package io.sparksubstrait
package convert.functions

import org.apache.spark.sql.Row

import io.sparksubstrait.errors.SubstraitFunctionException
import io.sparksubstrait.proto.{Expression, Plan}
import io.sparksubstrait.runtime.RegexReplacement
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * regexp_replace: the replacement in the spec's syntax (\1 a group, \\ a backslash, $ itself),
 * occurrence and position, NULLs, and what the spec leaves undefined. The values were worked
 * out by hand; tests/test_function_producers.py compares the same strings with DuckDB's results.
 */
class RegexpReplaceSuite extends SparkSuite with SubstraitAssertions {
  private val At = "relations[0].root.input.project.expressions[0].scalar_function"

  test("the replacement syntax in Java's: groups, escaped backslashes, literal dollars and digits") {
    def java(s: String) = RegexReplacement.toJava(s).map(_.replacement)
    assert(java("\\1e") == Right("$1e"))
    assert(java("\\0\\0") == Right("$0$0"))
    assert(java("\\10") == Right("$1\\0"), "group 1, then a literal 0 (Java would read $10 as group 10)")
    assert(java("$1") == Right("\\$\\1"))
    assert(java("a\\\\b") == Right("a\\\\b"))
    assert(java("") == Right(""))
    assert(RegexReplacement.toJava("\\2-\\1").map(_.maxGroup) == Right(2))
    assert(java("\\x").isLeft && java("abc\\").isLeft)
  }

  /** regexp_replace over rows of (s, pattern, replacement). */
  private def replace(rows: Seq[(String, String, String)], extra: Expression*): Seq[Row] = {
    val pb = new PlanBuilder()
    val sig = if (extra.isEmpty) "regexp_replace:str_str_str" else "regexp_replace:str_str_str_i64_i64"
    val call = pb.call(pb.fn("functions_string", sig), Seq(field(0), field(1), field(2)) ++ extra: _*)
    def lit(v: String) = if (v == null) litNull(string()) else litString(v)
    val table = readVirtual(schema("s" -> string(), "p" -> string(), "r" -> string()),
      rows.map { case (a, b, c) => Seq(lit(a), lit(b), lit(c)) })
    run(pb.plan(emit(project(table, call), 3), "r")).collect().toSeq
  }

  test("backreferences, every match, NULLs and empty strings, with replacements from the data") {
    val rows = Seq(
      ("abc", "(.*)c", "\\1e"), // abe: group 1 is "ab"
      ("abab", "(a)(b)", "\\2\\1"), // baba: both matches, groups swapped
      ("abc", "b", "[\\0]"), // a[b]c: \0 the whole match
      ("a.b.c", "\\.", "$"), // a$b$c: a dollar is itself
      ("abc", "b", "\\\\"), // a\c: \\ is one backslash
      ("abc", "(b)", "\\10"), // ab0c: group 1 then the digit 0
      ("abc", "x", "\\0"), // abc: no match, nothing replaced
      ("", "^", "x"), // x: the empty string matches ^
      ("abc", "", "-"), // -a-b-c-: empty matches between every character
      (null, "a", "b"), ("a", null, "b"), ("a", "a", null))
    assert(replace(rows) == Seq(Row("abe"), Row("baba"), Row("a[b]c"), Row("a$b$c"), Row("a\\c"), Row("ab0c"),
      Row("abc"),
      Row("x"), Row("-a-b-c-"), Row(null), Row(null), Row(null)))
  }

  test("occurrence picks one match (0 every match) and position starts the search") {
    val rows = Seq(("abcabcabc", "[bc]", "dd"))
    assert(replace(rows, litI64(1), litI64(0)) == Seq(Row("addddaddddadddd")))
    assert(replace(rows, litI64(1), litI64(1)) == Seq(Row("addcabcabc")))
    assert(replace(rows, litI64(1), litI64(4)) == Seq(Row("abcabddabc")), "b, c, b, c: the second c")
    assert(replace(rows, litI64(1), litI64(7)) == Seq(Row("abcabcabc")), "fewer matches: unchanged")
    assert(replace(rows, litI64(5), litI64(0)) == Seq(Row("abcaddddadddd")))
    // The search starts at position as if the string began there: ^ matches there.
    assert(replace(Seq(("aaa", "^a", "b")), litI64(2), litI64(0)) == Seq(Row("aba")))
    assert(replace(Seq(("abc", "$", "!")), litI64(4), litI64(0)) == Seq(Row("abc!")), "position just past the end")
    assert(replace(Seq(("abc", "b", "x")), litNull(i64()), litI64(0)) == Seq(Row(null)))
  }

  private def literalPlan(pattern: String, replacement: String): Plan = {
    val pb = new PlanBuilder()
    val call = pb.call(pb.fn("functions_string", "regexp_replace:str_str_str"), field(0), litString(pattern),
      litString(replacement))
    pb.plan(emit(project(readVirtual(schema("s" -> string()), Seq(Seq(litString("abc")))), call), 1), "r")
  }

  test("what the spec leaves undefined: the plan's error for literals, a domain error for values from the data") {
    val escape = assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$At.arguments[2]")(run(literalPlan("b", "\\x")))
    assert(escape.getMessage.contains("\\x"), escape.getMessage)
    val group = assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$At.arguments[2]")(run(literalPlan("(b)", "\\2")))
    assert(group.getMessage.contains("group 2") && group.getMessage.contains("1 group"), group.getMessage)
    assertPlanError("SUBSTRAIT_INVALID_PLAN", s"$At.arguments[1]")(run(literalPlan("(b", "x")))
    def domainError(body: => Any): String = {
      val e = intercept[Exception](body)
      causes(e).collectFirst {
        case x: SubstraitFunctionException if x.getCondition == "SUBSTRAIT_DOMAIN_ERROR" => x.getMessage
      }.getOrElse(fail(s"not a domain error: $e"))
    }
    assert(domainError(replace(Seq(("abc", "(b)", "\\3")))).contains("group 3"))
    assert(domainError(replace(Seq(("abc", "b", "\\q")))).contains("\\q"))
    assert(domainError(replace(Seq(("abc", "b", "x")), litI64(0), litI64(0))).contains("position 0 is not positive"))
    assert(domainError(replace(Seq(("abc", "b", "x")), litI64(1), litI64(-1))).contains("occurrence -1"))
  }

  test("regex options become flags: case-insensitive matching") {
    val pb = new PlanBuilder()
    val call = pb.callWith(pb.fn("functions_string", "regexp_replace:str_str_str"),
      Seq("case_sensitivity" -> Seq("CASE_INSENSITIVE")),
      None, field(0), litString("B"), litString("\\0\\0"))
    val rows = run(pb.plan(emit(project(readVirtual(schema("s" -> string()), Seq(Seq(litString("abcb")))), call), 1),
        "r")).collect()
    assert(rows.toSeq == Seq(Row("abbcbb")))
  }
}
