package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{FunctionArgument, FunctionOption, Type}
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, Cast, HigherOrderFunction, LambdaFunction, SortOrder, Expression => CExpression
}
import org.apache.spark.sql.types.{DataType, DateType, NumericType, TimestampNTZType}

import org.apache.spark.sql.sparksubstrait.SparkShim

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.{SparkTypeNames, TypeConverter}
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.{DeclaredFunction, FunctionCall, OptionDomains}
import io.sparksubstrait.foundation.PlanPath

/** What scalar and aggregate function invocations share: arguments, options, output type. */
private[sparksubstrait] object FunctionArguments {

  /** The converted arguments of a call: values in order, and enumeration arguments in order. */
  final case class Arguments(values: Seq[CExpression], enums: Seq[String])

  /** Value and enum arguments (the decoder lifted older plans' `args` list into `arguments`). */
  def convert(arguments: Seq[FunctionArgument], input: Seq[Attribute], at: PlanPath)(
    implicit ctx: ConversionContext): Arguments = {
    {
      val converted = arguments.zipWithIndex.map { case (a, i) =>
        val argAt = at.at("arguments", i)
        a.getArgTypeCase match {
          case FunctionArgument.ArgTypeCase.VALUE if a.getValue.hasLambda =>
            Right(LambdaConverter.convert(a.getValue.getLambda, input, argAt / "value" / "lambda"))
          case FunctionArgument.ArgTypeCase.VALUE =>
            Right(ExpressionConverter.convert(a.getValue, input, argAt / "value"))
          case FunctionArgument.ArgTypeCase.ENUM => Left(a.getEnum)
          case FunctionArgument.ArgTypeCase.ARGTYPE_NOT_SET =>
            throw SubstraitErrors.missingField(argAt, "arg_type", "a function argument")
          case other => throw SubstraitErrors.unsupported(argAt, s"a ${other.name().toLowerCase} argument",
              "a value or enum argument (type arguments are not supported)")
        }
      }
      Arguments(converted.collect { case Right(v) => v }, converted.collect { case Left(e) => e })
    }
  }

  def options(opts: Seq[FunctionOption], at: PlanPath): Map[String, Seq[String]] = {
    val names = opts.map(_.getName)
    if (names.distinct.size != names.size) {
      throw SubstraitErrors.invalidPlan(at / "options", s"option names ${names.mkString(", ")}",
        "each option at most once")
    }
    opts.map(o => o.getName -> o.getPreferenceList.asScala.toSeq).toMap
  }

  /**
   * One invocation through its catalog entry: the entry or SUBSTRAIT_UNKNOWN_FUNCTION, the
   * options all consumed, the result resolved and typed as the plan declares.
   */
  def invoke[E](fn: DeclaredFunction, entry: Option[E], arguments: Arguments, opts: Seq[FunctionOption],
    outputType: Option[Type], at: PlanPath, sorts: Seq[SortOrder] = Nil)(build: (E, FunctionCall) => CExpression)(
    implicit ctx: ConversionContext): CExpression = {
    val args = arguments.values
    val found = entry.getOrElse(throw SubstraitErrors.unknownFunction(at, fn.compoundName, fn.describeExtension,
        args.map(a => if (a.resolved) SparkTypeNames.of(a.dataType) else "?")))
    val declared = outputType.map(t => TypeConverter.convert(t, at / "output_type")(ctx.types).dataType)
    OptionDomains.check(fn, opts, at)
    val call = new FunctionCall(fn.baseName, args, options(opts, at), at, ctx, declared, arguments.enums, sorts,
      Some(fn.compoundName.dropWhile(_ != ':').drop(1)).filter(_.nonEmpty))
    val built = build(found, call)
    call.checkAllOptionsConsumed()
    // A lambda may only feed a higher-order function (transform, filter, …); anywhere else
    // Spark could not evaluate it.
    if (strayLambda(built, args)) {
      throw SubstraitErrors.unsupported(at, s"a lambda argument to ${fn.compoundName}",
        "lambdas only as the function argument of transform, filter, any_match or all_match")
    }
    val result = withOutputType(checkResolved(built, args, fn, at), outputType, fn, at)
    // The one place function mappings are reported to explain (null: not explaining).
    if (ctx.listener != null) ctx.listener.function(fn, found, outputType, at, result)
    result
  }

  /**
   * Whether a node the build made has a lambda child but is no higher-order function. The
   * arguments were checked when they were converted, so the search stops at them: searching
   * their subtrees again at every level made a deeply nested expression quadratic.
   */
  private def strayLambda(e: CExpression, args: Seq[CExpression]): Boolean = {
    // By identity, in a set: a variadic call's tree has as many nodes as arguments.
    val isArgument =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap[CExpression, java.lang.Boolean]())
    args.foreach(isArgument.add)
    def stray(x: CExpression): Boolean = !isArgument.contains(x) && (
      (!x.isInstanceOf[HigherOrderFunction] && x.children.exists(_.isInstanceOf[LambdaFunction])) ||
        x.children.exists(stray))
    stray(e)
  }

  /**
   * A built expression must be resolved once its arguments are: Catalyst's own input-type
   * check failing, at the top or on any node the mapping built around the arguments (a cast
   * inside a runtime call), means the arguments do not fit the function.
   */
  private def checkResolved(e: CExpression, args: Seq[CExpression], fn: DeclaredFunction, at: PlanPath): CExpression = {
    if (args.forall(_.resolved) && !e.resolved) {
      val unfit = e.collectFirst { case x if x.childrenResolved && !x.resolved => x }.getOrElse(e)
      val reason = unfit.checkInputDataTypes() match {
        case org.apache.spark.sql.catalyst.analysis.TypeCheckResult.TypeCheckFailure(m) => m
        case other => other.toString
      }
      throw SubstraitErrors.typeMismatch(at,
        s"arguments (${args.map(a => SparkTypeNames.of(a.dataType)).mkString(", ")}) for ${fn.compoundName}",
        s"arguments the function accepts ($reason)")
    }
    e
  }

  /**
   * Makes the result carry the plan's declared output type: numeric results are cast to it
   * (producers' decimal rules differ from Spark's, and the plan's type is the contract);
   * any other difference is an error, except where a producer is known to stamp predicates
   * with a wrong type.
   */
  private def withOutputType(e: CExpression, declared: Option[Type], fn: DeclaredFunction, at: PlanPath)(
    implicit ctx: ConversionContext): CExpression = declared match {
    case None => e
    case Some(t) if !e.resolved => e
    case Some(t) =>
      val target: DataType = TypeConverter.convert(t, at / "output_type")(ctx.types).dataType
      (e.dataType, target) match {
        // Nullability inside nested types is Spark's to derive (it only ever widens it).
        case (actual, wanted) if SparkShim.sameTypeIgnoringNullability(actual, wanted) => e
        case (actual: NumericType, wanted: NumericType) => Cast(e, wanted, None, ctx.defaultEvalMode)
        // date to timestamp without zone is exact (a date-time add on whole days).
        case (DateType, TimestampNTZType) => Cast(e, TimestampNTZType)
        case (actual, wanted) =>
          throw SubstraitErrors.typeMismatch(at / "output_type",
            s"output_type ${SparkTypeNames.of(wanted)} for ${fn.compoundName}",
            s"${SparkTypeNames.of(actual)}, the type this function returns for these arguments")
      }
  }
}
