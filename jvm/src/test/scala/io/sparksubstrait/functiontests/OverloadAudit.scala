package io.sparksubstrait.functiontests

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types._
import org.yaml.snakeyaml.Yaml

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.testing.Throwables.causes

/**
 * Every overload of every standard YAML, converted once with sample arguments: which ones the
 * catalog refuses (and why), and which convert to another result type than the YAML's. The
 * spec's test cases cover what they cover; this covers every signature (dev/function-tests
 * writes it to docs/function-tests.md). Conversion only: values are the test cases' business.
 */
object OverloadAudit {
  final case class Overload(extension: String, kind: String, function: String, args: Seq[String], returns: String,
    argNames: Seq[String] = Nil) {
    def signature: String = s"$function(${args.mkString(", ")})"
  }

  /** `refused`: the error; `resultType`: ours, with the YAML's when they differ. */
  final case class Audited(overload: Overload, refused: Option[String], typeDiffers: Option[String])

  def overloads(extensions: Path): Seq[Overload] = {
    val files = Files.list(extensions).iterator().asScala.filter(_.toString.endsWith(".yaml")).toSeq.sortBy(_.toString)
    files.flatMap { f =>
      val doc = new Yaml().load[java.util.Map[String, AnyRef]](Files.newInputStream(f))
      val ext = Option(doc.get("urn")).map(_.toString.stripPrefix("extension:io.substrait:")).getOrElse("")
      for {
        (key, kind) <-
          Seq("scalar_functions" -> "scalar", "aggregate_functions" -> "aggregate", "window_functions" -> "window")
        fn <- maps(doc.get(key))
        impl <- maps(fn.get("impls"))
      } yield {
        val declared = maps(impl.get("args"))
        val args = declared.map { a =>
          Option(a.get("value")).map(_.toString.trim).getOrElse(
            s"enum:${Option(a.get("options")).map(o => list(o).head).getOrElse("?")}")
        }
        val argNames = declared.map(a => String.valueOf(a.get("name")))
        val min =
          Option(impl.get("variadic")).map(v => v.asInstanceOf[java.util.Map[String, AnyRef]].get("min")).collect {
            case n: Integer => n.intValue
          }
        def widen[T](xs: Seq[T]) = min.filter(_ > xs.size).map(m => xs ++ Seq.fill(m - xs.size)(xs.last)).getOrElse(xs)
        Overload(ext, kind, fn.get("name").toString, widen(args),
          Option(impl.get("return")).map(_.toString.trim).getOrElse(""),
          widen(argNames))
      }
    }
  }

  def audit(spark: SparkSession, extensions: Path): Seq[Audited] = overloads(extensions).map { o =>
    sampleCase(o) match {
      case Left(why) => Audited(o, Some(s"runner: $why"), None)
      case Right(c) =>
        val file = FunctionTestFile("audit", o.extension, s"extension:io.substrait:${o.extension}", Nil, Seq(c))
        try {
          val plan = new CasePlans(file).build(c)
          val ours = SubstraitPlans.read(spark, plan.toByteArray).schema.head.dataType
          val differs = sparkType(o.returns).filter(t => !sameType(t, ours)).map(t =>
            s"${ours.simpleString}, the YAML's ${t.simpleString}")
          Audited(o, None, differs)
        } catch {
          case e: TestValues.UnsupportedTestType => Audited(o, Some(s"runner: ${e.getMessage}"), None)
          case scala.util.control.NonFatal(e) =>
            val s = causes(e).collectFirst {
              case x: SubstraitException => x
            }
            Audited(o,
              Some(s.map(_.getMessage).getOrElse(s"${e.getClass.getSimpleName}: ${e.getMessage}").linesIterator.next()),
              None)
        }
    }
  }

  // ---- a case with sample arguments -----------------------------------------------------
  private def sampleCase(o: Overload): Either[String, FunctionTestCase] = {
    val typed = o.args.zipWithIndex.map {
      case (a, _) if a.startsWith("enum:") => Right(EnumValue(a.stripPrefix("enum:")))
      // A precision argument (strptime_*) is a number of fractional digits Spark holds.
      case (a, i) if o.argNames.lift(i).contains("precision") => testType(a).map(t => TypedValue(Token("6"), t))
      case (a, i) => testType(a).flatMap(t => sample(t).map(v => TypedValue(v, t)))
    }
    typed.collectFirst { case Left(why) => why }.map(Left(_)).getOrElse {
      val args = typed.collect { case Right(a) => a }
      val (call, table) = o.kind match {
        case "scalar" => (Call(o.function, args), None)
        case _ =>
          // The value an aggregate or window function reads is a column; what follows it (a
          // separator, an offset, a default) is a constant, as plans write them; ntile's bucket
          // count is a constant too.
          val first = if (o.function == "ntile") -1 else args.indexWhere(_.isInstanceOf[TypedValue])
          val columns = if (first < 0) Nil else Seq(args(first).asInstanceOf[TypedValue])
          val refs = args.zipWithIndex.map {
            case (v: TypedValue, i) if i == first => ColumnRef(0, Some(v.tpe))
            case (other, _) => other
          }
          (Call(o.function, refs), Some(TestTable(columns.map(_.tpe), Seq(columns.map(_.value)))))
      }
      val kind = o.kind match { case "scalar" => ScalarCase; case "aggregate" => AggregateCase; case _ => WindowCase }
      Right(FunctionTestCase("audit", 0, "", kind, call, Nil, ExpectUndefined, table, o.signature))
    }
  }

