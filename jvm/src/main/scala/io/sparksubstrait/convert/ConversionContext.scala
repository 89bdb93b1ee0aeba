package io.sparksubstrait.convert

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Attribute, EvalMode, NamedLambdaVariable}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.rel.{CatalogTables, SharedSubtrees}
import io.sparksubstrait.convert.types.TypeEnv
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.ExtensionRegistry
import io.sparksubstrait.foundation.{PlanPath, SpecRelease}
import io.sparksubstrait.extending.{ExtensionRelations, UserDefinedTypes}

/**
 * What every converter may read while converting one plan. One per conversion: converters
 * share no mutable state across plans, so plans convert concurrently on one session (the
 * only memo, [[SharedSubtrees]], belongs to this conversion).
 */
private[sparksubstrait] final class ConversionContext(
  val session: SparkSession,
  val extensions: ExtensionRegistry,
  val conf: SQLConf,
  val subtrees: SharedSubtrees,
  /** The catalog tables the plan reads, looked up together. */
  val tables: CatalogTables,
  /** The plan's dynamic parameter bindings (literals) and the API's values, which win. */
  val parameterBindings: Map[Int, io.sparksubstrait.proto.Expression.Literal] = Map.empty,
  val parameterValues: Map[Int, Any] = Map.empty,
  /** Who watches the conversion (explain's recorder), or null (a plain read): only the dispatch points notify it. */
  val listener: ConversionListener = null,
  /** How often execution context variables (current_date, …) are evaluated. */
  val executionBehavior: io.sparksubstrait.proto.ExecutionBehavior =
    io.sparksubstrait.proto.ExecutionBehavior.getDefaultInstance,
  /** The spec release the plan says it was written against (all zeros: not stamped). */
  val specRelease: SpecRelease = SpecRelease.Unstamped) {

  /** The overflow / division-by-zero behaviour Spark SQL would use here when a plan leaves it open. */
  def defaultEvalMode: EvalMode.Value = EvalMode.fromSQLConf(conf)

  /**
   * The session's user function mappings (docs/extending.md), read only when a plan calls a
   * function the standard table lacks.
   */
  lazy val userFunctions: io.sparksubstrait.convert.functions.UserFunctions =
    io.sparksubstrait.convert.functions.UserFunctions.of(conf)

  /** Each user mapping analysed once per argument types in this conversion, however often the plan calls it. */
  val userFunctionMemo: scala.collection.mutable.HashMap[Any, Any] = scala.collection.mutable.HashMap.empty

  /** What type and literal conversion reads: the plan's user-defined types. */
  val types: TypeEnv = TypeEnv(extensions.userTypes, new UserDefinedTypes.PerConversion(conf))

  /**
   * The session's Hadoop configuration, made once per conversion: making one copies every
   * Hadoop and SQL setting, and a plan reading files asks for it per file.
   */
  lazy val hadoopConf: org.apache.hadoop.conf.Configuration =
    org.apache.spark.sql.sparksubstrait.SparkShim.sessionState(session).newHadoopConf()

  /**
   * The session's extension relation handlers (docs/extending.md), loaded when the plan first
   * has an extension relation (at `at`): a plan without one reads no setting, loads no class.
   */
  def extensionRelations(at: PlanPath): ExtensionRelations = {
    if (relationHandlers == null) relationHandlers = ExtensionRelations.fromConf(conf, Some(at))
    relationHandlers
  }
  private var relationHandlers: ExtensionRelations = _

  /**
   * The records outer references can see, innermost first: for a subquery, the input record
   * of the relation whose expression holds it; for a lateral join's right input, the left
   * row. Each with the `rel_anchor` of that relation, for references by `rel_reference`.
   */
  private var outerScopes: List[(Option[Int], Seq[Attribute])] = Nil

  /** The `rel_anchor`s of the relations being converted, innermost first. */
  private var relationAnchors: List[Option[Int]] = Nil

  /** Converts one relation (its kind's converter), knowing its `rel_anchor`. */
  def withRelation[T](anchor: Option[Int])(body: => T): T = {
    relationAnchors = anchor :: relationAnchors
    try body
    finally relationAnchors = relationAnchors.tail
  }

  /** Converts a subquery's (or a lateral join's right) relation with `outer` as the record its outer references see. */
  def withOuterScope[T](outer: Seq[Attribute])(body: => T): T = {
    outerScopes = (relationAnchors.headOption.flatten, outer) :: outerScopes
    try body
    finally outerScopes = outerScopes.tail
  }

  /** The record `stepsOut` subquery boundaries out, or the project's error. */
  def outerScope(stepsOut: Int, at: PlanPath): Seq[Attribute] = {
    if (stepsOut < 1)
      throw SubstraitErrors.invalidPlan(at / "steps_out", s"steps_out $stepsOut", "steps_out of at least 1")
    if (outerScopes.isEmpty) throw SubstraitErrors.invalidPlan(at / "steps_out",
      "an outer reference outside any subquery", "an outer reference inside a subquery")
    if (stepsOut > outerScopes.size) throw SubstraitErrors.invalidPlan(at / "steps_out",
      s"steps_out $stepsOut inside ${outerScopes.size} subquer${if (outerScopes.size == 1) "y" else "ies"}",
      "at most as many steps out as enclosing subqueries")
    if (stepsOut > 1 && !SparkShim.outerReferencesInSubqueryProjections)
      throw tooFarOut(at / "steps_out", s"an outer reference $stepsOut subqueries out")
    outerScopes(stepsOut - 1)._2
  }

  /** The record of the enclosing relation whose `rel_anchor` is `anchor`, or the project's error. */
  def outerScopeOf(anchor: Int, at: PlanPath): Seq[Attribute] = outerScopes.indexWhere(_._1.contains(anchor)) match {
    case 0 => outerScopes.head._2
    case -1 => throw SubstraitErrors.invalidPlan(at / "rel_reference", s"rel_reference $anchor",
        s"the rel_anchor of an enclosing relation (${outerScopes.flatMap(_._1).mkString(", ") match {
            case "" => "there is none"; case anchors => s"enclosing: $anchors"
          }})")
    case depth if !SparkShim.outerReferencesInSubqueryProjections =>
      throw tooFarOut(at / "rel_reference", s"an outer reference to relation $anchor, ${depth + 1} subqueries out")
    case depth => outerScopes(depth)._2
  }

  // Spark resolves an outer reference one query out only; a deeper one is carried in level by
  // level through the subqueries' projections (NestedOuterReferences), which Spark 3.5 refuses.
  private def tooFarOut(at: PlanPath, found: String) = SubstraitErrors.unsupported(at, found,
    "a reference to the immediately enclosing query on Spark 3.5 (Spark resolves outer references one level out " +
      "only, and Spark 3.5 refuses them in a subquery's projection, where a deeper one would be carried in: " +
      "Spark 4 reads it)")

  /** The parameters of the lambdas being converted, innermost first (a stack of this conversion). */
  private var lambdaScopes: List[Seq[NamedLambdaVariable]] = Nil

  /** Converts `body` with `parameters` as the innermost lambda's. */
  def withLambdaParameters[T](parameters: Seq[NamedLambdaVariable])(body: => T): T = {
    lambdaScopes = parameters :: lambdaScopes
    try body
    finally lambdaScopes = lambdaScopes.tail
  }

  /** The parameters of the lambda `stepsOut` boundaries out, or the project's error. */
  def lambdaParameters(stepsOut: Int, at: PlanPath): Seq[NamedLambdaVariable] =
    lambdaScopes.lift(stepsOut).getOrElse(throw SubstraitErrors.invalidPlan(at / "steps_out",
        s"steps_out $stepsOut with ${lambdaScopes.size} enclosing lambda(s)",
        "a reference to an enclosing lambda's parameters"))
}
