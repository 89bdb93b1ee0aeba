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

  private def backreference(source: String) = Ambiguity(source,
    Seq(
      Reading("\\1 is group 1 (the spec's cases, RE2, DuckDB, DataFusion)", ValueAnswer("'abe'::str"), ours = true),
      Reading("ICU's replacement syntax (\\1 is a literal 1, $1 the group)", ValueAnswer("'1e'::str"), ours = false)),
    Backreference)

  private val NoIndexing = "since spec 0.30 extract of these components takes an indexing argument (ONE or ZERO), " +
    "which the case omits: the YAML has no such overload; before 0.30 the two-argument form counted from 1"

  /** extract without indexing: the pre-0.30 meaning (from 1), which we read, or no such overload. */
  private def unindexed(source: String, oneBased: String) = Ambiguity(source,
    Seq(
      Reading("the two-argument extract of spec < 0.30, counting from 1", ValueAnswer(oneBased), ours = true),
      Reading("spec 0.108: indexing is required, no overload matches (an invalid plan)",
        ErrorAnswer(ErrorKind.InvalidPlan), ours = false)),
    NoIndexing)

  val all: Seq[Ambiguity] = Seq(
    backreference("regexp_replace('abc'::str, '(.*)c'::str, '\\1e'::str, 1::i64, 0::i64) = 'abe'::str"),
    backreference("regexp_replace('abc'::str, '(.*)c'::str, '\\1e'::str) = 'abe'::str"),
    unindexed("extract(QUARTER::enum, 2016-12-31T13:30:15::pts<6>) = 4::i64", "4::i64"),
    unindexed("extract(MONTH::enum, 2016-12-31T13:30:15::pts<6>) = 12::i64", "12::i64"),
    unindexed("extract(ISO_WEEK::enum, 2016-12-31T13:30:15::pts<6>) = 52::i64", "52::i64"),
    unindexed("extract(DAY::enum, 2016-12-31T13:30:15::pts<6>) = 31::i64", "31::i64"),
    unindexed("extract(DAY_OF_YEAR::enum, 2016-12-25T13:30:15::pts<6>) = 360::i64", "360::i64"),
    unindexed("extract(MONTH::enum, 2020-12-31::date) = 12::i64", "12::i64"),
    unindexed("extract(DAY::enum, 2020-12-31::date) = 31::i64", "31::i64")
  )

  private val bySource: Map[String, Ambiguity] = all.map(a => a.source -> a).toMap

  def of(c: FunctionTestCase): Option[Ambiguity] = bySource.get(c.source)
}
