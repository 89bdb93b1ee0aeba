package io.sparksubstrait.convert.functions

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.SimpleExtensionDeclaration.MappingTypeCase

import io.sparksubstrait.convert.types.UserType
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.decode.DecodedPlan
import io.sparksubstrait.foundation.{ExtensionUrns, PlanPath}

/**
 * A function as the plan declares it: the extension it comes from (when the plan says)
 * and its compound name, e.g. `add:i32_i32`.
 *
 * @param extension canonical extension name (`functions_arithmetic` for the URN
 *                  `extension:io.substrait:functions_arithmetic` or any URI ending in
 *                  `/functions_arithmetic.yaml`), the raw URN/URI for other extensions,
 *                  or None when the plan names no resolvable extension.
 */
private[sparksubstrait] final case class DeclaredFunction(anchor: Int, extension: Option[String],
  compoundName: String) {
  def baseName: String = compoundName.takeWhile(_ != ':')
  def describeExtension: String = extension.getOrElse("an undeclared extension")
}

/** The plan's extension declarations: function anchors to [[DeclaredFunction]]s. */
private[sparksubstrait] final class ExtensionRegistry private (functions: Map[Int, DeclaredFunction],
  val userTypes: Map[Int, UserType]) {
  def function(anchor: Int, at: PlanPath): DeclaredFunction =
    functions.getOrElse(anchor,
      throw SubstraitErrors.undeclaredAnchor(at, "function", anchor, functions.keys.map(_.toLong)))
}

private[sparksubstrait] object ExtensionRegistry {
  def apply(plan: DecodedPlan): ExtensionRegistry = {
    val proto = plan.proto
    // Each URN's standard extension, found once (a plan declares many functions per URN).
    val urns =
      proto.getExtensionUrnsList.asScala.map(u => u.getExtensionUrnAnchor -> ExtensionUrns.canonical(u.getUrn)).toMap
    val functions = proto.getExtensionsList.asScala.zipWithIndex.collect {
      case (decl, i) if decl.getMappingTypeCase == MappingTypeCase.EXTENSION_FUNCTION =>
        val f = decl.getExtensionFunction
        val at = PlanPath.root.at("extensions", i) / "extension_function"
        if (f.getName.isEmpty) throw SubstraitErrors.missingField(at, "name", "the function's compound name")
        // A declaration names its extension by URN (older plans' URIs were lifted into URNs
        // by the decoder); producers that name neither, or an anchor that is not declared
        // (DataFusion writes u32::MAX), leave the function to be resolved by name.
        val extension = urns.get(f.getExtensionUrnReference).flatten
        f.getFunctionAnchor -> DeclaredFunction(f.getFunctionAnchor, extension, f.getName)
    }
    val duplicates = functions.groupBy(_._1).collect { case (a, ds) if ds.size > 1 => a }
    if (duplicates.nonEmpty) {
      throw SubstraitErrors.invalidPlan(PlanPath.root / "extensions",
        s"function anchor ${duplicates.head} declared more than once", "unique function anchors")
    }
    val types = proto.getExtensionsList.asScala.collect {
      case decl if decl.getMappingTypeCase == MappingTypeCase.EXTENSION_TYPE =>
        val t = decl.getExtensionType
        val extension = urns.get(t.getExtensionUrnReference).flatten
        t.getTypeAnchor -> UserType(extension, t.getName)
    }.toMap
    new ExtensionRegistry(functions.toMap, types)
  }
}
