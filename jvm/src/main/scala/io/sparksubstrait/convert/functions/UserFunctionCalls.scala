package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions.{
  Alias, AttributeReference, ExprId, Expression, Literal, NamedExpression, PythonUDF
}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, AggregateFunction}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LocalRelation, LogicalPlan, Project}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types.StringType

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.UserFunctionMapping.{SparkFunction, SqlTemplate}

/**
 * The user's function mappings as catalog entries: a call of a function the standard table
 * does not map, from an extension the session maps (docs/extending.md), becomes the Spark
 * function or SQL expression the mapping names, resolved by Spark's own analyzer over the
 * call's argument types. The standard table is always asked first, so a mapping never
 * replaces a standard function.
 *
 * A mapping sees the call's value arguments (`$1` … `$n`) and, in a SQL template, its
 * options by name (`$rounding`: the plan's first preference, a string, or NULL when the
 * plan leaves it open); an option no template names is refused, as for every function.
 * Neither the arguments nor the option values are ever parsed as SQL: they stand in the
 * analysed expression as placeholders, replaced after analysis.
 */
private[sparksubstrait] object UserFunctionCalls {
  import FunctionCatalog.{AggregateEntry, ScalarEntry}

  def scalar(fn: DeclaredFunction)(implicit ctx: ConversionContext): Option[ScalarEntry] =
    mapping(fn).map(m => ScalarEntry(entryName(m), Set.empty, call => build(m, call, aggregate = false)))

  def aggregate(fn: DeclaredFunction)(implicit ctx: ConversionContext): Option[AggregateEntry] =
    mapping(fn).map(m =>
      AggregateEntry(entryName(m), Set.empty,
        call =>
          build(m, call, aggregate = true) match {
            case f: AggregateFunction => f
            case other => throw SubstraitErrors.unsupported(call.at,
                s"${fn.compoundName} mapped by ${m.source} to " +
                  s"${m.target.describe}, which is ${other.sql} here",
                "an aggregate mapping that is one aggregate " +
                  "function call (a Spark aggregate, or a UDAF registered in the session)")
          }))

  /** How explain names the entry: the mapping and where it was set. */
  private def entryName(m: UserFunctionMapping): String = s"${m.target.describe} (user mapping ${m.source})"

  /**
   * The session's mapping for `fn`. A plan naming a standard URN reaches a mapping only for
   * a function the standard table lacks (the caller asked the table first).
   */
  private def mapping(fn: DeclaredFunction)(implicit ctx: ConversionContext): Option[UserFunctionMapping] =
    if (ctx.userFunctions.isEmpty) None
    else ctx.userFunctions.find(fn.extension.map(urnOf), fn.compoundName)

  /** The URN a canonical extension name stands for (standard ones are stored without their prefix). */
  private def urnOf(extension: String): String =
    if (extension.startsWith("extension:")) extension else s"extension:io.substrait:$extension"

  private def build(m: UserFunctionMapping, call: FunctionCall, aggregate: Boolean)(
    implicit ctx: ConversionContext): Expression = {
    ctx.userFunctions.yamls.get(m.urn).foreach(y => UserFunctionChecks.check(y, m, call, aggregate))
    val options = optionsNamed(m).map(o => o -> call.optionValue(o))
    val resolved = ctx.userFunctionMemo.getOrElseUpdate(
      (m, call.args.map(a => (a.dataType, a.nullable)), options.map(_._1), aggregate),
      resolve(m, call, options, aggregate)).asInstanceOf[Resolved]
    val byId = resolved.arguments.zip(call.args).toMap ++
      resolved.options.zip(options).map { case (id, (_, v)) =>
        id -> (Literal.create(v.orNull, StringType): Expression)
      }
    resolved.expression.transformUp {
      case a: AttributeReference if byId.contains(a.exprId) => byId(a.exprId)
      // A Python UDF's result is an attribute of its own id once Spark extracts it: each call
      // site needs its own, though they share one analysis.
      case p: PythonUDF => p.copy(resultId = NamedExpression.newExprId)
    }
  }

  /** An analysed mapping, its placeholders standing for the arguments and options by id. */
  private final case class Resolved(expression: Expression, arguments: Seq[ExprId], options: Seq[ExprId])

  private def resolve(m: UserFunctionMapping, call: FunctionCall, options: Seq[(String, Option[String])],
    aggregate: Boolean)(implicit ctx: ConversionContext): Resolved = {
    val args = call.args.zipWithIndex.map { case (a, i) =>
      AttributeReference(s"__substrait_arg_${i + 1}", a.dataType, a.nullable)()
    }
    val opts = options.map { case (o, _) => AttributeReference(s"__substrait_option_$o", StringType)() }
    val text = m.target match {
      case SparkFunction(name) =>
        val parts = parse(m, name)(_.parseMultipartIdentifier(name))
        parts.map(p => s"`${p.replace("`", "``")}`").mkString(".") +
          args.indices.map(i => s"`__substrait_arg_${i + 1}`").mkString("(", ", ", ")")
      case SqlTemplate(sql) =>
        SqlTemplates.substitute(sql,
          n =>
            if (n >= 1 && n <= args.size) s"`__substrait_arg_$n`"
            else call.wrongArguments(
              s"at least $n argument(s), as ${m.source}'s template uses $$$n"),
          o => s"`__substrait_option_$o`")
    }
    val expression = parse(m, text)(_.parseExpression(text))
    val relation = LocalRelation(args ++ opts)
    val plan: LogicalPlan =
      if (aggregate) Aggregate(Nil, Seq(Alias(expression, "result")()), relation)
      else Project(Seq(Alias(expression, "result")()), relation)
    val analyzed = try SparkShim.analyze(ctx.session, plan)
    catch {
      case e: org.apache.spark.sql.AnalysisException =>
        throw SubstraitErrors.typeMismatch(call.at,
          s"arguments (${call.args.map(a => SparkTypeNames.of(a.dataType)).mkString(", ")}) for ${call.name}, " +
            s"mapped by ${m.source} to ${m.target.describe}",
          s"arguments the mapping accepts (Spark: ${e.getMessage.linesIterator.next()})")
    }
    // A SQL function (CREATE FUNCTION … RETURN) is inlined by the analyzer as a projection of
    // its parameters below the call: a plan, not an expression, which a call site cannot hold.
    if (analyzed.children.map(_.getClass) != Seq(classOf[LocalRelation])) {
      throw SubstraitErrors.unsupported(call.at,
        s"${call.name} mapped by ${m.source} to ${m.target.describe}, " +
          "which Spark inlines as a plan of its own (a SQL function made with CREATE FUNCTION)",
        "a Spark function that is an expression (a built-in, a Scala, Java or Python UDF), or the SQL function's " +
          "body as a sql template")
    }
    val result = analyzed.expressions.headOption.collect { case Alias(child, _) => child }
      .getOrElse(throw new IllegalStateException(s"no result in ${analyzed.getClass.getSimpleName}"))
    val body = if (!aggregate) result
    else result match {
      case AggregateExpression(f, _, false, None, _) => f
      case other => other
    }
    Resolved(body, args.map(_.exprId), opts.map(_.exprId))
  }

  /** The option names a SQL template reads (`$rounding`). */
  private def optionsNamed(m: UserFunctionMapping): Seq[String] = m.target match {
    case SqlTemplate(sql) => SqlTemplates.optionNames(sql)
    case _ => Nil
  }

  private def parse[T](m: UserFunctionMapping, text: String)(
    f: org.apache.spark.sql.catalyst.parser.ParserInterface => T)(implicit ctx: ConversionContext): T =
    try f(SparkShim.sessionState(ctx.session).sqlParser)
    catch {
      case e: org.apache.spark.sql.catalyst.parser.ParseException =>
        throw SubstraitErrors.invalidSetting(m.source, m.target.describe,
          s"a Spark function name or SQL expression that parses (${e.getMessage.linesIterator.next()})")
    }

}
