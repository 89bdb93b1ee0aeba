package io.sparksubstrait.functiontests

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import scala.collection.mutable
import scala.jdk.CollectionConverters._

/**
 * Our reading of the spec's function test format (grammar/FuncTestCaseParser.g4 in the
 * Substrait repository): a header naming the extension, then groups of cases, one per line.
 * Scalar: `f(1::i32, 2::i32) [overflow:ERROR] = 3::i32`. Aggregate: `f((1, 2)::i32) = 3::i64`,
 * `((1, 2), (3, 4)) f(col0::i32, col1::i32) = …`, or `DEFINE t(i32, i32) = (…)` then
 * `f(t.col0, t.col1) = …`. Window: `DEFINE w(i32) = (…)` then `f(col0) OVER w = (…)::i32?`.
 */
object TestFileParser {
  private val UrnPrefix = "extension:io.substrait:"

  def parseFile(path: Path): FunctionTestFile =
    parse(new String(Files.readAllBytes(path), StandardCharsets.UTF_8), path.toString)

  def parse(text: String, file: String): FunctionTestFile = {
    var kind: Option[CaseKind] = None
    var include: Option[String] = None
    val dependencies = mutable.ArrayBuffer.empty[String]
    var group = ""
    val tables = mutable.Map.empty[String, TestTable]
    val cases = mutable.ArrayBuffer.empty[FunctionTestCase]
    text.split("\r?\n").zipWithIndex.foreach { case (raw, i) =>
      val line = raw.trim
      val lineNo = i + 1
      def fail(msg: String): Nothing = throw TestFileSyntaxError(file, lineNo, msg)
      if (line.isEmpty) ()
      else if (line.startsWith("###")) {
        val (key, value) =
          line.stripPrefix("###").span(_ != ':') match { case (k, v) => (k.trim.toUpperCase, v.drop(1).trim) }
        key match {
          case "SUBSTRAIT_SCALAR_TEST" => kind = Some(ScalarCase)
          case "SUBSTRAIT_AGGREGATE_TEST" => kind = Some(AggregateCase)
          case "SUBSTRAIT_WINDOW_TEST" => kind = Some(WindowCase)
          case "SUBSTRAIT_INCLUDE" => include = Some(value.stripPrefix("'").stripSuffix("'"))
          case "SUBSTRAIT_DEPENDENCY" => dependencies += value.stripPrefix("'").stripSuffix("'")
          case other => fail(s"unknown header $other")
        }
      } else if (line.startsWith("#")) {
        group = line.stripPrefix("#").trim.takeWhile(_ != ':').trim
      } else {
        val k = kind.getOrElse(fail("a case before the ### SUBSTRAIT_*_TEST header"))
        val p = new LineParser(TestFileLexer.tokenize(line, file, lineNo), file, lineNo, line)
        if (p.peekWord("DEFINE")) {
          val (name, table) = p.define()
          tables(name.toLowerCase) = table
        } else {
          cases += p.testCase(k, tables.toMap).copy(group = group)
        }
      }
    }
    val urn = include.getOrElse(throw TestFileSyntaxError(file, 1, "no ### SUBSTRAIT_INCLUDE header"))
    FunctionTestFile(file, urn.stripPrefix(UrnPrefix), urn, dependencies.toSeq, cases.toSeq)
  }

  /** One typed value as the test files write it, e.g. `127::i8` or `', ,'::str` (the errata's hand-worked values). */
  def typedValue(text: String): TypedValue = {
    val p = new LineParser(TestFileLexer.tokenize(text, "value", 1), "value", 1, text)
    p.valueOnly()
  }

  /** A recursive-descent parser over one line's tokens. */
  private final class LineParser(toks: IndexedSeq[Tok], file: String, lineNo: Int, line: String) {
    private var pos = 0

    private def fail(msg: String): Nothing =
      throw TestFileSyntaxError(file, lineNo, s"$msg (at token ${pos + 1} of: $line)")
    private def peek: Option[Tok] = toks.lift(pos)
    private def peekAt(k: Int): Option[Tok] = toks.lift(pos + k)
    private def next(): Tok = { val t = peek.getOrElse(fail("unexpected end of line")); pos += 1; t }
    private def isPunct(s: String, k: Int = 0): Boolean = peekAt(k).contains(Punct(s))
    def peekWord(w: String): Boolean = peek.exists { case Word(x) => x.equalsIgnoreCase(w); case _ => false }
    private def expect(s: String): Unit = next() match {
      case Punct(`s`) =>
      case other => fail(s"expected '$s', found '${other.text}'")
    }
    private def word(): String = next() match {
      case Word(w) => w
      case other => fail(s"expected a name, found '${other.text}'")
    }
    private def accept(s: String): Boolean = if (isPunct(s)) { pos += 1; true }
    else false
    private def end(): Unit = if (peek.nonEmpty) fail(s"unexpected '${peek.get.text}'")

