package io.sparksubstrait.functiontests

/**
 * The function test files of the Substrait spec (the `.test` files under `substrait_extensions/testcases`),
 * as parsed: each case is one function call with typed arguments and an expected result.
 */

/** A type as the test files write it, e.g. `i32?`, `dec<38,2>`, `list<i32?>`, `u!u8`. */
final case class TestType(name: String, nullable: Boolean, params: Seq[TestTypeParam] = Nil) {
  override def toString: String = {
    val ps = if (params.isEmpty) "" else params.mkString("<", ",", ">")
    s"$name${if (nullable) "?" else ""}$ps"
  }
}

sealed trait TestTypeParam
final case class IntParam(value: Int) extends TestTypeParam { override def toString: String = value.toString }
final case class TypeParam(tpe: TestType) extends TestTypeParam { override def toString: String = tpe.toString }

/** `func<i32 -> bool?>`: parameter types, then the return type. */
final case class FuncParams(params: Seq[TestType], result: TestType) extends TestTypeParam {
  override def toString: String = s"${params.mkString("(", ",", ")")} -> $result"
}

/** A value as written, before it meets its type. */
sealed trait RawValue
case object NullValue extends RawValue

/** Numbers, booleans, dates, times, timestamps, intervals, `inf`/`nan`: their text. */
final case class Token(text: String) extends RawValue
final case class QuotedString(value: String) extends RawValue
final case class ListValue(items: Seq[RawValue]) extends RawValue
final case class StructValue(items: Seq[RawValue]) extends RawValue
final case class MapValue(entries: Seq[(RawValue, RawValue)]) extends RawValue

/** One argument of a call (or the expected result). */
sealed trait Argument
final case class TypedValue(value: RawValue, tpe: TestType) extends Argument

/** `YEAR::enum`: an enumeration argument. */
final case class EnumValue(name: String) extends Argument

/** `(x -> gt(x, 0::i32))::func<i32 -> bool?>`. */
final case class LambdaValue(params: Seq[String], body: Call, tpe: TestType) extends Argument

/** A bare identifier: a lambda parameter inside a lambda body. */
final case class ParamRef(name: String) extends Argument

/** A column of the case's table (aggregate and window tests): `col0::i32` or `t1.col0`. */
final case class ColumnRef(index: Int, tpe: Option[TestType]) extends Argument

/** A nested call, as in a lambda body. */
final case class Call(function: String, args: Seq[Argument]) extends Argument

sealed trait Expected {

  /** As the test files write it. */
  def render: String = this match {
    case ExpectValue(v) => s"${ValueMatch.render(v.value)}::${v.tpe}"
    case ExpectError => "<!ERROR>"
    case ExpectUndefined => "<!UNDEFINED>"
    case ExpectColumn(vs, t) => s"${vs.map(ValueMatch.render).mkString("(", ", ", ")")}::$t"
  }
}
final case class ExpectValue(value: TypedValue) extends Expected

/** `<!ERROR>`: the call must fail. */
case object ExpectError extends Expected

/** `<!UNDEFINED>`: any outcome is right. */
case object ExpectUndefined extends Expected

/** Window tests: one value per input row, in input order. */
final case class ExpectColumn(values: Seq[RawValue], tpe: TestType) extends Expected

/** Rows of the table an aggregate or window function runs over. */
final case class TestTable(columnTypes: Seq[TestType], rows: Seq[Seq[RawValue]])

sealed trait CaseKind
case object ScalarCase extends CaseKind
case object AggregateCase extends CaseKind
case object WindowCase extends CaseKind

final case class FunctionTestCase(
  file: String,
  line: Int,
  group: String,
  kind: CaseKind,
  call: Call,
  options: Seq[(String, String)],
  expected: Expected,
  table: Option[TestTable],
  /** The text of the case as written, for reports. */
  source: String)

final case class FunctionTestFile(
  path: String,
  /** The extension YAML the tested functions come from, e.g. `functions_arithmetic`. */
  extension: String,
  /** The full URN of `### SUBSTRAIT_INCLUDE`. */
  includeUrn: String,
  /** `### SUBSTRAIT_DEPENDENCY` URNs: extensions of functions used inside lambdas. */
  dependencyUrns: Seq[String],
  cases: Seq[FunctionTestCase])

/** A test file that does not follow the grammar: where and why. */
final case class TestFileSyntaxError(file: String, line: Int, message: String)
    extends RuntimeException(s"$file:$line: $message")
