package io.sparksubstrait.decode.readings

import io.sparksubstrait.proto.{AggregateFunction, Plan, Type}

/**
 * An isthmus bug: a `sum` of DECIMAL(p,s) is declared DECIMAL(p,s), its argument's type
 * (Calcite's default SUM type), where the spec's YAML derives DECIMAL(38,s). The type is not
 * what Calcite's users get: Calcite's own runtime sums in unbounded decimals, and the engines
 * they run the query in sum into a wider decimal (Spark p+10, DuckDB 38 digits), so a total past
 * p digits has its value there. Read as written it overflowed at collect time, after the work:
 * TPC-DS q02, q05, q36, q74, q77, q80 at scale factor 1 (a DECIMAL(7,2) sum past 99,999.99).
 * Read by the YAML's derivation, DECIMAL(38,s), with a warning naming the declared type (the
 * plan's other declared types were derived from it by Calcite and stay as written).
 */
private[sparksubstrait] object DecimalSumType extends ReadingOf(Releases.Isthmus) {
  // A warning: the plan's declared type is not read as written.
  override def kind: Reading.Kind = Reading.KnownBug
  val name = "isthmus-decimal-sum-type"
  val meaning =
    "a sum of decimals declared with its argument's precision (Calcite's SUM type) where the spec's has 38 digits; " +
      "read as the spec's DECIMAL(38,s), which the engines isthmus users run sum into"

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Set("sum", "sum0"))
    // No declaration, no call: the walk is skipped.
    if (anchors.isEmpty) plan
    else MessageRewrite.skippingLeaves(plan) {
      case f: AggregateFunction
          if anchors(f.getFunctionReference) && f.getOutputType.hasDecimal &&
            f.getOutputType.getDecimal.getPrecision < 38 =>
        val d = f.getOutputType.getDecimal
        found(s"sum declared DECIMAL(${d.getPrecision},${d.getScale}), read as the spec's DECIMAL(38,${d.getScale})")
        f.toBuilder.setOutputType(Type.newBuilder().setDecimal(d.toBuilder.setPrecision(38))).build()
    }
  }
}
