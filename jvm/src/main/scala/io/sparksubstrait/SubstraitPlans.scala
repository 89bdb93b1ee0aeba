package io.sparksubstrait

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.AttributeReference
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, LogicalPlan}
import org.apache.spark.sql.types.{BinaryType, StringType}
import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.catalyst.{ResolveSubstraitPlans, UnresolvedSubstraitPlan}
import io.sparksubstrait.connect.SubstraitRelationPayload
import io.sparksubstrait.convert.PlanConverter
import io.sparksubstrait.explain.SubstraitExplain
import io.sparksubstrait.convert.functions.{UserFunctionMapping, UserFunctionRegistration}
import io.sparksubstrait.read.ReadPipeline
import io.sparksubstrait.decode.{DecodedPlan, PlanDecoder, PlanLimits}
import io.sparksubstrait.write.{PlanWriter, WriteTarget}

/**
 * The Java- and Py4J-friendly entry points: a Substrait plan in, a DataFrame out.
 *
 * With the extension enabled, the plan travels as an [[UnresolvedSubstraitPlan]] and the
 * analyzer converts it; without it (jar on the classpath only) it is converted here, to
 * the same Catalyst plan.
 */
object SubstraitPlans {

  /** A binary-encoded `substrait.Plan` with one root. */
  def read(session: SparkSession, plan: Array[Byte]): DataFrame =
    toDataFrame(session, PlanDecoder.fromBytes(plan, limits(session)), None)

  /** Root number `root` (0-based, among the plan's roots) of a binary-encoded `substrait.Plan`. */
  def read(session: SparkSession, plan: Array[Byte], root: Int): DataFrame =
    toDataFrame(session, PlanDecoder.fromBytes(plan, limits(session)), Some(root))

  /** A `substrait.Plan` in protobuf's JSON encoding, with one root. */
  def readJson(session: SparkSession, json: String): DataFrame =
    toDataFrame(session, PlanDecoder.fromJson(json, limits(session)), None)

  /** Root number `root` of a `substrait.Plan` in protobuf's JSON encoding. */
  def readJson(session: SparkSession, json: String, root: Int): DataFrame =
    toDataFrame(session, PlanDecoder.fromJson(json, limits(session)), Some(root))

  /**
   * A binary plan with values for its dynamic parameters (anchor -> value: numbers,
   * booleans, strings, or strings in the parameter type's SQL form, e.g. '2024-01-31' for a
   * date; null for NULL). `root` may be null (the plan's one root).
   */
  def read(session: SparkSession, plan: Array[Byte], root: java.lang.Integer, params: java.util.Map[_, _]): DataFrame =
    toDataFrame(session, PlanDecoder.fromBytes(plan, limits(session)).copy(parameters = parameterMap(params)),
      Option(root).map(_.intValue))

  /** A JSON plan with values for its dynamic parameters, as for `read`. */
  def readJson(session: SparkSession, json: String, root: java.lang.Integer, params: java.util.Map[_, _]): DataFrame =
    toDataFrame(session, PlanDecoder.fromJson(json, limits(session)).copy(parameters = parameterMap(params)),
      Option(root).map(_.intValue))

  /**
   * The plan explorer: the explain document (JSON, docs/explain.md) of a binary plan's root
   * `root` (null: its one root) with `params` for its dynamic parameters (may be null).
   * Nothing runs; an invalid plan raises the error `read` raises.
   */
  def explain(session: SparkSession, plan: Array[Byte], root: java.lang.Integer, params: java.util.Map[_, _]): String =
    SubstraitExplain.json(session, PlanDecoder.fromBytes(plan, limits(session)).copy(parameters = parameterMap(params)),
      Option(root).map(_.intValue))

  /** The explain document of a JSON plan, as for `explain`. */
  def explainJson(session: SparkSession, json: String, root: java.lang.Integer, params: java.util.Map[_, _]): String =
    SubstraitExplain.json(session, PlanDecoder.fromJson(json, limits(session)).copy(parameters = parameterMap(params)),
      Option(root).map(_.intValue))

  private def parameterMap(params: java.util.Map[_, _]): Map[Int, Any] =
    if (params == null) Map.empty
    else params.asScala.map {
      case (k: java.lang.Number, v) => k.intValue -> v
      case (k, _) => throw new IllegalArgumentException(s"dynamic parameter anchors are integers, got $k")
    }.toMap

  /** How many roots a binary plan has: each can be read with `read(session, plan, root)`. */
  def rootCount(plan: Array[Byte]): Int = PlanConverter.rootCount(PlanDecoder.fromBytes(plan, PlanLimits.active))

  /** A plan file: `.json` is read as JSON, anything else as binary. */
  def readFile(session: SparkSession, path: String): DataFrame = {
    val bytes = Files.readAllBytes(Paths.get(path))
    if (path.toLowerCase.endsWith(".json")) readJson(session, new String(bytes, StandardCharsets.UTF_8))
    else read(session, bytes)
  }

