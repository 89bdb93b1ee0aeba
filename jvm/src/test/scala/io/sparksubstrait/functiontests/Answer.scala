package io.sparksubstrait.functiontests

/** What a case should give by our hand-worked reading: a value, or an error of one kind. */
sealed trait Answer { def render: String }

/** A value written as the test files write one (`127::i8`, `nan::fp64`, `', ,'::str`). */
final case class ValueAnswer(text: String) extends Answer {
  lazy val value: TypedValue = TestFileParser.typedValue(text)
  def render: String = text
}

final case class ErrorAnswer(kind: ErrorKind) extends Answer {
  def render: String = s"<!ERROR> ($kind)"
}

/**
 * A case whose expected value contradicts the extension YAML (or arithmetic): the correct
 * answer, worked out by hand, and how. The runner checks our value against `answer`.
 */
final case class Erratum(source: String, answer: Answer, derivation: String)

/** One reading of a case the spec leaves ambiguous: its answer, and whether it is the one we implement. */
final case class Reading(name: String, answer: Answer, ours: Boolean)

/** A case the spec lets be read in more than one way, each reading with its answer. */
final case class Ambiguity(source: String, readings: Seq[Reading], why: String) {
  require(readings.count(_.ours) == 1, s"exactly one reading is ours: $source")
  def ours: Reading = readings.find(_.ours).get
}
