package io.sparksubstrait.decode.readings

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Plan, Type}

/**
 * A known ibis-substrait bug: a product of decimals is declared with ibis' promoted type,
 * the wider argument's precision and scale (DECIMAL(15,2) * DECIMAL(15,2) declared
 * DECIMAL(15,2)), not the spec's exact product type (DECIMAL(31,4)). A declared output type
 * is the plan's contract, so the product is rounded to the declared scale; ibis' engine
 * keeps every digit, so sums of such products (TPC-H Q1, Q3, Q5, Q6, Q10) differ by cents.
 * Run as written, with a warning at each such multiply.
 */
private[sparksubstrait] object DecimalProductType extends FoundBug(Releases.Ibis) {
  val name = "ibis-decimal-product-type"
  val meaning =
    "a product of decimals declared with its wider argument's type, so rounded to that scale; run as written"

  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] =
    callsOf(plan, Set("multiply")) { (f, at) =>
      val d = f.getOutputType.getDecimal
      if (f.getOutputType.getKindCase == Type.KindCase.DECIMAL && d.getScale > 0) {
        found(s"$at: multiply declared DECIMAL(${d.getPrecision},${d.getScale})")
      }
    }
}
