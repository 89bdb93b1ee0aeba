package io.sparksubstrait.functiontests

import org.apache.spark.sql.SparkSession

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.errors.{SubstraitException, SubstraitUnsupportedException}
import io.sparksubstrait.functiontests.ValueMatch.{render, same}
import io.sparksubstrait.testing.Throwables.causes

/** What running one case gave, judged against what the case expects. */
sealed trait Outcome { def detail: String }
object Outcome {
  case object Passed extends Outcome { def detail = "" }

  /** A value came back and it is not the expected one (or an error was expected). */
  final case class Wrong(detail: String) extends Outcome

  /** An error where a value was expected, or an error of another kind than the case asks for. */
  final case class Failed(detail: String) extends Outcome

  /** Refused as unsupported (function, signature, option or type), or not expressible as a plan. */
  final case class Unsupported(detail: String) extends Outcome

  /** The case's expected answer is wrong ([[Errata]]) and ours is the hand-worked one. */
  final case class Erratum(erratum: io.sparksubstrait.functiontests.Erratum, detail: String) extends Outcome

  /** The spec allows two readings ([[Ambiguities]]) and ours gives our reading's answer. */
  final case class Ambiguous(ambiguity: Ambiguity, detail: String) extends Outcome
}

/**
 * Runs one case through the extension (plan bytes → DataFrame → collect) and judges it: a
 * value against the case's value (or, for an erratum, the hand-worked one; for an ambiguous
 * case, our reading's), an error against the kind of error asked for ([[ErrorKinds]]). The
 * session must have `spark.sql.datetime.java8API.enabled` so that dates, timestamps and
 * intervals come back as java.time values.
 */
final class CaseRunner(spark: SparkSession) {
  import Outcome._

  def run(file: FunctionTestFile, c: FunctionTestCase): Outcome = {
    val result: Either[Throwable, Seq[Any]] =
      try {
        val plan = new CasePlans(file).build(c)
        Right(SubstraitPlans.read(spark, plan.toByteArray).collect().toSeq.map(_.get(0)))
      } catch {
        case e: TestValues.UnsupportedTestType => return Unsupported(s"runner: ${e.getMessage}")
        case e: Throwable if scala.util.control.NonFatal(e) || e.isInstanceOf[StackOverflowError] => Left(e)
      }
    judge(c, result)
  }

  /** The judgement of `result` for case `c` (public so that tests can feed it other results). */
  def judge(c: FunctionTestCase, result: Either[Throwable, Seq[Any]]): Outcome = (c.expected, result) match {
    case (ExpectUndefined, _) => Passed
    case (_, Left(e)) if unsupported(e) => Unsupported(message(e))
    case _ => (Errata.of(c), Ambiguities.of(c)) match {
        case (Some(erratum), _) => check(asExpected(erratum.answer, c), errorKinds(erratum.answer, c), result) match {
            case Passed => Erratum(erratum,
                s"the case expects ${c.expected.render}; hand-worked: ${erratum.answer.render} (${erratum.derivation}); ours agrees")
            case other => prefixed(other, s"erratum (hand-worked ${erratum.answer.render}): ")
          }
        case (None, Some(ambiguity)) =>
          val readings = ambiguity.readings.map(r => s"${r.name}: ${r.answer.render}").mkString("; ")
          check(asExpected(ambiguity.ours.answer, c), errorKinds(ambiguity.ours.answer, c), result) match {
            case Passed => Ambiguous(ambiguity, s"$readings. Ours: ${ambiguity.ours.name}")
            case other => prefixed(other,
                s"ambiguous, our reading (${ambiguity.ours.name}) gives ${ambiguity.ours.answer.render}: ")
          }
        case (None, None) => check(c.expected, ErrorKind.expected(c), result)
      }
  }

  private def asExpected(answer: Answer, c: FunctionTestCase): Expected = answer match {
    case v: ValueAnswer => ExpectValue(v.value)
    case _: ErrorAnswer => ExpectError
  }
  private def errorKinds(answer: Answer, c: FunctionTestCase): Either[String, Set[ErrorKind]] = answer match {
    case ErrorAnswer(kind) => Right(Set(kind))
    case _ => ErrorKind.expected(c)
  }

  private def prefixed(o: Outcome, prefix: String): Outcome = o match {
    case Wrong(d) => Wrong(prefix + d)
    case Failed(d) => Failed(prefix + d)
    case other => other
  }

  /** `result` against `expected`; an error must be of one of `kinds`. */
  private def check(expected: Expected, kinds: Either[String, Set[ErrorKind]], result: Either[Throwable, Seq[Any]])
    : Outcome =
    (expected, result) match {
      case (ExpectUndefined, _) => Passed
      case (ExpectError, Left(e)) => (kinds, ErrorKind.of(e)) match {
          case (Right(wanted), Some(kind)) if wanted(kind) => Passed
          case (Right(wanted), got) =>
            Failed(s"expected ${wanted.mkString(" or ")}, got ${got.getOrElse("another error")}: ${message(e)}")
          case (Left(why), _) => Failed(s"runner: $why; got ${message(e)}")
        }
      case (ExpectError, Right(values)) => Wrong(s"expected an error, got ${values.map(render).mkString(", ")}")
      case (_, Left(e)) => Failed(message(e))
      case (ExpectValue(v), Right(Seq(actual))) =>
        if (same(actual, v.value, v.tpe)) Passed else Wrong(s"expected ${render(v.value)}, got ${render(actual)}")
      case (ExpectValue(_), Right(values)) => Wrong(s"expected one row, got ${values.size}")
      case (ExpectColumn(want, t), Right(values)) =>
        if (values.size == want.size && values.zip(want).forall { case (a, w) => same(a, w, t) }) Passed
        else Wrong(
          s"expected ${want.map(render).mkString("(", ", ", ")")}, got ${values.map(render).mkString("(", ", ", ")")}")
    }

  /** Unsupported: our error for an unsupported feature, or a function/signature the catalog lacks. */
  private def unsupported(e: Throwable): Boolean = substrait(e).exists {
    case _: SubstraitUnsupportedException => true
    case s => s.getCondition == "SUBSTRAIT_UNKNOWN_FUNCTION"
  }

  private def substrait(e: Throwable): Option[SubstraitException] =
    causes(e).collectFirst { case s: SubstraitException => s }

  private def message(e: Throwable): String = {
    val root = substrait(e).getOrElse(causes(e).toSeq.last)
    s"${root.getClass.getSimpleName}: ${Option(root.getMessage).getOrElse("").linesIterator.take(2).mkString(" ")}"
  }
}
