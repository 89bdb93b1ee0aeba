package io.sparksubstrait
package write

import org.scalatest.funsuite.AnyFunSuite

import io.sparksubstrait.convert.functions.{FunctionCatalog, OptionDomains}
import io.sparksubstrait.write.expr.FunctionWrites

/**
 * The reverse function table is the reader's table read backwards: every (extension, name) a
 * row may write is one the reader's FunctionCatalog maps from that extension, of the same
 * kind, and every option value a row writes is one the extension's YAML allows.
 */
class FunctionWritesSuite extends AnyFunSuite {
  private val scalars = FunctionCatalog.scalarNames.flatMap { case (n, exts) => exts.map(_ -> n) }.toSet
  private val windows = FunctionCatalog.windowNames.flatMap { case (n, exts) => exts.map(_ -> n) }.toSet
  private val aggregates = FunctionCatalog.aggregateNames.flatMap { case (n, exts) => exts.map(_ -> n) }.toSet

  test("every row writes a function the reader maps back, from each extension it may use") {
    for (row <- FunctionWrites.allRows; ext <- row.extensions) {
      val known = row.kind match {
        case FunctionWrites.Scalar => scalars
        case FunctionWrites.Aggregate => aggregates
        case FunctionWrites.Window => windows
      }
      assert(known((ext, row.name)),
        s"${row.catalyst.getSimpleName} writes $ext ${row.name}, which the reader does not map")
    }
  }

  test("one row per Catalyst class") {
    val classes = FunctionWrites.allRows.map(_.catalyst)
    assert(classes.distinct.size == classes.size, classes.diff(classes.distinct))
  }

  test("the option values rows write are the YAML's") {
    import org.apache.spark.sql.catalyst.expressions._
    import org.apache.spark.sql.catalyst.expressions.aggregate._
    import org.apache.spark.sql.types._
    val S = org.apache.spark.sql.sparksubstrait.SparkShim
    val conf = org.apache.spark.sql.internal.SQLConf.get
    val i = AttributeReference("i", LongType)()
    val d = AttributeReference("d", DoubleType)()
    val m = AttributeReference("m", DecimalType(10, 2))()
    val w = AttributeReference("w", DecimalType(38, 18))()
    val s = AttributeReference("s", StringType)()
    val dt = AttributeReference("dt", DateType)()
    val samples: Seq[Expression] = for {
      mode <- Seq(EvalMode.ANSI, EvalMode.LEGACY)
      e <- Seq[Expression](S.add(i, i, mode, conf), S.subtract(m, m, mode, conf), S.multiply(d, d, mode, conf),
        S.divide(d, d, mode, conf), S.divide(m, m, mode, conf), S.integralDivide(i, i, mode, conf),
        S.remainder(i, i, mode, conf), UnaryMinus(i, mode == EvalMode.ANSI), Abs(m, mode == EvalMode.ANSI),
        S.sum(m, mode, conf), S.average(d, mode), Like(s, s, '\\'), StartsWith(s, s), Contains(s, s), EndsWith(s, s),
        Substring(s, Literal(1), Literal(2)), Upper(s), Lower(s), Concat(Seq(s, s)), Year(dt), Min(dt), Max(m),
        Count(Seq(i)), Round(m, Literal(2)), BRound(m, Literal(0)), Round(w, Literal(2)), Round(w, Literal(-1)),
        Round(w, Literal(20)))
    } yield e
    val seen = samples.flatMap(e => FunctionWrites.row(e).map(r => r -> r.write(e)))
    assert(seen.nonEmpty)
    // A row's call and the calls nested in its arguments (round of a DECIMAL(38, s) truncates first).
    def calls(c: FunctionWrites.Call): Seq[FunctionWrites.Call] =
      c +: c.args.collect { case FunctionWrites.Nested(inner, _, _) => calls(inner) }.flatten
    assert(seen.flatMap(_._2.toSeq.flatMap(calls)).exists(_.options.contains("rounding" -> "TRUNCATE")))
    seen.foreach { case (row, call) =>
      call.toSeq.flatMap(calls).foreach { c =>
        assert(row.extensions(c.extension), s"$c outside ${row.extensions}")
        assert(scalars((c.extension, c.name)) || row.kind != FunctionWrites.Scalar, s"$c: the reader does not map it")
        c.options.foreach { case (option, value) =>
          val allowed = OptionDomains.allowed(Some(c.extension), c.name, option)
          assert(allowed.exists(_.contains(value)),
            s"${c.extension} ${c.name} option $option = $value; the YAML allows $allowed")
        }
      }
    }
  }
}
