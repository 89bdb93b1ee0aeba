package io.sparksubstrait.decode

/** A decoded plan: the pinned spec's messages, legacy fields lifted. */
private[sparksubstrait] final case class DecodedPlan(proto: io.sparksubstrait.proto.Plan,
  /** Values for the plan's dynamic parameters given through the API (they override the plan's own bindings). */
  parameters: Map[Int, Any] = Map.empty,
  /** The names of every NamedTable the plan reads, found while decoding (for resolving them together). */
  namedTables: Seq[Seq[String]] = Nil,
  /** The producer readings that lifted this plan into the spec's shape (readings.ProducerReadings). */
  readings: Seq[io.sparksubstrait.decode.readings.AppliedReading] = Nil,
  /** Whether the plan holds a ReferenceRel: converted to Catalyst CTEs, which Spark's analysis check would unfold. */
  sharesSubtrees: Boolean = false)
