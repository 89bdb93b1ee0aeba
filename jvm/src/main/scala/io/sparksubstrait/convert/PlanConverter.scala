package io.sparksubstrait.convert

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{PlanRel, RelRoot}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Alias, Cast, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.StructType

import io.sparksubstrait.convert.functions.ExtensionRegistry
import io.sparksubstrait.convert.rel.{CatalogTables, NestedNames, RelConverter, SharedSubtrees, WriteRelConverter}
import io.sparksubstrait.decode.DecodedPlan
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.{PlanPath, SpecRelease}

/**
 * The conversion stage's door: a decoded plan's root to one Catalyst logical plan. Picks the
 * root, converts its relation tree and applies the root's names (top-level columns and
 * nested struct fields, depth first). What comes before and after (the readings that need
 * the catalog, the plan shapes, analysis) is the read's: io.sparksubstrait.read.ReadPipeline.
 */
private[sparksubstrait] object PlanConverter {

  /** How many root relations the plan has (each can be read as its own DataFrame). */
  def rootCount(plan: DecodedPlan): Int = plan.proto.getRelationsList.asScala.count(_.hasRoot)

  /**
   * What every converter of this plan may read (its extensions, parameters, shared subtrees,
   * the catalog `tables` it reads); refuses plan-level fields the conversion would drop.
   *
   * @param listener is told what each relation and call became (explain); null for reads.
   */
  def context(session: SparkSession, plan: DecodedPlan, tables: CatalogTables, listener: ConversionListener)
    : ConversionContext = {
    val proto = plan.proto
    val relations = proto.getRelationsList.asScala.toSeq
    val bindings = proto.getParameterBindingsList.asScala.toSeq.zipWithIndex.map { case (b, i) =>
      if (!b.hasValue)
        throw SubstraitErrors.missingField(PlanPath.root.at("parameter_bindings", i), "value", "the parameter's value")
      b.getParameterAnchor -> b.getValue
    }
    val ctx = new ConversionContext(session, ExtensionRegistry(plan), SparkShim.sqlConf(session),
      new SharedSubtrees(relations), tables, bindings.toMap, plan.parameters, listener,
      proto.getExecutionBehavior, SpecRelease.of(proto.getVersion))
    checkPlanLevelFields(plan)
    ctx
  }

  /**
   * The root relation to convert and where it is.
   *
   * @param rootIndex which root to convert (0-based, counting only root relations), for
   *                  plans with several; None requires exactly one.
   */
  def root(plan: DecodedPlan, rootIndex: Option[Int]): (RelRoot, PlanPath) = {
    val relations = plan.proto.getRelationsList.asScala.toSeq
    val roots = relations.zipWithIndex.filter(_._1.getRelTypeCase == PlanRel.RelTypeCase.ROOT)
    val (planRel, index) = rootIndex match {
      case None if roots.size == 1 => roots.head
      case None => throw SubstraitErrors.noSingleRoot(PlanPath.root / "relations", roots.size)
      case Some(i) if i >= 0 && i < roots.size => roots(i)
      case Some(i) => throw SubstraitErrors.invalidPlan(PlanPath.root / "relations", s"root index $i",
          s"an index from 0 to ${roots.size - 1} (the plan has ${roots.size} roots)")
    }
    val at = PlanPath.root.at("relations", index) / "root"
    val root = planRel.getRoot
    if (!root.hasInput) throw SubstraitErrors.missingField(at, "input", "the root relation")
    (root, at)
  }

  /** A root whose input is a WriteRel: the command it asks for (DML, CTAS), which is the whole read. */
  def command(root: RelRoot, at: PlanPath)(implicit ctx: ConversionContext): Option[LogicalPlan] =
    WriteRelConverter.convertRoot(root.getInput, at / "input")

  /** The root's relation tree, converted. */
  def relationTree(root: RelRoot, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan =
    RelConverter.convert(root.getInput, at / "input")

  /** The root's names on `plan`, with the shared subtrees the plan reads defined around it. */
  def named(plan: LogicalPlan, root: RelRoot, at: PlanPath)(implicit ctx: ConversionContext): LogicalPlan =
    ctx.subtrees.wrap(withNames(plan, names(root), at / "names"))

  /** The output names a root gives (top-level columns and nested struct fields, depth first). */
  def names(root: RelRoot): Seq[String] = root.getNamesList.asScala.toSeq

  /** Renames the output columns; nested struct fields are renamed by a (free) cast. */
  private def withNames(plan: LogicalPlan, names: Seq[String], at: PlanPath): LogicalPlan = {
    val output = plan.output
    val schema = DataTypeUtils.fromAttributes(output)
    val renamed = NestedNames(schema, names, at).asInstanceOf[StructType]
    if (renamed == schema) return plan
    val columns: Seq[NamedExpression] = output.zip(renamed.fields).map { case (a, f) =>
      val value = if (f.dataType == a.dataType) a else Cast(a, f.dataType)
      if (value == a && a.name == f.name) a else Alias(value, f.name)()
    }
    Project(columns, plan)
  }

  /**
   * Plan-level fields with a meaning we would otherwise drop. Hints and optimization
   * extensions may be ignored by the spec; enhancements may not.
   */
  private def checkPlanLevelFields(plan: DecodedPlan): Unit = {
    val proto = plan.proto
    if (proto.hasAdvancedExtensions && proto.getAdvancedExtensions.hasEnhancement) {
      throw SubstraitErrors.unsupported(PlanPath.root / "advanced_extensions" / "enhancement",
        "a plan-level enhancement", "no enhancement")
    }
    if (proto.getTypeAliasesCount > 0) {
      throw SubstraitErrors.unsupported(PlanPath.root.at("type_aliases", 0), "type aliases",
        "plans without type aliases")
    }
  }
}
