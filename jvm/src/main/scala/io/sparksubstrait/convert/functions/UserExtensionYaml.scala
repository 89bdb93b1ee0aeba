package io.sparksubstrait.convert.functions

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.types._
import org.yaml.snakeyaml.{LoaderOptions, Yaml}
import org.yaml.snakeyaml.constructor.SafeConstructor

import io.sparksubstrait.errors.SubstraitErrors

/**
 * A user's Substrait extension YAML (the spec's simple-extension format, with its `urn:`):
 * the functions it declares, each implementation's arguments and options, so a call of a
 * user-mapped function is checked as a standard one is: the name, the signature the plan
 * declares, the argument count and types, and every option value.
 */
private[sparksubstrait] final case class UserExtensionYaml(urn: String, source: String,
  functions: Map[String, Seq[UserExtensionYaml.Impl]]) {
  def impls(name: String): Seq[UserExtensionYaml.Impl] = functions.getOrElse(name.toLowerCase, Nil)
}

private[sparksubstrait] object UserExtensionYaml {

  /**
   * One implementation: its arguments in order (a value's type, or `req` for an enumeration),
   * the last repeating `variadicMin` to `variadicMax` times when variadic, and its options'
   * allowed values.
   */
  final case class Impl(kind: String, args: Seq[String], variadicMin: Option[Int], variadicMax: Option[Int],
    options: Map[String, Seq[String]]) {

    /** The compound name's argument part (`i64_i64`), as the spec derives it from the types. */
    def signature: String = args.map(shortName).mkString("_")

    def accepts(count: Int): Boolean = variadicMin match {
      case None => count == args.size
      case Some(min) => count >= args.size - 1 + min && variadicMax.forall(max => count <= args.size - 1 + max)
    }

    /** The declared type of argument `i` (the last one repeats when variadic). */
    def argType(i: Int): String = if (i < args.size) args(i) else args.last
  }

  private def loader = new Yaml(new SafeConstructor(new LoaderOptions()))

  /** A YAML text from `source` (a file or a setting), or the error naming it. */
  def parse(text: String, source: String): UserExtensionYaml = {
    def bad(found: String, expected: String) = SubstraitErrors.invalidSetting(source, found, expected)
    val root = load(text, source) match {
      case m: java.util.Map[_, _] => m.asScala.map { case (k, v) => String.valueOf(k) -> v }.toMap
      case _ =>
        throw bad("a YAML document that is not a mapping", "a Substrait extension YAML (urn:, scalar_functions:, …)")
    }
    val urn = root.get("urn").map(String.valueOf).filter(_.startsWith("extension:"))
      .getOrElse(throw bad(s"urn ${root.getOrElse("urn", "(none)")}",
          "a urn: field of the form extension:<owner>:<name>"))
    val kinds = Seq("scalar_functions" -> "scalar", "aggregate_functions" -> "aggregate",
      "window_functions" -> "window")
    val functions = kinds.flatMap { case (key, kind) =>
      list(root.get(key)).map(map).map { f =>
        val name = f.get("name").map(String.valueOf).getOrElse(throw bad(s"a $key entry without name", "name:"))
        name.toLowerCase -> list(f.get("impls")).map(map).map(impl(kind, _))
      }
    }
    UserExtensionYaml(urn, source, functions.groupBy(_._1).map { case (n, fs) => n -> fs.flatMap(_._2) })
  }

  /** The entries of a mapping file (`functions:` of `urn`, `name`, `spark` or `sql`). */
  def mappingFile(text: String, source: String): Seq[Map[String, String]] = load(text, source) match {
    case m: java.util.Map[_, _] if map(m).contains("functions") =>
      list(map(m).get("functions")).map(map(_).map { case (k, v) => k -> String.valueOf(v) })
    case _ => throw SubstraitErrors.invalidSetting(source, "a file without a functions: list",
        "functions: a list of {urn, name, spark or sql} entries")
  }

  private def load(text: String, source: String): Any =
    try loader.load[Any](text)
    catch {
      case e: org.yaml.snakeyaml.error.YAMLException =>
        throw SubstraitErrors.invalidSetting(source, s"YAML that does not parse (${e.getMessage.linesIterator.next()})",
          "a YAML document")
    }

  private def impl(kind: String, m: Map[String, Any]): Impl = {
    val args = list(m.get("args")).map(map).map(a =>
      a.get("value").map(v => String.valueOf(v).trim.toLowerCase).getOrElse("req"))
    val variadic = m.get("variadic").map(map)
    val options = m.get("options").map(map).getOrElse(Map.empty).map { case (name, o) =>
      name -> list(map(o).get("values")).map(v => String.valueOf(v).toUpperCase)
    }
    Impl(kind, args, variadic.map(v => v.get("min").map(n => String.valueOf(n).toInt).getOrElse(0)),
      variadic.flatMap(_.get("max")).map(n => String.valueOf(n).toInt), options)
  }

  private def list(v: Option[Any]): Seq[Any] = v match {
    case Some(l: java.util.List[_]) => l.asScala.toSeq
    case _ => Nil
  }

  private def map(v: Any): Map[String, Any] = v match {
    case m: java.util.Map[_, _] => m.asScala.map { case (k, x) => String.valueOf(k) -> x }.toMap
    case _ => Map.empty
  }

  /** A YAML type's base name (`decimal<P1,S1>?` is `decimal`). */
  private def base(t: String): String = t.takeWhile(c => c != '<' && c != '?').trim

  /** The spec's short names for a compound name's signature. */
  def shortName(t: String): String = base(t) match {
    case "boolean" => "bool"
    case "string" => "str"
    case "varchar" => "vchar"
    case "fixedchar" => "fchar"
    case "binary" => "vbin"
    case "fixedbinary" => "fbin"
    case "timestamp" => "ts"
    case "timestamp_tz" => "tstz"
    case "precision_timestamp" => "pts"
    case "precision_timestamp_tz" => "ptstz"
    case "interval_year" => "iyear"
    case "interval_day" => "iday"
    case "decimal" => "dec"
    case "req" => "req"
    case b if b.startsWith("any") => "any"
    case b if b.startsWith("u!") => b
    case b => b
  }

  /** Whether a Spark value of `dt` may be passed where the YAML declares `t`. */
  def accepts(t: String, dt: DataType): Boolean = dt == NullType ||
    (base(t) match {
      case "boolean" => dt == BooleanType
      case "i8" => dt == ByteType
      case "i16" => dt == ShortType
      case "i32" => dt == IntegerType
      case "i64" => dt == LongType
      case "fp32" => dt == FloatType
      case "fp64" => dt == DoubleType
      case "string" | "varchar" | "fixedchar" => dt.isInstanceOf[StringType] || dt.isInstanceOf[VarcharType] ||
        dt.isInstanceOf[CharType]
      case "binary" | "fixedbinary" => dt == BinaryType
      case "date" => dt == DateType
      case "timestamp" | "precision_timestamp" => dt == TimestampNTZType
      case "timestamp_tz" | "precision_timestamp_tz" => dt == TimestampType
      case "decimal" => dt.isInstanceOf[DecimalType]
      case "interval_year" => dt.isInstanceOf[YearMonthIntervalType]
      case "interval_day" => dt.isInstanceOf[DayTimeIntervalType]
      case "list" => dt.isInstanceOf[ArrayType]
      case "map" => dt.isInstanceOf[MapType]
      case "struct" => dt.isInstanceOf[StructType]
      case _ => true // any, a type parameter, a user-defined type: not checked here
    })
}
