package io.sparksubstrait.decode.readings

import io.sparksubstrait.proto.{FunctionOption, Expression, Plan}

/**
 * DuckDB's integer division (`//`, which FunctionSpellings reads as the standard divide)
 * returns NULL for a zero divisor and raises an error on overflow (MIN // -1), and its plans
 * name no option for either; with none, a consumer picks (Spark's ANSI mode raises on both).
 * An integer divide a DuckDB plan writes without options is read with DuckDB's behaviour
 * named in the standard options: on_division_by_zero NULL, overflow ERROR. Floating-point
 * division is not touched: DuckDB's `/` gives IEEE infinities there.
 */
private[sparksubstrait] object DivisionByZeroNull extends ReadingOf(Releases.DuckDb) {
  val name = "duckdb-integer-division-by-zero"
  val meaning =
    "integer division names no options, and divides by zero to NULL; read as divide with on_division_by_zero NULL, overflow ERROR"

  def lift(plan: Plan, found: String => Unit): Plan = {
    val divides = DeclaredFunctions.anchorsNamed(plan, Set("divide"))
    // No declaration, no call: the walk is skipped.
    if (divides.isEmpty) plan
    else MessageRewrite.skippingLeaves(plan) {
      case f: Expression.ScalarFunction
          if divides(f.getFunctionReference) && f.getOptionsCount == 0 &&
            f.hasOutputType && DeclaredTypes.Integers(f.getOutputType.getKindCase) =>
        found(s"divide to ${f.getOutputType.getKindCase.name.toLowerCase} without options")
        f.toBuilder.addOptions(option("on_division_by_zero", "NULL")).addOptions(option("overflow", "ERROR")).build()
    }
  }

  private def option(name: String, value: String): FunctionOption =
    FunctionOption.newBuilder().setName(name).addPreference(value).build()
}
