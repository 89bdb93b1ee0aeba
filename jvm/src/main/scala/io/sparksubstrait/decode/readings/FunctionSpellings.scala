package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{
  AggregateFunction, Expression, FunctionArgument, FunctionOption, Plan, SimpleExtensionDeclaration
}

/**
 * Function names and argument lists a producer writes outside the standard extensions, each
 * with one meaning in that producer's engine, lifted to the standard function: a rename of
 * the declaration (DataFusion's `str_concat` is `concat`) or the argument the producer
 * leaves to its engine's default (DataFusion's one-argument `round(x)` rounds to 0 digits;
 * `median(x)` is exact; DuckDB's one-argument `string_agg(x)` joins with ','), or, where the
 * name means the standard function for some argument types only, a retarget of the calls
 * whose declared output type says so (DuckDB's `//` on integers is `divide`; on doubles it
 * is no standard function) to a declaration of the standard name added to the plan.
 */
private[sparksubstrait] final case class FunctionSpellings(name: String, releases: String,
  applies: ProducerStamp => Boolean,
  renames: Map[String, String], defaults: Seq[FunctionSpellings.Default],
  retargets: Seq[FunctionSpellings.Retarget] = Nil, truncatesDecimalMedians: Boolean = false,
  nullProductOfNothing: Boolean = false) extends Reading {
  val meaning: String = "functions outside the standard extensions, read as the standard ones: " +
    (renames.toSeq.sorted.map { case (a, b) => s"$a as $b" } ++ retargets.map(_.describe) ++
      defaults.map(_.describe) ++
      (if (truncatesDecimalMedians) Seq("median of a decimal truncated to its scale") else Nil) ++
      (if (nullProductOfNothing) Seq("product of no values NULL") else Nil)).mkString(", ")

  def appliesTo(stamp: ProducerStamp): Boolean = applies(stamp)

  def lift(plan: Plan, found: String => Unit): Plan = {
    def base(n: String) = DeclaredFunctions.baseName(n)
    val names = plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map { d =>
      d.getExtensionFunction.getFunctionAnchor -> base(d.getExtensionFunction.getName)
    }.toMap
    val renamed = plan.toBuilder
    plan.getExtensionsList.asScala.zipWithIndex.foreach { case (d, i) =>
      if (d.hasExtensionFunction && renames.contains(base(d.getExtensionFunction.getName))) {
        val f = d.getExtensionFunction
        val to = renames(base(f.getName)) + f.getName.drop(base(f.getName).length)
        found(s"${f.getName} as $to")
        renamed.setExtensions(i, SimpleExtensionDeclaration.newBuilder(d).setExtensionFunction(f.toBuilder.setName(to)))
      }
    }
    val retargeted = retarget(renamed, names, found)
    def default(anchor: Int, arity: Int): Option[FunctionSpellings.Default] =
      names.get(anchor).flatMap(n => defaults.find(d => d.function == n && d.arity == arity))
    def completed(d: FunctionSpellings.Default, args: java.util.List[FunctionArgument]) = {
      found(d.describe)
      d.complete(args.asScala.toSeq).asJava
    }
    // Calls can only reference declared functions: without a declaration a default
    // completes, the walk is skipped.
    val completedPlan = if (!names.values.exists(n => defaults.exists(_.function == n))) retargeted
    else MessageRewrite.skippingLeaves(retargeted) {
      case f: Expression.ScalarFunction if default(f.getFunctionReference, f.getArgumentsCount).isDefined =>
        val d = default(f.getFunctionReference, f.getArgumentsCount).get
        f.toBuilder.clearArguments().addAllArguments(completed(d, f.getArgumentsList)).build()
      case f: AggregateFunction if default(f.getFunctionReference, f.getArgumentsCount).isDefined =>
        val d = default(f.getFunctionReference, f.getArgumentsCount).get
        val options = d.options(f)
        if (options.nonEmpty) found(s"${d.function} declared ${f.getOutputType.getKindCase.name.toLowerCase}: " +
          options.map(o => s"${o.getName} ${o.getPreferenceList.asScala.mkString(",")}").mkString(", "))
        f.toBuilder.clearArguments().addAllArguments(completed(d, f.getArgumentsList)).addAllOptions(options.asJava)
          .build()
    }
    val medians = if (!truncatesDecimalMedians || !names.values.exists(_ == "median")) completedPlan
    else truncatingDecimalMedians(completedPlan, names.filter(_._2 == "median").keySet, found)
    if (!nullProductOfNothing || !names.values.exists(_ == "product")) medians
    else nullProducts(medians, names.filter(_._2 == "product").keySet, found)
  }

  /**
   * The producer's product of no values (no rows, or only NULLs) is NULL where the standard's is
   * 1 (DuckDB): an aggregate of one grouping set with such products gets a max of each product's
   * argument beside it (NULL exactly when there is no value), and a projection above gives NULL
   * of the product's declared type where that max is NULL, else the product, in the aggregate's
   * own output order (and emit). `max` and `is_null` are declared by name, as DuckDB declares its own.
   */
  private def nullProducts(plan: Plan, products: Set[Int], found: String => Unit): Plan = {
    import io.sparksubstrait.proto.{AggregateRel, ProjectRel, Rel, RelCommon, Type}
    val max = DeclaredFunctions.freeAnchor(plan)
    val isNull = max + 1
    def field(i: Int): Expression = Expression.newBuilder().setSelection(Expression.FieldReference.newBuilder()
        .setDirectReference(Expression.ReferenceSegment.newBuilder()
            .setStructField(Expression.ReferenceSegment.StructField.newBuilder().setField(i)))
        .setRootReference(Expression.FieldReference.RootReference.getDefaultInstance)).build()
    def isProduct(m: AggregateRel.Measure) = products(m.getMeasure.getFunctionReference) &&
      m.getMeasure.getArgumentsCount == 1 && m.getMeasure.getArguments(0).hasValue && m.getMeasure.hasOutputType
    var used = false
    val lifted = MessageRewrite.located(plan) {
      case (rel: Rel, at)
          if rel.hasAggregate && rel.getAggregate.getGroupingsCount <= 1 &&
            rel.getAggregate.getMeasuresList.asScala.exists(isProduct) &&
            !rel.getAggregate.getMeasuresList.asScala.exists(_.getMeasure.getFunctionReference == max) =>
        used = true
        val agg = rel.getAggregate
        val keys =
          if (agg.getGroupingExpressionsCount > 0) agg.getGroupingExpressionsCount
          else agg.getGroupingsList.asScala.headOption.map(_.getGroupingExpressionsCount).getOrElse(0)
        val measures = agg.getMeasuresList.asScala.toSeq
        val ps = measures.indices.filter(j => isProduct(measures(j)))
        val b = agg.toBuilder.setCommon(RelCommon.newBuilder(agg.getCommon).clearEmit())
        ps.foreach { j =>
          found(s"${(at / "aggregate").at("measures", j)}: product of no values NULL")
          val m = measures(j)
          b.addMeasures(m.toBuilder.setMeasure(m.getMeasure.toBuilder.setFunctionReference(max).clearOutputType()
                .clearOptions()))
        }
        val width = keys + measures.size + ps.size
        val project = ProjectRel.newBuilder().setInput(Rel.newBuilder().setAggregate(b))
        ps.zipWithIndex.foreach { case (j, k) =>
          val test = Expression.ScalarFunction.newBuilder().setFunctionReference(isNull).addArguments(
            FunctionArgument.newBuilder().setValue(field(keys + measures.size + k)))
            .setOutputType(Type.newBuilder().setBool(Type.Boolean.newBuilder()
                  .setNullability(Type.Nullability.NULLABILITY_REQUIRED)))
          project.addExpressions(Expression.newBuilder().setIfThen(Expression.IfThen.newBuilder()
                .addIfs(Expression.IfThen.IfClause.newBuilder().setIf(Expression.newBuilder().setScalarFunction(test))
                    .setThen(Expression.newBuilder().setLiteral(
                        Expression.Literal.newBuilder().setNull(measures(j).getMeasure.getOutputType))))
                .setElse(field(keys + j))))
        }
        val direct = (0 until keys + measures.size).map { c =>
          val j = c - keys
          if (j >= 0 && ps.contains(j)) width + ps.indexOf(j) else c
        }
        val emitted =
          if (agg.getCommon.hasEmit) agg.getCommon.getEmit.getOutputMappingList.asScala.map(i => direct(i.intValue))
          else direct
        project.setCommon(RelCommon.newBuilder().setEmit(
            RelCommon.Emit.newBuilder().addAllOutputMapping(emitted.map(Int.box).asJava)))
        rel.toBuilder.clearAggregate().setProject(project).build()
    }
    if (!used) lifted
    else lifted.toBuilder
      .addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
          SimpleExtensionDeclaration.ExtensionFunction.newBuilder().setFunctionAnchor(max).setName("max")))
      .addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
          SimpleExtensionDeclaration.ExtensionFunction.newBuilder().setFunctionAnchor(isNull).setName("is_null")))
      .build()
  }

  /**
   * The producer's median of a decimal, which declares no type (DataFusion), typed by its
   * argument (InputTypes: a column of the aggregate's input): the mean of the middle values
   * truncated toward zero to the scale, the standard median's rounding TRUNCATE.
   */
  private def truncatingDecimalMedians(plan: Plan, medians: Set[Int], found: String => Unit): Plan =
    MessageRewrite.located(plan) {
      case (rel: io.sparksubstrait.proto.Rel, at) if rel.hasAggregate =>
        val in = InputTypes.output(rel.getAggregate.getInput)
        val b = rel.toBuilder
        rel.getAggregate.getMeasuresList.asScala.zipWithIndex.foreach { case (m, i) =>
          val f = m.getMeasure
          val args = f.getArgumentsList.asScala.filter(_.hasValue)
          val decimal = args.size == 1 && InputTypes.typeOf(args.head.getValue, in).exists(_.hasDecimal)
          if (medians(f.getFunctionReference) && decimal && !f.getOptionsList.asScala.exists(_.getName == "rounding")) {
            found(s"${(at / "aggregate").at("measures", i)}: median of a decimal, rounding TRUNCATE")
            b.getAggregateBuilder.getMeasuresBuilder(i).getMeasureBuilder.addOptions(
              FunctionOption.newBuilder().setName("rounding").addPreference("TRUNCATE"))
          }
        }
        b.build()
    }

  /** Calls a retarget matches point at a new declaration of its standard name (one per retarget used). */
  private def retarget(plan: Plan.Builder, names: Map[Int, String], found: String => Unit): Plan = {
    if (!retargets.exists(r => names.values.exists(_ == r.function))) return plan.build()
    val declarations = plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map(_.getExtensionFunction)
    var next = (declarations.map(_.getFunctionAnchor) :+ 0).max
    val added = scala.collection.mutable.LinkedHashMap.empty[(Int, String), Int]
    val calls = MessageRewrite.skippingLeaves(plan.build()) {
      case f: Expression.ScalarFunction
          if retargets.exists(r => names.get(f.getFunctionReference).contains(r.function) && r.when(f)) =>
        val r = retargets.find(r => names.get(f.getFunctionReference).contains(r.function) && r.when(f)).get
        found(r.describe)
        val anchor = added.getOrElseUpdate((f.getFunctionReference, r.to), { next += 1; next })
        f.toBuilder.setFunctionReference(anchor).build()
    }
    if (added.isEmpty) return calls
    val b = calls.toBuilder
    added.foreach { case ((from, to), anchor) =>
      // The same extension reference as the producer's declaration: DuckDB's folder URI resolves names among the standard ones.
      val original = declarations.find(_.getFunctionAnchor == from).get
      b.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
          original.toBuilder.setFunctionAnchor(anchor).setName(to)))
    }
    b.build()
  }
}

