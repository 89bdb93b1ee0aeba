package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions.{EvalMode, Expression, SortOrder}
import org.apache.spark.sql.types.DataType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * One function invocation, as a catalog entry's builder sees it: converted arguments,
 * the requested options, and where it is in the plan.
 */
private[sparksubstrait] final class FunctionCall(
  val name: String,
  val args: Seq[Expression],
  options: Map[String, Seq[String]],
  val at: PlanPath,
  val ctx: ConversionContext,
  /** The plan's declared `output_type`, when given: some mappings compute in its domain. */
  val declaredType: Option[DataType] = None,
  /** Enumeration arguments (`YEAR` of extract, `SAMPLE` of variance), in order. */
  enums: Seq[String] = Nil,
  /** An aggregate's sort fields (the order its values are taken in), in order. */
  sorts: Seq[SortOrder] = Nil,
  /** The argument part of the compound name the plan declares (`i64_i64` of `add:i64_i64`), if any. */
  val declaredSignature: Option[String] = None) {

  private val consumed = scala.collection.mutable.Set.empty[String]
  private var enumsRead = 0
  private var sortsRead = false

  /**
   * Enumeration argument `i` (among the enum arguments), mapped by `supported`; an enum
   * Spark cannot honour, or a missing one, is an error.
   */
  def enumCount: Int = enums.size

  def enumArg[T](i: Int, what: String, supported: Map[String, T]): T = {
    enumsRead = math.max(enumsRead, i + 1)
    val value = enums.lift(i).getOrElse(wrongArguments(s"a $what enumeration argument"))
    supported.getOrElse(value.toUpperCase,
      throw SubstraitErrors.unsupported(at, s"$what $value", supported.keys.toSeq.sorted.mkString(", ")))
  }

  def argTypes: Seq[DataType] = args.map(_.dataType)
  def arg(i: Int): Expression = args(i)

  /**
   * The first preference for option `option` that Spark can honour (`supported` maps
   * Substrait values to ours), None when the plan leaves the option open, or the error
   * naming what was requested and what could be.
   */
  def option[T](option: String, supported: Map[String, T]): Option[T] = {
    consumed += option
    options.get(option).map { preferences =>
      preferences.iterator.map(p => supported.get(p.toUpperCase)).collectFirst { case Some(v) => v }
        .getOrElse(throw SubstraitErrors.unsupportedOption(at, name, option, preferences, supported.keys.toSeq.sorted))
    }
  }

  /** The options the plan gives, by name. */
  def optionNames: Seq[String] = options.keys.toSeq.sorted

  /** Option `option`'s preferences as the plan gives them, without reading it (for checks). */
  def optionPreferences(option: String): Seq[String] = options.getOrElse(option, Nil)

  /**
   * Option `option`'s first preference as the plan writes it, None when the plan leaves it
   * open: for a user mapping, which passes the value on (its YAML, when registered, has
   * already checked it).
   */
  def optionValue(option: String): Option[String] = {
    consumed += option
    options.get(option).flatMap(_.headOption)
  }

  /**
   * Whether the plan asks integer overflow to SATURATE (clamp to the type's range) ahead of
   * anything else: mappings that can saturate call this before [[overflowMode]].
   */
  def saturates: Boolean =
    options.get("overflow").flatMap(_.map(_.toUpperCase).find(Set("ERROR", "SILENT", "SATURATE"))).contains(
      "SATURATE") && {
      consumed += "overflow"
      true
    }

  /** Overflow behaviour: ERROR is Spark's ANSI mode, SILENT its legacy mode. */
  def overflowMode: EvalMode.Value =
    option("overflow", Map("ERROR" -> EvalMode.ANSI, "SILENT" -> EvalMode.LEGACY)).getOrElse(ctx.defaultEvalMode)

  /**
   * The order an aggregate takes its values in. Only mappings whose Spark aggregate honours an
   * order read it; sort fields left unread are an error, never silently dropped.
   */
  def ordering: Seq[SortOrder] = { sortsRead = true; sorts }

  /** IEEE round-to-nearest-even is what the JVM does for floating point. */
  def acceptIeeeRounding(): Unit = option("rounding", Map("TIE_TO_EVEN" -> ()))

  /**
   * The IEEE rounding mode the plan names for a floating-point result (a
   * [[io.sparksubstrait.runtime.CorrectlyRounded]] mode code), None when it names none.
   */
  def rounding: Option[Int] = option("rounding", io.sparksubstrait.runtime.CorrectlyRounded.modes)

  /** Every option the plan gave must have been looked at by the builder: none is ignored. */
  def checkAllOptionsConsumed(): Unit = {
    options.keys.find(!consumed(_)).foreach { o =>
      throw SubstraitErrors.unsupportedOption(at, name, o, options(o), Nil)
    }
    if (sorts.nonEmpty && !sortsRead) {
      throw SubstraitErrors.unsupported(at.at("sorts", 0), s"sort fields on $name (an ordered aggregate)",
        "sort fields only on string_agg (the one ordered aggregate Spark has), or on an aggregate no order changes " +
          "(count, min, max, bool_and, bool_or, approx_count_distinct; sum, sum0 and avg of integers or decimals)")
    }
    if (enums.size > enumsRead) {
      throw SubstraitErrors.unsupported(at, s"enumeration argument ${enums(enumsRead)} of $name",
        "no enumeration argument")
    }
  }

  def expectArity(n: Int): Unit = if (args.size != n) wrongArguments(s"$n argument(s)")
  def expectAtLeast(n: Int): Unit = if (args.size < n) wrongArguments(s"at least $n argument(s)")

  def wrongArguments(expected: String): Nothing =
    throw SubstraitErrors.unknownFunction(at, s"$name (expected $expected)", "the catalog",
      args.map(a => SparkTypeNames.of(a.dataType)))
}
