package io.sparksubstrait.plan.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{FunctionOption, Expression, Plan, Type}

/**
 * DuckDB's integer division (`//`, which FunctionSpellings reads as the standard divide)
 * returns NULL for a zero divisor and raises an error on overflow (MIN // -1), and its plans
 * name no option for either; with none, a consumer picks (Spark's ANSI mode raises on both).
 * An integer divide a DuckDB plan writes without options is read with DuckDB's behaviour
 * named in the standard options: on_division_by_zero NULL, overflow ERROR. Floating-point
 * division is not touched: DuckDB's `/` gives IEEE infinities there.
 */
object DivisionByZeroNull extends Reading {
  val name = "duckdb-integer-division-by-zero"
  val releases = "DuckDB 1.0 to 1.1.3 with duckdb-extension-substrait (spec 0.48 to 0.53)"
  val meaning = "integer division names no options, and divides by zero to NULL; read as divide with on_division_by_zero NULL, overflow ERROR"

  def appliesTo(stamp: ProducerStamp): Boolean = stamp.within("duckdb", "0.0", ProducerStamp.Newest)

  private val Integers = Set(Type.KindCase.I8, Type.KindCase.I16, Type.KindCase.I32, Type.KindCase.I64)

  def lift(plan: Plan, found: String => Unit): Plan = {
    val divides = plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map(_.getExtensionFunction)
      .filter(_.getName.takeWhile(_ != ':') == "divide").map(_.getFunctionAnchor).toSet
    MessageRewrite(plan) {
      case f: Expression.ScalarFunction if divides(f.getFunctionReference) && f.getOptionsCount == 0 &&
          f.hasOutputType && Integers(f.getOutputType.getKindCase) =>
        found(s"divide to ${f.getOutputType.getKindCase.name.toLowerCase} without options")
        f.toBuilder.addOptions(option("on_division_by_zero", "NULL")).addOptions(option("overflow", "ERROR")).build()
    }
  }

  private def option(name: String, value: String): FunctionOption =
    FunctionOption.newBuilder().setName(name).addPreference(value).build()
}
