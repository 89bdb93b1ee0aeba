package io.sparksubstrait.decode.readings

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{AggregateFunction, Plan}

/**
 * A known isthmus bug: a `sum` of DECIMAL(p,s) is declared DECIMAL(p,s), its argument's type
 * (Calcite's default SUM type; Calcite's own runtime sums in unbounded decimals and never
 * meets it), where the spec's type is DECIMAL(38,s). A declared output type is the plan's
 * contract, so a sum of more than p digits overflows, an error under ANSI and NULL without
 * it, where the query's SQL has its value: TPC-DS q02, q36, q74, q77 at scale factor 1 do
 * (a DECIMAL(7,2) sum past 99,999.99). Run as written, with a warning at each such sum.
 */
private[sparksubstrait] object DecimalSumType extends FoundBug(Releases.Isthmus) {
  val name = "isthmus-decimal-sum-type"
  val meaning =
    "a sum of decimals declared with its argument's precision (Calcite's SUM type) where the spec's has 38 digits, so a larger sum overflows; run as written"

  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Set("sum"))
    // No declaration, no call: nothing to look for.
    if (anchors.isEmpty) None
    else Some {
      case (f: AggregateFunction, _)
          if anchors(f.getFunctionReference) && f.getOutputType.hasDecimal &&
            f.getOutputType.getDecimal.getPrecision < 38 =>
        val d = f.getOutputType.getDecimal
        found(s"sum declared DECIMAL(${d.getPrecision},${d.getScale}), the spec's type DECIMAL(38,${d.getScale})")
    }
  }
}
