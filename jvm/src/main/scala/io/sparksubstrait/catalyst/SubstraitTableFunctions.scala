package io.sparksubstrait.catalyst

import org.apache.spark.sql.catalyst.FunctionIdentifier
import org.apache.spark.sql.catalyst.expressions.{Expression, ExpressionInfo}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.types.{BinaryType, IntegerType, LongType, ShortType, ByteType, StringType}
import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.foundation.PlanPath

/**
 * SQL entry points: `SELECT * FROM substrait(X'…' [, root])` for binary plans and
 * `substrait_json('…' [, root])` for JSON ones. Both give the plan node the analyzer rule
 * converts, so SQL users get the same Catalyst plan as `spark.read.substrait`.
 */
private[sparksubstrait] object SubstraitTableFunctions {
  type Builder = Seq[Expression] => LogicalPlan

  val all: Seq[(FunctionIdentifier, ExpressionInfo, Builder)] = Seq(
    entry("substrait",
      "_FUNC_(plan[, root]) - The rows of a binary Substrait plan (a BINARY value, e.g. X'0a…'); " +
        "root chooses one root of a plan with several.", binary = true),
    entry("substrait_json",
      "_FUNC_(plan[, root]) - The rows of a Substrait plan in protobuf JSON (a STRING); " +
        "root chooses one root of a plan with several.", binary = false))

  private def entry(name: String, usage: String, binary: Boolean): (FunctionIdentifier, ExpressionInfo, Builder) =
    (FunctionIdentifier(name),
      new ExpressionInfo(getClass.getCanonicalName, null, name, usage, "", "", "", "table_funcs", "", "", "built-in"),
      (args: Seq[Expression]) => build(name, args, binary))

  private def build(name: String, args: Seq[Expression], binary: Boolean): LogicalPlan = {
    val at = PlanPath.root
    val usage = s"$name(${if (binary) "binary" else "string"} plan [, int root])"
    if (args.isEmpty || args.size > 2)
      throw SubstraitErrors.invalidPlan(at, s"$name with ${args.size} arguments", usage)
    def constant(e: Expression, what: String): Any = {
      if (!e.foldable) throw SubstraitErrors.invalidPlan(at, s"a $what that is not a constant", usage)
      e.eval()
    }
    val plan = args.head
    val decoded = (plan.dataType, binary) match {
      case (BinaryType, true) =>
        PlanDecoder.fromBytes(constant(plan, "plan").asInstanceOf[Array[Byte]], PlanLimits.active)
      case (_: StringType, false) => PlanDecoder.fromJson(Option(constant(plan, "plan")).map(
            _.asInstanceOf[UTF8String].toString).orNull, PlanLimits.active)
      case (other, _) =>
        throw SubstraitErrors.typeMismatch(at, s"a plan argument of type ${SparkTypeNames.of(other)}", usage)
    }
    val root = args.lift(1).map { r =>
      if (!Seq(ByteType, ShortType, IntegerType, LongType).contains(r.dataType)) {
        throw SubstraitErrors.typeMismatch(at, s"a root argument of type ${SparkTypeNames.of(r.dataType)}", usage)
      }
      Option(constant(r, "root")).map(_.asInstanceOf[Number].intValue())
        .getOrElse(throw SubstraitErrors.invalidPlan(at, "a NULL root", usage))
    }
    UnresolvedSubstraitPlan(decoded, root)
  }
}