  private val names = Map("boolean" -> "bool", "string" -> "str", "decimal" -> "dec", "varchar" -> "vchar",
    "fixedchar" -> "fchar", "fixedbinary" -> "fbin", "binary" -> "vbin", "precision_timestamp" -> "pts",
    "precision_timestamp_tz" -> "ptstz", "precision_time" -> "pt", "interval_year" -> "iyear", "interval_day" -> "iday",
    "interval_compound" -> "icompound", "timestamp" -> "pts", "timestamp_tz" -> "ptstz", "time" -> "pt")

  /** A YAML type with its parameters made concrete: decimal<10, 2>, varchar<10>, precision 6; any is i64. */
  private def testType(yaml: String): Either[String, TestType] = {
    val s = yaml.trim.toLowerCase.replace(" ", "")
    val (head, params) = s.indexOf('<') match {
      case -1 => (s, "")
      case i => (s.substring(0, i), s.substring(i + 1, s.lastIndexOf('>')))
    }
    val nullable = head.endsWith("?")
    val name0 = head.stripSuffix("?")
    val name = names.getOrElse(name0, name0)
    name match {
      case n if n.startsWith("any") => Right(TestType("i64", nullable))
      // A parameter given as a number (DECIMAL<P, 0>) is kept; a named one is 10 digits, 2 of them decimals.
      case "dec" =>
        val declared = params.split(",").map(_.trim).lift
        def param(i: Int, default: Int) =
          declared(i).filter(p => p.nonEmpty && p.forall(_.isDigit)).map(_.toInt).getOrElse(default)
        Right(TestType("dec", nullable, Seq(IntParam(param(0, 10)), IntParam(param(1, 2)))))
      case "vchar" | "fchar" | "fbin" => Right(TestType(name, nullable, Seq(IntParam(10))))
      case "pts" | "ptstz" | "pt" | "iday" | "icompound" => Right(TestType(name, nullable, Seq(IntParam(6))))
      case "list" => testType(params).map(e => TestType("list", nullable, Seq(TypeParam(e))))
      case "bool" | "i8" | "i16" | "i32" | "i64" | "fp32" | "fp64" | "str" | "vbin" | "date" | "iyear" =>
        Right(TestType(name, nullable))
      case u if u.startsWith("u!") && TestValues.userDefinedTypes.contains(u.drop(2)) => Right(TestType(u, nullable))
      case other => Left(s"no sample of type $yaml")
    }
  }

  private def sample(t: TestType): Either[String, RawValue] = t.name match {
    case "bool" => Right(Token("true"))
    case "i8" | "i16" | "i32" | "i64" => Right(Token("2"))
    case "fp32" | "fp64" => Right(Token("0.5"))
    case "dec" => Right(Token(t.params match {
        case Seq(_, IntParam(0)) => "2"
        case _ => "2.50"
      }))
    case "str" | "vchar" | "fchar" | "vbin" => Right(QuotedString("UTC"))
    case "fbin" => Right(QuotedString("0123456789"))
    case "date" => Right(Token("2000-01-02"))
    case "pts" | "ptstz" => Right(Token("2000-01-02T03:04:05"))
    case "pt" => Right(Token("03:04:05"))
    case "iyear" => Right(Token("P1Y2M"))
    case "iday" => Right(Token("P1DT2H"))
    case "list" => t.params.collectFirst { case TypeParam(e) => e }.toRight("list element").flatMap(sample).map(v =>
        ListValue(Seq(v)))
    case u if u.startsWith("u!") => Right(QuotedString("2"))
    case other => Left(s"no sample of type $t")
  }

  /** The Spark type of a concrete YAML return type; None for parameterised or derived ones. */
  private def sparkType(yaml: String): Option[DataType] = {
    val s = yaml.trim.toLowerCase.stripSuffix("?")
    s match {
      case "boolean" => Some(BooleanType)
      case "i8" => Some(ByteType)
      case "i16" => Some(ShortType)
      case "i32" => Some(IntegerType)
      case "i64" => Some(LongType)
      case "fp32" => Some(FloatType)
      case "fp64" => Some(DoubleType)
      case "string" => Some(StringType)
      case "date" => Some(DateType)
      case d if d.matches("""decimal<\s*\d+\s*,\s*\d+\s*>""") =>
        val Array(p, sc) = d.stripPrefix("decimal<").stripSuffix(">").split(",").map(_.trim.toInt)
        Some(DecimalType(p, sc))
      case _ => None
    }
  }

  private def sameType(a: DataType, b: DataType): Boolean = (a, b) match {
    case (_: StringType, _: StringType) => true
    case _ => a == b
  }

  private def maps(v: AnyRef): Seq[java.util.Map[String, AnyRef]] = v match {
    case l: java.util.List[_] => l.asScala.toSeq.collect { case m: java.util.Map[_, _] =>
        m.asInstanceOf[java.util.Map[String, AnyRef]]
      }
    case _ => Nil
  }
  private def list(v: AnyRef): Seq[String] = v match {
    case l: java.util.List[_] => l.asScala.toSeq.map(String.valueOf)
    case _ => Nil
  }
}