  /**
   * Writing: a DataFrame's optimized logical plan as a binary `substrait.Plan`
   * (docs/writing.md). Anything without an exact Substrait form raises SUBSTRAIT_UNWRITABLE_PLAN.
   */
  def write(df: DataFrame): Array[Byte] = PlanWriter.write(df).toByteArray

  /** The written plan in protobuf's JSON encoding. */
  def writeJson(df: DataFrame): String = PlanWriter.json(PlanWriter.write(df))

  /**
   * The Py4J entry: the optimized (or analyzed) plan, for `target` (null: the pinned spec;
   * `duckdb-1.1`: the encoding DuckDB 1.1 reads), as binary or JSON (`json`).
   */
  def write(df: DataFrame, optimized: Boolean, target: String, json: Boolean): Any = {
    val plan = PlanWriter.write(df, optimized, WriteTarget.named(target))
    if (json) PlanWriter.json(plan) else plan.toByteArray
  }

  /**
   * A Spark Connect client's write request: `input` (its DataFrame's plan) written as a
   * Substrait plan, as one row of one column `plan` (binary, or the JSON string).
   */
  def writtenPlanRow(session: SparkSession, input: LogicalPlan, request: SubstraitRelationPayload.WriteRequest)
    : LogicalPlan = {
    val written = write(SparkShim.ofRows(session, input), !request.analyzed, request.target, request.json)
    val (value, dataType) = written match {
      case json: String => (org.apache.spark.unsafe.types.UTF8String.fromString(json), StringType)
      case bytes => (bytes, BinaryType)
    }
    LocalRelation(Seq(AttributeReference("plan", dataType, nullable = false)()), Seq(InternalRow(value)))
  }

  /**
   * Maps function `name` (`my_add`, or `my_add:i64_i64` for that signature only) of the user
   * extension `urn` to the Spark function `sparkFunction` (a built-in, a session UDF, a
   * catalog function), for this session (docs/extending.md). Sets the session's
   * `spark.substrait.function.<alias>.*` settings; refuses a standard function's name.
   */
  def registerFunction(session: SparkSession, urn: String, name: String, sparkFunction: String): Unit =
    UserFunctionRegistration.register(session, urn, name, UserFunctionMapping.SparkFunction(sparkFunction))

  /** Maps function `name` of extension `urn` to a SQL expression over its arguments `$1` … `$n`. */
  def registerSqlFunction(session: SparkSession, urn: String, name: String, sql: String): Unit =
    UserFunctionRegistration.register(session, urn, name, UserFunctionMapping.SqlTemplate(sql))

  /** Removes this session's mappings of `name` from `urn`. */
  def unregisterFunction(session: SparkSession, urn: String, name: String): Unit =
    UserFunctionRegistration.unregister(session, urn, name)

  /** This session's function mappings, one line each (`urn#name -> target (where set)`). */
  def registeredFunctions(session: SparkSession): java.util.List[String] =
    UserFunctionRegistration.registered(SparkShim.sqlConf(session)).map(_.describe).asJava

  /**
   * A user extension YAML (its text): calls of its URN's mapped functions are then checked
   * against its signatures and options. Returns the YAML's URN.
   */
  def registerExtensionYaml(session: SparkSession, yaml: String): String =
    UserFunctionRegistration.registerYaml(session, yaml)

  /** Whether `session` runs with the extension (then the analyzer converts plans). */
  def extensionEnabled(session: SparkSession): Boolean =
    SparkShim.resolutionRuleNames(session).contains(classOf[ResolveSubstraitPlans].getName)

  private def limits(session: SparkSession): PlanLimits = PlanLimits.fromConf(SparkShim.sqlConf(session))

  /**
   * The Catalyst plan of a Spark Connect relation payload (the Connect plugin's one call):
   * the same plan `read`/`readJson` give, so a Connect client gets the same rows and errors.
   */
  def logicalPlan(session: SparkSession, payload: SubstraitRelationPayload.Payload): LogicalPlan = {
    val decoded = payload.plan.fold(PlanDecoder.fromBytes(_, limits(session)), PlanDecoder.fromJson(_, limits(session)))
    logicalPlan(session, decoded.copy(parameters = payload.parameters), payload.root)
  }

  /**
   * A plan with shared subtrees (ReferenceRel) is converted here even with the extension: its
   * CTEs come out checked and marked analyzed, so Spark's analysis of the DataFrame stops at
   * once, where the analyzer's final check would first inline every CTE (2^n copies of a DAG
   * of n levels; [[org.apache.spark.sql.sparksubstrait.SparkShim.checkAndMarkAnalyzed]] checks
   * each definition once instead).
   */
  private def logicalPlan(session: SparkSession, plan: DecodedPlan, root: Option[Int]): LogicalPlan =
    if (extensionEnabled(session) && !plan.sharesSubtrees) UnresolvedSubstraitPlan(plan, root)
    else ReadPipeline.read(session, plan, root)

  private def toDataFrame(session: SparkSession, plan: DecodedPlan, root: Option[Int]): DataFrame =
    SparkShim.ofRows(session, logicalPlan(session, plan, root))
}
