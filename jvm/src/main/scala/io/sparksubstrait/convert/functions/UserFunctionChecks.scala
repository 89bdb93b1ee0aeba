package io.sparksubstrait.convert.functions

import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors

/**
 * A call of a user-mapped function checked against the user's extension YAML, as the
 * standard functions are against theirs: the function exists there (of the call's kind),
 * the declared signature is one of its implementations', the argument count and types fit
 * one, and every option value is one the implementation allows.
 */
private[functions] object UserFunctionChecks {
  def check(yaml: UserExtensionYaml, m: UserFunctionMapping, call: FunctionCall, aggregate: Boolean): Unit = {
    val kinds = if (aggregate) Set("aggregate", "window") else Set("scalar")
    val all = yaml.impls(call.name)
    val ofKind = all.filter(i => kinds(i.kind))
    def signatures(impls: Seq[UserExtensionYaml.Impl]) = impls.map(i => s"${call.name}:${i.signature}").distinct
    if (ofKind.isEmpty) {
      throw SubstraitErrors.unknownFunction(call.at, call.name,
        s"${m.urn} (its YAML, ${yaml.source}, declares ${if (all.isEmpty) "no function of that name"
          else
            s"it as ${all.map(_.kind).distinct.mkString(" and ")}, not ${kinds.mkString(" or ")}"})",
        call.argTypes.map(SparkTypeNames.of))
    }
    val signed = m.signature.orElse(call.declaredSignature) match {
      case Some(sig) =>
        val matching = ofKind.filter(_.signature.equalsIgnoreCase(sig))
        if (matching.isEmpty) {
          throw SubstraitErrors.unknownFunction(call.at, s"${call.name}:$sig",
            s"${m.urn} (its YAML, ${yaml.source}, declares ${signatures(ofKind).mkString(", ")})",
            call.argTypes.map(SparkTypeNames.of))
        }
        matching
      case None => ofKind
    }
    val count = call.args.size + call.enumCount
    val fitting = signed.filter(i =>
      i.accepts(count) &&
        call.args.indices.forall(a => UserExtensionYaml.accepts(i.argType(a), call.arg(a).dataType)))
    if (fitting.isEmpty) {
      throw SubstraitErrors.typeMismatch(call.at,
        s"arguments (${call.argTypes.map(SparkTypeNames.of).mkString(", ")}) for ${call.name}",
        s"the arguments of ${signatures(signed).mkString(" or ")}, as ${yaml.source} declares")
    }
    call.optionNames.foreach { option =>
      val allowed = fitting.flatMap(_.options.get(option)).flatten.distinct
      if (allowed.isEmpty) {
        throw SubstraitErrors.invalidPlan(call.at / "options", s"option $option of ${call.name}",
          s"an option ${yaml.source} declares for it (${fitting.flatMap(_.options.keys).distinct.sorted
              .mkString(", ") match { case "" => "none"; case o => o }})")
      }
      call.optionPreferences(option).find(p => !allowed.contains(p.toUpperCase)).foreach { bad =>
        throw SubstraitErrors.invalidPlan(call.at / "options", s"option $option = $bad of ${call.name}",
          s"one of ${allowed.mkString(", ")} (the values ${yaml.source} allows)")
      }
    }
  }
}