    /** `DEFINE name(type, …) = ((row), …)`. */
    def define(): (String, TestTable) = {
      word()
      val name = word()
      expect("(")
      val types = commaSeparated(")")(() => dataType())
      expect("=")
      val rows = rowList()
      end()
      name -> TestTable(types, rows)
    }

    def testCase(kind: CaseKind, tables: Map[String, TestTable]): FunctionTestCase = {
      var table: Option[TestTable] = None
      val call = kind match {
        case AggregateCase if isPunct("(") =>
          // compact form: the rows first; the columns' types are in the arguments.
          // `(())` is the empty table: a row without values is no row.
          val rows = rowList().filter(_.nonEmpty)
          val c = callExpr(aggregate = true)
          val columns = c.args.collect { case ColumnRef(i, Some(t)) => i -> t }.toMap
          val width = rows.headOption.map(_.size).getOrElse(columns.size)
          val types = (0 until width).map(i => columns.getOrElse(i, fail(s"no type given for col$i")))
          table = Some(TestTable(types, rows))
          c
        case AggregateCase =>
          val name = word()
          expect("(")
          if (isPunct("(")) {
            // single-argument form: `f((values)::type)`
            val values = rawTuple()
            expect("::")
            val t = dataType()
            expect(")")
            table = Some(TestTable(Seq(t), values.map(Seq(_))))
            Call(name, Seq(ColumnRef(0, Some(t))))
          } else {
            pos -= 2
            val c = callExpr(aggregate = true)
            table = tableOf(c, tables)
            c
          }
        case WindowCase =>
          val c = callExpr(aggregate = true)
          if (!peekWord("OVER")) fail("expected OVER")
          pos += 1
          val name = word()
          table = Some(tables.getOrElse(name.toLowerCase, fail(s"undefined table $name")))
          c
        case ScalarCase => callExpr(aggregate = false)
      }
      val options = if (accept("[")) commaSeparated("]")(() => option()) else Nil
      expect("=")
      val expected: Expected = peek match {
        case Some(Marker("<!ERROR>")) => pos += 1; ExpectError
        case Some(Marker("<!UNDEFINED>")) => pos += 1; ExpectUndefined
        case _ if kind == WindowCase =>
          val values = rawTuple()
          expect("::")
          ExpectColumn(values, dataType())
        case _ => argument(aggregate = false) match {
            case v: TypedValue => ExpectValue(v)
            case other => fail(s"expected a typed value as the result, found $other")
          }
      }
      end()
      FunctionTestCase(file, lineNo, "", kind, call, options, expected, table, line)
    }

    def valueOnly(): TypedValue = {
      val v = argument(aggregate = false) match {
        case t: TypedValue => t
        case other => fail(s"expected a typed value, found $other")
      }
      end()
      v
    }

    /** Multi-argument aggregate over a DEFINEd table: `f(t1.col0, t1.col1)`. */
    private def tableOf(c: Call, tables: Map[String, TestTable]): Option[TestTable] =
      if (tables.size == 1) tables.values.headOption
      else if (c.args.exists(_.isInstanceOf[ColumnRef])) fail("a column reference with no single DEFINEd table")
      else None

    private def option(): (String, String) = {
      val name = word()
      expect(":")
      val value = next() match {
        case Word(w) => w
        case WordTok(l) => l
        case other => fail(s"expected an option value, found '${other.text}'")
      }
      name -> value
    }

    private def callExpr(aggregate: Boolean): Call = {
      val name = word()
      expect("(")
      Call(name, commaSeparated(")")(() => argument(aggregate)))
    }

    private def commaSeparated[T](close: String)(item: () => T): Seq[T] = {
      val items = mutable.ArrayBuffer.empty[T]
      if (!accept(close)) {
        items += item()
        while (accept(",")) items += item()
        expect(close)
      }
      items.toSeq
    }

    private val Column = """(?i)col(\d+)""".r