private[sparksubstrait] object FunctionSpellings {

  /** `function` called with `arity` arguments means the standard call with `complete`'s arguments. */
  final case class Default(function: String, arity: Int, describe: String,
    complete: Seq[FunctionArgument] => Seq[FunctionArgument],
    options: AggregateFunction => Seq[FunctionOption] = _ => Nil)

  /** Calls of `function` for which `when` holds mean the standard `to`. */
  final case class Retarget(function: String, describe: String, to: String, when: Expression.ScalarFunction => Boolean)

  /** DuckDB's `//` declared to return an integer divides integers, truncating (-7 // 2 is -3), as the standard divide does. */
  val integerDivide: Retarget = Retarget("//", "// on integers as divide", "divide",
    f => f.hasOutputType && DeclaredTypes.Integers(f.getOutputType.getKindCase))

  private def value(e: Expression.Literal.Builder): FunctionArgument =
    FunctionArgument.newBuilder().setValue(Expression.newBuilder().setLiteral(e.setNullable(false))).build()
  private def enumArg(v: String): FunctionArgument = FunctionArgument.newBuilder().setEnum(v).build()

  val roundToInteger: Default =
    Default("round", 1, "round(x) as round(x, 0)", args => args :+ value(Expression.Literal.newBuilder().setI32(0)))
  val exactMedian: Default = Default("median", 1, "median(x) as median(EXACT, x)", args => enumArg("EXACT") +: args)

  /**
   * DuckDB's median of a decimal (declared with the argument's decimal type) is the mean of the
   * middle values truncated toward zero to the scale (measured on 1.1.3: 1.01 and 1.02 give 1.01,
   * -1.01 and -1.02 give -1.01): the standard median's rounding TRUNCATE.
   */
  val exactMedianTruncatingDecimals: Default = exactMedian.copy(options = f =>
    if (f.hasOutputType && f.getOutputType.hasDecimal && !f.getOptionsList.asScala.exists(_.getName == "rounding"))
      Seq(FunctionOption.newBuilder().setName("rounding").addPreference("TRUNCATE").build())
    else Nil)
  val commaStringAgg: Default = Default("string_agg", 1, "string_agg(x) as string_agg(x, ',')",
    args => args :+ value(Expression.Literal.newBuilder().setString(",")))

  val dataFusion: FunctionSpellings = FunctionSpellings("datafusion-function-spellings",
    "DataFusion, every release (spec 0.33 to 0.85)",
    _.within("datafusion", "0.0", ProducerStamp.Newest),
    // `stddev` is DataFusion's sample standard deviation: std_dev with its distribution unset,
    // which this consumer reads as SAMPLE (AggregateFunctions.statistic). The shifts are its
    // operators `>>` and `<<` (how it writes GROUPING(), TPC-DS q70, q86): signed shifts.
    Map("str_concat" -> "concat", "character_length" -> "char_length", "substr" -> "substring", "btrim" -> "trim",
      "stddev" -> "std_dev", "bitwise_shift_right" -> "shift_right", "bitwise_shift_left" -> "shift_left",
      // Declared without an extension: its HyperLogLog count of distinct values (an approximation,
      // as the standard one is) and its NaN test (NULL of NULL, as the standard is_nan).
      "approx_distinct" -> "approx_count_distinct", "isnan" -> "is_nan"),
    Seq(roundToInteger, exactMedian), truncatesDecimalMedians = true)

  val duckDb: FunctionSpellings = FunctionSpellings("duckdb-function-spellings",
    Releases.DuckDb.describe, Releases.DuckDb.applies,
    // `stddev_samp`: the sample standard deviation, std_dev with its distribution unset (SAMPLE).
    Map("||" -> "concat", "sum_no_overflow" -> "sum", "stddev_samp" -> "std_dev"),
    Seq(roundToInteger, exactMedianTruncatingDecimals, commaStringAgg),
    Seq(integerDivide), nullProductOfNothing = true)
}
