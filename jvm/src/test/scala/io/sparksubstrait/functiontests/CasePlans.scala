package io.sparksubstrait.functiontests

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto._
import io.sparksubstrait.proto.Expression.{FieldReference, ReferenceSegment}

import io.sparksubstrait.functiontests.TestValues.{literal, protoType}

/**
 * One test case as a Substrait plan, shaped as producers write them:
 *  - scalar: a one-row virtual table, a project computing the call on literal arguments;
 *  - aggregate: the case's rows as a virtual table, an aggregate with the one measure;
 *  - window: the rows plus their position, a project with the window function ordered by
 *    position, sorted back into input order.
 * The declared output type is the expected result's type, when the case gives one.
 */
final class CasePlans(file: FunctionTestFile) {
  private val urns = mutable.LinkedHashMap.empty[String, Int]
  private val functions = mutable.LinkedHashMap.empty[(String, String), Int]
  private val UnsignedUrn = "extension:io.substrait:unsigned_integers"

  def build(c: FunctionTestCase): Plan = {
    urns.clear(); functions.clear()
    val root = c.kind match {
      case ScalarCase => scalar(c)
      case AggregateCase => aggregate(c)
      case WindowCase => window(c)
    }
    plan(root)
  }

  private def declare(urn: String, compoundName: String): Int = {
    urns.getOrElseUpdate(urn, urns.size + 1)
    functions.getOrElseUpdate((urn, compoundName), functions.size + 1)
  }

