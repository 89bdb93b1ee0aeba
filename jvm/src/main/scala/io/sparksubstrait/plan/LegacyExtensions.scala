package io.sparksubstrait.plan

/**
 * Extension declarations written in the pre-URN form, which the newest protos removed:
 * `Plan.extension_uris` (field 1) and each declaration's `extension_uri_reference`
 * (field 1). The decoder lifts them out of the plan so that [[io.sparksubstrait.functions.ExtensionRegistry]]
 * can honour them next to URNs.
 *
 * @param uris              URI anchor -> URI
 * @param functionUriRefs   function anchor -> URI anchor
 * @param typeUriRefs       type or type-variation anchor -> URI anchor
 */
final case class LegacyExtensions(
    uris: Map[Int, String] = Map.empty,
    functionUriRefs: Map[Int, Int] = Map.empty,
    typeUriRefs: Map[Int, Int] = Map.empty) {
  def isEmpty: Boolean = uris.isEmpty && functionUriRefs.isEmpty && typeUriRefs.isEmpty
}

/** Field numbers and JSON names of the removed fields. */
private[plan] object LegacyFieldNumbers {
  val PlanExtensionUris = 1
  val DeclarationUriReference = 1
  val PlanExtensionUrisJson = Seq("extensionUris", "extension_uris")
  val UriAnchorJson = Seq("extensionUriAnchor", "extension_uri_anchor")
  val UriReferenceJson = Seq("extensionUriReference", "extension_uri_reference")
}

/** A decoded plan: the proto message plus what the decoder lifted out of removed fields. */
final case class DecodedPlan(proto: io.substrait.proto.Plan, legacy: LegacyExtensions,
    /** Values for the plan's dynamic parameters given through the API (they override the plan's own bindings). */
    parameters: Map[Int, Any] = Map.empty,
    /** The names of every NamedTable the plan reads, found while decoding (for resolving them together). */
    namedTables: Seq[Seq[String]] = Nil,
    /** The producer readings that lifted this plan into the spec's shape (readings.ProducerReadings). */
    readings: Seq[io.sparksubstrait.plan.readings.AppliedReading] = Nil)
