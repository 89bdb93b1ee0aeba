package io.sparksubstrait.plan

/**
 * Known departures of real producers from the spec, keyed on `Plan.version.producer`.
 * Each is a documented reading (docs/producers.md), applied only for that producer.
 */
final case class ProducerCompat(
    /** DuckDB (<= 1.1) means a ProjectRel without emit to output only its expressions. */
    projectOutputsOnlyExpressions: Boolean,
    /** DuckDB stamps predicates with their argument type as output_type. */
    predicateOutputTypeUnreliable: Boolean,
    /**
     * DataFusion writes undeclared type variations for Arrow layouts (Utf8View = 2, large
     * types = 1): same values, different memory layout, so they are read as the base type.
     */
    undeclaredVariationsAreLayouts: Boolean)

object ProducerCompat {
  val none: ProducerCompat = ProducerCompat(false, false, false)

  def forProducer(producer: String): ProducerCompat = producer.trim.toLowerCase match {
    case "duckdb" => none.copy(projectOutputsOnlyExpressions = true, predicateOutputTypeUnreliable = true)
    case "datafusion" => none.copy(undeclaredVariationsAreLayouts = true)
    case _ => none
  }
}
