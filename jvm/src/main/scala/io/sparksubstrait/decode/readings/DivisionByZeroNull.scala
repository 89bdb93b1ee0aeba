package io.sparksubstrait.decode.readings

import io.sparksubstrait.proto.{FunctionOption, Expression, Plan}

/**
 * DuckDB's integer division (`//`, which FunctionSpellings reads as the standard divide)
 * returns NULL for a zero divisor and raises an error on overflow (MIN // -1), and its plans
 * name no option for either; with none, a consumer picks (Spark's ANSI mode raises on both).
 * An integer divide a DuckDB plan writes without options is read with DuckDB's behaviour
 * named in the standard options: on_division_by_zero NULL, overflow ERROR. Its `%` of integers
 * and of decimals is NULL for a zero divisor too (the modulus YAML's on_domain_error: "y is 0");
 * written without options, it is read with on_domain_error NULL (a remainder never overflows).
 * Its floating-point `/` names no options either, and the engines differ by release: DuckDB 1.0
 * (stamp 0.48) answers NULL for a zero divisor (`1.5::DOUBLE / 0` is NULL, 0 / 0 too), 1.1.x
 * (0.53) IEEE's ±∞ and NaN; read with on_division_by_zero NULL or IEEE to match. DuckDB writes
 * `/` of decimals as a divide of fp64 casts (its engine divides decimals in double), so no
 * DuckDB plan holds a decimal divide.
 */
private[sparksubstrait] object DivisionByZeroNull extends ReadingOf(Releases.DuckDb) {
  val name = "duckdb-division-by-zero-null"
  val meaning =
    "integer division and the remainder of integers and decimals name no options, and answer NULL for a zero " +
      "divisor; read as divide with on_division_by_zero NULL, overflow ERROR, and modulus with on_domain_error NULL; " +
      "floating-point division names none either: on_division_by_zero NULL (DuckDB 1.0) or IEEE (1.1)"

  // DuckDB declares its remainder as `%` (FunctionAliases, in convert/, reads it as modulus).
  private val Modulus = Set("modulus", "mod", "%")

  def lift(plan: Plan, found: String => Unit): Plan = {
    val divides = DeclaredFunctions.anchorsNamed(plan, Set("divide"))
    val moduli = DeclaredFunctions.anchorsNamed(plan, Modulus)
    // No declaration, no call: the walk is skipped.
    if (divides.isEmpty && moduli.isEmpty) plan
    else
      liftCalls(plan, divides, moduli, if (ProducerStamp.of(plan).within("duckdb", "0.0", "0.48")) "NULL" else "IEEE",
        found)
  }

  private def liftCalls(plan: Plan, divides: Set[Int], moduli: Set[Int], floatingByZero: String,
    found: String => Unit): Plan =
    MessageRewrite.skippingLeaves(plan) {
      case f: Expression.ScalarFunction
          if divides(f.getFunctionReference) && f.getOptionsCount == 0 &&
            f.hasOutputType && DeclaredTypes.Integers(f.getOutputType.getKindCase) =>
        found(s"divide to ${f.getOutputType.getKindCase.name.toLowerCase} without options")
        f.toBuilder.addOptions(option("on_division_by_zero", "NULL")).addOptions(option("overflow", "ERROR")).build()
      case f: Expression.ScalarFunction
          if divides(f.getFunctionReference) && f.getOptionsCount == 0 && f.hasOutputType &&
            (f.getOutputType.hasFp64 || f.getOutputType.hasFp32) =>
        found(
          s"divide to ${f.getOutputType.getKindCase.name.toLowerCase} without options: on_division_by_zero $floatingByZero")
        f.toBuilder.addOptions(option("on_division_by_zero", floatingByZero)).build()
      case f: Expression.ScalarFunction
          if moduli(f.getFunctionReference) && f.getOptionsCount == 0 && f.hasOutputType &&
            (DeclaredTypes.Integers(f.getOutputType.getKindCase) || f.getOutputType.hasDecimal) =>
        found(s"modulus to ${f.getOutputType.getKindCase.name.toLowerCase} without options")
        f.toBuilder.addOptions(option("on_domain_error", "NULL")).build()
    }

  private def option(name: String, value: String): FunctionOption =
    FunctionOption.newBuilder().setName(name).addPreference(value).build()
}