    private def argument(aggregate: Boolean): Argument = peek match {
      case Some(Punct("(")) if isLambda => lambda()
      case Some(Word(Column(i))) if aggregate && !isPunct("(", 1) =>
        pos += 1
        ColumnRef(i.toInt, if (accept("::")) Some(dataType()) else None)
      case Some(Word(_)) if isPunct(".", 1) =>
        word(); expect(".")
        word() match {
          case Column(i) => ColumnRef(i.toInt, None)
          case other => fail(s"expected colN, found $other")
        }
      case Some(Word(_)) if isPunct("(", 1) => callExpr(aggregate)
      case Some(Word(w)) if isPunct("::", 1) && peekAt(2).exists(_.text.equalsIgnoreCase("enum")) =>
        pos += 3
        EnumValue(w)
      case Some(Word(w)) if !isPunct("::", 1) && !isNullWord(w) && !isBoolWord(w) => pos += 1; ParamRef(w)
      case _ =>
        val v = compound()
        expect("::")
        val t = dataType()
        if (t.name == "func" && v != NullValue) fail("a function-typed value other than a lambda or NULL")
        TypedValue(v, t)
    }

    private def isNullWord(w: String) = w.equalsIgnoreCase("null")
    private def isBoolWord(w: String) = w.equalsIgnoreCase("true") || w.equalsIgnoreCase("false")

    /** `(x -> …)` or `((x, y) -> …)`. */
    private def isLambda: Boolean = (peekAt(1), peekAt(2)) match {
      case (Some(Word(_)), Some(Punct("->"))) => true
      case (Some(Punct("(")), Some(Word(_))) =>
        val close = toks.indexWhere(_ == Punct(")"), pos + 1)
        close > 0 && toks.lift(close + 1).contains(Punct("->"))
      case _ => false
    }

    private def lambda(): LambdaValue = {
      expect("(")
      val params = if (accept("(")) commaSeparated(")")(() => word()) else Seq(word())
      expect("->")
      val body = callExpr(aggregate = false)
      expect(")")
      expect("::")
      LambdaValue(params, body, dataType())
    }

    private def compound(): RawValue = next() match {
      case Word(w) if isNullWord(w) => NullValue
      case Word(w) if isBoolWord(w) => Token(w.toLowerCase)
      case WordTok(l) => Token(l)
      case Quoted(s) => QuotedString(s)
      case Punct("[") => ListValue(commaSeparated("]")(() => compound()))
      case Punct("(") => StructValue(commaSeparated(")")(() => compound()))
      case Punct("{") => MapValue(commaSeparated("}") { () =>
          val k = compound(); expect(":"); k -> compound()
        })
      case other => fail(s"expected a value, found '${other.text}'")
    }

    /** `(v, v, …)`: one column's values. */
    private def rawTuple(): Seq[RawValue] = {
      expect("(")
      commaSeparated(")")(() => compound())
    }

    /** `((v, v), (v, v))`: rows of a table. */
    private def rowList(): Seq[Seq[RawValue]] = {
      expect("(")
      commaSeparated(")")(() => rawTuple())
    }

    def dataType(): TestType = {
      val name = normalise(word())
      val nullable = accept("?")
      if (name == "func") {
        expect("<")
        val params = if (accept("(")) commaSeparated(")")(() => dataType()) else Seq(dataType())
        expect("->")
        val result = dataType()
        expect(">")
        TestType(name, nullable, Seq(FuncParams(params, result)))
      } else if (accept("<")) {
        val params = commaSeparated(">") { () =>
          peek match {
            case Some(WordTok(n)) if n.forall(_.isDigit) => pos += 1; IntParam(n.toInt)
            case _ => TypeParam(dataType())
          }
        }
        TestType(name, nullable || accept("?"), params)
      } else TestType(name, nullable)
    }
  }

  /** The short names the spec's type grammar uses, for the long ones it also accepts. */
  private val longNames = Map(
    "boolean" -> "bool", "string" -> "str", "binary" -> "vbin", "decimal" -> "dec",
    "varchar" -> "vchar", "fixedchar" -> "fchar", "fixedbinary" -> "fbin",
    "interval_year" -> "iyear", "interval_day" -> "iday", "interval_compound" -> "icompound",
    "precision_time" -> "pt", "precision_timestamp" -> "pts", "precision_timestamp_tz" -> "ptstz")

  private def normalise(name: String): String = {
    val lower = name.toLowerCase
    longNames.getOrElse(lower, lower)
  }

  /** Every `.test` file under `root`, sorted. */
  def testFiles(root: Path): Seq[Path] =
    Files.walk(root).iterator().asScala.filter(_.toString.endsWith(".test")).toSeq.sortBy(_.toString)
}