  private def plan(root: Rel): Plan = {
    val b = Plan.newBuilder().setVersion(
      Version.newBuilder().setMinorNumber(87).setProducer("spark-substrait function tests"))
    val usesUnsigned = root.toString.contains("user_defined")
    if (usesUnsigned) urns.getOrElseUpdate(UnsignedUrn, urns.size + 1)
    urns.foreach { case (urn, a) =>
      b.addExtensionUrns(SimpleExtensionURN.newBuilder().setUrn(urn).setExtensionUrnAnchor(a))
    }
    functions.foreach { case ((urn, name), a) =>
      b.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
          SimpleExtensionDeclaration.ExtensionFunction.newBuilder().setExtensionUrnReference(
            urns(urn)).setFunctionAnchor(a).setName(name)))
    }
    if (usesUnsigned) TestValues.userDefinedTypes.zipWithIndex.foreach { case (t, i) =>
      b.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionType(
          SimpleExtensionDeclaration.ExtensionType.newBuilder().setExtensionUrnReference(
            urns(UnsignedUrn)).setTypeAnchor(i + 1).setName(t)))
    }
    b.addRelations(PlanRel.newBuilder().setRoot(RelRoot.newBuilder().setInput(root).addNames("result")))
    b.build()
  }

  // ---- relations --------------------------------------------------------------------
  private def scalar(c: FunctionTestCase): Rel = {
    val one = virtualTable(Seq(TestType("i32", nullable = false)), Seq(Seq(Token("0"))))
    val f = Expression.ScalarFunction.newBuilder().setFunctionReference(declare(file.includeUrn, compoundName(c.call)))
    c.call.args.foreach(a => f.addArguments(argument(a, Map.empty)))
    addOptions(c, f.addOptionsBuilder _)
    resultType(c).foreach(f.setOutputType)
    project(one, Seq(Expression.newBuilder().setScalarFunction(f).build()), emit = Seq(1))
  }

  private def aggregate(c: FunctionTestCase): Rel = {
    val table = c.table.getOrElse(TestTable(Nil, Seq(Nil)))
    val input = virtualTable(table.columnTypes, table.rows)
    val f = AggregateFunction.newBuilder().setFunctionReference(declare(file.includeUrn, compoundName(c.call)))
      .setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
      .setInvocation(AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL)
    c.call.args.foreach(a => f.addArguments(argument(a, Map.empty)))
    addOptions(c, f.addOptionsBuilder _)
    resultType(c).foreach(f.setOutputType)
    Rel.newBuilder().setAggregate(AggregateRel.newBuilder().setInput(input)
        .addMeasures(AggregateRel.Measure.newBuilder().setMeasure(f))).build()
  }

  private def window(c: FunctionTestCase): Rel = {
    val table = c.table.getOrElse(TestTable(Nil, Nil))
    val position = table.columnTypes.size
    val rows = table.rows.zipWithIndex.map { case (r, i) => r :+ Token(i.toString) }
    val input = virtualTable(table.columnTypes :+ TestType("i64", nullable = false), rows)
    val w = Expression.WindowFunction.newBuilder().setFunctionReference(declare(file.includeUrn, compoundName(c.call)))
      .setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
      .setInvocation(AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL)
      .addSorts(SortField.newBuilder().setExpr(field(position)).setDirection(
          SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST))
    c.call.args.foreach(a => w.addArguments(argument(a, Map.empty)))
    addOptions(c, w.addOptionsBuilder _)
    resultType(c).foreach(w.setOutputType)
    val withResult =
      project(input, Seq(Expression.newBuilder().setWindowFunction(w).build()), emit = Seq(position, position + 1))
    // The sort keeps the result column only, by its emit (a ProjectRel needs one expression or more).
    Rel.newBuilder().setSort(SortRel.newBuilder().setInput(withResult)
        .addSorts(SortField.newBuilder().setExpr(field(0)).setDirection(
            SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST))
        .setCommon(RelCommon.newBuilder().setEmit(RelCommon.Emit.newBuilder().addOutputMapping(1)))).build()
  }

  // ---- pieces -----------------------------------------------------------------------
  private def addOptions(c: FunctionTestCase, add: () => FunctionOption.Builder): Unit =
    c.options.foreach { case (name, value) => add().setName(name).addPreference(value) }

  private def resultType(c: FunctionTestCase): Option[Type] = c.expected match {
    case ExpectValue(v) => Some(protoType(v.tpe))
    case ExpectColumn(_, t) => Some(protoType(t))
    case _ => None
  }

  /** `name:i32_i32`, the compound name by argument types. */
  private def compoundName(call: Call): String = {
    def sig(a: Argument): String = a match {
      case TypedValue(_, t) => t.name
      case EnumValue(_) => "req"
      case LambdaValue(_, _, _) => "func"
      case ColumnRef(_, Some(t)) => t.name
      case _ => "any"
    }
    if (call.args.isEmpty) call.function else s"${call.function}:${call.args.map(sig).mkString("_")}"
  }

  private def argument(a: Argument, lambdaParams: Map[String, Int]): FunctionArgument = a match {
    case EnumValue(name) => FunctionArgument.newBuilder().setEnum(name).build()
    case other => FunctionArgument.newBuilder().setValue(expression(other, lambdaParams)).build()
  }

  private def expression(a: Argument, lambdaParams: Map[String, Int]): Expression = a match {
    case TypedValue(v, t) => literal(v, t)
    case ColumnRef(i, _) => field(i)
    case ParamRef(name) =>
      val i = lambdaParams.getOrElse(name, throw new TestValues.UnsupportedTestType(s"unbound name $name"))
      Expression.newBuilder().setSelection(FieldReference.newBuilder()
          .setLambdaParameterReference(FieldReference.LambdaParameterReference.newBuilder())
          .setDirectReference(ReferenceSegment.newBuilder().setStructField(
              ReferenceSegment.StructField.newBuilder().setField(i)))).build()
    case LambdaValue(params, body, t) =>
      val FuncParams(types, _) = t.params.headOption.collect { case f: FuncParams => f }
        .getOrElse(throw new TestValues.UnsupportedTestType(s"lambda type $t"))
      val struct = Type.Struct.newBuilder().setNullability(Type.Nullability.NULLABILITY_REQUIRED)
        .addAllTypes(types.map(protoType).asJava)
      Expression.newBuilder().setLambda(Expression.Lambda.newBuilder().setParameters(struct)
          .setBody(expression(body, params.zipWithIndex.toMap))).build()
    case c @ Call(name, args) =>
      // Functions inside lambdas come from the file's dependencies.
      val urn = file.dependencyUrns.headOption.getOrElse(file.includeUrn)
      val f = Expression.ScalarFunction.newBuilder().setFunctionReference(declare(urn, compoundName(c)))
      args.foreach(x => f.addArguments(argument(x, lambdaParams)))
      Expression.newBuilder().setScalarFunction(f).build()
    case EnumValue(name) => throw new TestValues.UnsupportedTestType(s"enum $name as a value")
  }

  private def field(i: Int): Expression = Expression.newBuilder().setSelection(FieldReference.newBuilder()
      .setRootReference(FieldReference.RootReference.getDefaultInstance)
      .setDirectReference(
        ReferenceSegment.newBuilder().setStructField(ReferenceSegment.StructField.newBuilder().setField(i)))).build()

  private def virtualTable(types: Seq[TestType], rows: Seq[Seq[RawValue]]): Rel = {
    val nullable = types.map(_.copy(nullable = true))
    val schema = NamedStruct.newBuilder().addAllNames(types.indices.map(i => s"col$i").asJava)
      .setStruct(Type.Struct.newBuilder().setNullability(Type.Nullability.NULLABILITY_REQUIRED)
          .addAllTypes(nullable.map(protoType).asJava))
    val vt = ReadRel.VirtualTable.newBuilder()
    rows.foreach { r =>
      if (r.size != types.size)
        throw new TestValues.UnsupportedTestType(s"a row of ${r.size} values for ${types.size} columns")
      vt.addExpressions(Expression.Nested.Struct.newBuilder().addAllFields(r.zip(nullable).map { case (v, t) =>
        literal(v, t)
      }.asJava))
    }
    Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(schema).setVirtualTable(vt)).build()
  }

  private def project(input: Rel, exprs: Seq[Expression], emit: Seq[Int]): Rel = {
    val p = ProjectRel.newBuilder().setInput(input).addAllExpressions(exprs.asJava)
    p.setCommon(
      RelCommon.newBuilder().setEmit(RelCommon.Emit.newBuilder().addAllOutputMapping(emit.map(Int.box).asJava)))
    Rel.newBuilder().setProject(p).build()
  }
}
