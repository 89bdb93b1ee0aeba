package io.sparksubstrait.functiontests

/**
 * Cases the spec lets be read two ways: each reading with its answer, and the one we follow.
 * The runner reports them as ambiguous (not passed, not errata) when our value is our
 * reading's, and wrong otherwise.
 */
object Ambiguities {
  private val Backreference = "functions_string.yaml names ICU for the pattern and says only that the replacement has " +
    "\"numbered backreferences\": ICU writes them $1 (and reads \\1 as an escaped 1), the spec's cases and the engines " +
    "producers translate from (RE2 in DuckDB, DataFusion) write \\1"

  private def backreference(source: String) = Ambiguity(source, Seq(
    Reading("\\1 is group 1 (the spec's cases, RE2, DuckDB, DataFusion)", ValueAnswer("'abe'::str"), ours = true),
    Reading("ICU's replacement syntax (\\1 is a literal 1, $1 the group)", ValueAnswer("'1e'::str"), ours = false)),
    Backreference)

  val all: Seq[Ambiguity] = Seq(
    backreference("regexp_replace('abc'::str, '(.*)c'::str, '\\1e'::str, 1::i64, 0::i64) = 'abe'::str"),
    backreference("regexp_replace('abc'::str, '(.*)c'::str, '\\1e'::str) = 'abe'::str")
  )

  private val bySource: Map[String, Ambiguity] = all.map(a => a.source -> a).toMap

  def of(c: FunctionTestCase): Option[Ambiguity] = bySource.get(c.source)
}
