package io.sparksubstrait.testing

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import com.google.protobuf.ByteString
import io.sparksubstrait.proto._
import io.sparksubstrait.proto.Expression.{FieldReference, Literal, ReferenceSegment}

/**
 * A small DSL to write Substrait plans by hand in tests. Each instance collects the
 * function declarations of one plan, stamped with spec release 0.`minor`.
 */
class PlanBuilder(producer: String = "spark-substrait-tests", minor: Int = 87) {
  private val urns = mutable.LinkedHashMap.empty[String, Int]
  private val functions = mutable.LinkedHashMap.empty[(String, String), Int]

  /** Declares (once) a function of a standard extension and returns its anchor. */
  def fn(extension: String, compoundName: String): Int = {
    val urn = if (extension.startsWith("extension:")) extension else s"extension:io.substrait:$extension"
    urns.getOrElseUpdate(urn, urns.size + 1)
    functions.getOrElseUpdate((urn, compoundName), functions.size + 1)
  }

  private val userTypes = mutable.LinkedHashMap.empty[(String, String), Int]

  /** Declares (once) user-defined type `name` of the extension with URN `urn`; returns its anchor. */
  def userType(urn: String, name: String): Int = {
    urns.getOrElseUpdate(urn, urns.size + 1)
    userTypes.getOrElseUpdate((urn, name), userTypes.size + 1)
  }

  def plan(root: Rel, names: String*): Plan = {
    val b = Plan.newBuilder()
      .setVersion(Version.newBuilder().setMinorNumber(minor).setProducer(producer))
    urns.foreach { case (urn, a) =>
      b.addExtensionUrns(SimpleExtensionURN.newBuilder().setUrn(urn).setExtensionUrnAnchor(a))
    }
    functions.foreach { case ((urn, name), a) =>
      b.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
          SimpleExtensionDeclaration.ExtensionFunction.newBuilder()
            .setExtensionUrnReference(urns(urn)).setFunctionAnchor(a).setName(name)))
    }
    userTypes.foreach { case ((urn, name), a) =>
      b.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionType(
          SimpleExtensionDeclaration.ExtensionType.newBuilder()
            .setExtensionUrnReference(urns(urn)).setTypeAnchor(a).setName(name)))
    }
    b.addRelations(PlanRel.newBuilder().setRoot(RelRoot.newBuilder().setInput(root).addAllNames(names.asJava)))
    b.build()
  }

  def call(anchor: Int, args: Expression*): Expression = callWith(anchor, Nil, None, args: _*)

  def callWith(anchor: Int, options: Seq[(String, Seq[String])], output: Option[Type], args: Expression*)
    : Expression = {
    val f = Expression.ScalarFunction.newBuilder().setFunctionReference(anchor)
    args.foreach(a => f.addArguments(FunctionArgument.newBuilder().setValue(a)))
    options.foreach { case (n, prefs) =>
      f.addOptions(FunctionOption.newBuilder().setName(n).addAllPreference(prefs.asJava))
    }
    output.foreach(f.setOutputType)
    Expression.newBuilder().setScalarFunction(f).build()
  }

  /** A scalar call whose enumeration arguments (`enums`) come before the value arguments. */
  def callWithEnums(anchor: Int, enums: Seq[String], args: Expression*): Expression = {
    val f = Expression.ScalarFunction.newBuilder().setFunctionReference(anchor)
    enums.foreach(e => f.addArguments(FunctionArgument.newBuilder().setEnum(e)))
    args.foreach(a => f.addArguments(FunctionArgument.newBuilder().setValue(a)))
    Expression.newBuilder().setScalarFunction(f).build()
  }

  /** A measure; `enums` are enumeration arguments that come before `args`. */
  def measure(anchor: Int, args: Seq[Expression], distinct: Boolean = false, filter: Option[Expression] = None,
    output: Option[Type] = None, enums: Seq[String] = Nil, options: Seq[(String, Seq[String])] = Nil,
    sorts: Seq[(Expression, SortField.SortDirection)] = Nil): AggregateRel.Measure = {
    val f = AggregateFunction.newBuilder().setFunctionReference(anchor)
      .setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)
      .setInvocation(if (distinct) AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_DISTINCT
        else AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL)
    enums.foreach(e => f.addArguments(FunctionArgument.newBuilder().setEnum(e)))
    args.foreach(a => f.addArguments(FunctionArgument.newBuilder().setValue(a)))
    options.foreach { case (n, prefs) =>
      f.addOptions(FunctionOption.newBuilder().setName(n).addAllPreference(prefs.asJava))
    }
    output.foreach(f.setOutputType)
    sorts.foreach { case (e, d) => f.addSorts(SortField.newBuilder().setExpr(e).setDirection(d)) }
    val m = AggregateRel.Measure.newBuilder().setMeasure(f)
    filter.foreach(m.setFilter)
    m.build()
  }
}

/** Stateless helpers: types, literals, references and relations. */
object PlanBuilder {
  private val N = Type.Nullability.NULLABILITY_NULLABLE
  private val R = Type.Nullability.NULLABILITY_REQUIRED
  private def n(nullable: Boolean) = if (nullable) N else R

  def bool(nullable: Boolean = true): Type =
    Type.newBuilder().setBool(Type.Boolean.newBuilder().setNullability(n(nullable))).build()
  def i8(nullable: Boolean = true): Type =
    Type.newBuilder().setI8(Type.I8.newBuilder().setNullability(n(nullable))).build()
  def i16(nullable: Boolean = true): Type =
    Type.newBuilder().setI16(Type.I16.newBuilder().setNullability(n(nullable))).build()
  def i32(nullable: Boolean = true): Type =
    Type.newBuilder().setI32(Type.I32.newBuilder().setNullability(n(nullable))).build()
  def i64(nullable: Boolean = true): Type =
    Type.newBuilder().setI64(Type.I64.newBuilder().setNullability(n(nullable))).build()
  def fp32(nullable: Boolean = true): Type =
    Type.newBuilder().setFp32(Type.FP32.newBuilder().setNullability(n(nullable))).build()
  def fp64(nullable: Boolean = true): Type =
    Type.newBuilder().setFp64(Type.FP64.newBuilder().setNullability(n(nullable))).build()
  def string(nullable: Boolean = true): Type =
    Type.newBuilder().setString(Type.String.newBuilder().setNullability(n(nullable))).build()
  def binary(nullable: Boolean = true): Type =
    Type.newBuilder().setBinary(Type.Binary.newBuilder().setNullability(n(nullable))).build()
  def uuid(nullable: Boolean = true): Type =
    Type.newBuilder().setUuid(Type.UUID.newBuilder().setNullability(n(nullable))).build()
  def date(nullable: Boolean = true): Type =
    Type.newBuilder().setDate(Type.Date.newBuilder().setNullability(n(nullable))).build()
  def varchar(len: Int, nullable: Boolean = true): Type =
    Type.newBuilder().setVarchar(Type.VarChar.newBuilder().setLength(len).setNullability(n(nullable))).build()
  def fixedChar(len: Int, nullable: Boolean = true): Type =
    Type.newBuilder().setFixedChar(Type.FixedChar.newBuilder().setLength(len).setNullability(n(nullable))).build()
  def decimal(p: Int, s: Int, nullable: Boolean = true): Type =
    Type.newBuilder().setDecimal(
      Type.Decimal.newBuilder().setPrecision(p).setScale(s).setNullability(n(nullable))).build()
  def precisionTimestamp(p: Int, nullable: Boolean = true): Type =
    Type.newBuilder().setPrecisionTimestamp(
      Type.PrecisionTimestamp.newBuilder().setPrecision(p).setNullability(n(nullable))).build()
  def precisionTimestampTz(p: Int, nullable: Boolean = true): Type =
    Type.newBuilder().setPrecisionTimestampTz(
      Type.PrecisionTimestampTZ.newBuilder().setPrecision(p).setNullability(n(nullable))).build()
  def intervalDay(p: Int, nullable: Boolean = true): Type =
    Type.newBuilder().setIntervalDay(Type.IntervalDay.newBuilder().setPrecision(p).setNullability(n(nullable))).build()

  /** A user-defined type, by the anchor [[PlanBuilder.userType]] declared. */
  def userDefined(anchor: Int, nullable: Boolean = true): Type =
    Type.newBuilder().setUserDefined(Type.UserDefined.newBuilder().setTypeReference(anchor).setNullability(n(nullable)))
      .build()
  def struct(fields: Type*): Type =
    Type.newBuilder().setStruct(Type.Struct.newBuilder().addAllTypes(fields.asJava).setNullability(N)).build()

  def schema(fields: (String, Type)*): NamedStruct = NamedStruct.newBuilder()
    .addAllNames(fields.map(_._1).asJava)
    .setStruct(Type.Struct.newBuilder().addAllTypes(fields.map(_._2).asJava).setNullability(R)).build()

  private def lit(f: Literal.Builder => Literal.Builder): Expression =
    Expression.newBuilder().setLiteral(f(Literal.newBuilder())).build()
  def litBool(v: Boolean): Expression = lit(_.setBoolean(v))
  def litI8(v: Int): Expression = lit(_.setI8(v))
  def litI16(v: Int): Expression = lit(_.setI16(v))
  def litI32(v: Int): Expression = lit(_.setI32(v))
  def litI64(v: Long): Expression = lit(_.setI64(v))
  def litFp32(v: Float): Expression = lit(_.setFp32(v))
  def litFp64(v: Double): Expression = lit(_.setFp64(v))
  def litString(v: String): Expression = lit(_.setString(v))
  def litVarchar(v: String, len: Int): Expression =
    lit(_.setVarChar(Literal.VarChar.newBuilder().setValue(v).setLength(len)))
  def litFixedChar(v: String): Expression = lit(_.setFixedChar(v))
  def litBinary(v: Array[Byte]): Expression = lit(_.setBinary(ByteString.copyFrom(v)))

  /** A uuid literal from its text, as its 16 bytes (big-endian). */
  def litUuid(text: String): Expression = {
    val u = java.util.UUID.fromString(text)
    val bytes =
      java.nio.ByteBuffer.allocate(16).putLong(u.getMostSignificantBits).putLong(u.getLeastSignificantBits).array()
    lit(_.setUuid(ByteString.copyFrom(bytes)))
  }
  def litDate(days: Int): Expression = lit(_.setDate(days))
  def litPrecisionTimestamp(value: Long, precision: Int): Expression =
    lit(_.setPrecisionTimestamp(Literal.PrecisionTimestamp.newBuilder().setValue(value).setPrecision(precision)))
  def litPrecisionTimestampTz(value: Long, precision: Int): Expression =
    lit(_.setPrecisionTimestampTz(Literal.PrecisionTimestamp.newBuilder().setValue(value).setPrecision(precision)))
  def litNull(t: Type): Expression = lit(_.setNull(t))
  def litDecimal(v: java.math.BigDecimal, precision: Int, scale: Int): Expression = {
    val unscaled = v.setScale(scale).unscaledValue().toByteArray.reverse // to little-endian
    val bytes = Array.fill[Byte](16)(if (v.signum() < 0) -1 else 0)
    System.arraycopy(unscaled, 0, bytes, 0, unscaled.length)
    lit(_.setDecimal(
        Literal.Decimal.newBuilder().setValue(ByteString.copyFrom(bytes)).setPrecision(precision).setScale(scale)))
  }
  def litIntervalYear(years: Int, months: Int): Expression =
    lit(_.setIntervalYearToMonth(Literal.IntervalYearToMonth.newBuilder().setYears(years).setMonths(months)))
  def litIntervalDay(days: Int, seconds: Int, subseconds: Long = 0, precision: Int = 6): Expression =
    lit(_.setIntervalDayToSecond(Literal.IntervalDayToSecond.newBuilder().setDays(days).setSeconds(seconds)
          .setSubseconds(subseconds).setPrecision(precision)))

  def field(i: Int): Expression = Expression.newBuilder().setSelection(FieldReference.newBuilder()
      .setDirectReference(
        ReferenceSegment.newBuilder().setStructField(ReferenceSegment.StructField.newBuilder().setField(i)))
      .setRootReference(FieldReference.RootReference.getDefaultInstance)).build()

  /** Field `i` of the enclosing query's record, `stepsOut` subquery boundaries out. */
  def outerField(i: Int, stepsOut: Int = 1): Expression = outerRef(i, _.setStepsOut(stepsOut))

  /** Field `i` of the record of the enclosing relation whose rel_anchor is `anchor` (spec 0.94+). */
  def outerFieldOf(i: Int, anchor: Int): Expression = outerRef(i, _.setRelReference(anchor))

  private def outerRef(i: Int, how: FieldReference.OuterReference.Builder => FieldReference.OuterReference.Builder)
    : Expression =
    Expression.newBuilder().setSelection(FieldReference.newBuilder()
        .setOuterReference(how(FieldReference.OuterReference.newBuilder()))
        .setDirectReference(
          ReferenceSegment.newBuilder().setStructField(ReferenceSegment.StructField.newBuilder().setField(i)))).build()

  /** A reference from the input record through a chain of segments: Left(struct field) or Right(list offset). */
  def path(column: Int, segments: ReferenceSegment*): Expression = {
    val chained = segments.foldRight(Option.empty[ReferenceSegment]) { (seg, child) =>
      Some(child.fold(seg)(c =>
          seg.getReferenceTypeCase match {
            case ReferenceSegment.ReferenceTypeCase.STRUCT_FIELD =>
              seg.toBuilder.setStructField(seg.getStructField.toBuilder.setChild(c)).build()
            case ReferenceSegment.ReferenceTypeCase.LIST_ELEMENT =>
              seg.toBuilder.setListElement(seg.getListElement.toBuilder.setChild(c)).build()
            case _ => seg.toBuilder.setMapKey(seg.getMapKey.toBuilder.setChild(c)).build()
          }))
    }
    val sf = ReferenceSegment.StructField.newBuilder().setField(column)
    chained.foreach(sf.setChild)
    Expression.newBuilder().setSelection(FieldReference.newBuilder()
        .setDirectReference(ReferenceSegment.newBuilder().setStructField(sf))
        .setRootReference(FieldReference.RootReference.getDefaultInstance)).build()
  }

  /** A lambda over one i32 parameter, `x -> body(x)`. */
  def lambdaOverI32(body: Expression => Expression): Expression = {
    val x = Expression.newBuilder().setSelection(FieldReference.newBuilder()
        .setLambdaParameterReference(FieldReference.LambdaParameterReference.newBuilder())
        .setDirectReference(structSeg(0))).build()
    Expression.newBuilder().setLambda(Expression.Lambda.newBuilder()
        .setParameters(Type.Struct.newBuilder().addTypes(i32()).setNullability(Type.Nullability.NULLABILITY_REQUIRED))
        .setBody(body(x))).build()
  }
  def structSeg(i: Int): ReferenceSegment =
    ReferenceSegment.newBuilder().setStructField(ReferenceSegment.StructField.newBuilder().setField(i)).build()
  def listSeg(offset: Int): ReferenceSegment =
    ReferenceSegment.newBuilder().setListElement(ReferenceSegment.ListElement.newBuilder().setOffset(offset)).build()
  def mapSeg(key: Expression): ReferenceSegment =
    ReferenceSegment.newBuilder().setMapKey(ReferenceSegment.MapKey.newBuilder().setMapKey(key.getLiteral)).build()

  /** A reference rooted at an expression. */
  def fieldOf(e: Expression, seg: ReferenceSegment): Expression =
    Expression.newBuilder().setSelection(FieldReference.newBuilder()
        .setDirectReference(seg).setExpression(e)).build()

  def cast(e: Expression, t: Type,
    behavior: Expression.Cast.FailureBehavior =
      Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_UNSPECIFIED): Expression =
    Expression.newBuilder().setCast(
      Expression.Cast.newBuilder().setInput(e).setType(t).setFailureBehavior(behavior)).build()

  def ifThen(clauses: Seq[(Expression, Expression)], otherwise: Option[Expression]): Expression = {
    val b = Expression.IfThen.newBuilder()
    clauses.foreach { case (c, t) => b.addIfs(Expression.IfThen.IfClause.newBuilder().setIf(c).setThen(t)) }
    otherwise.foreach(b.setElse)
    Expression.newBuilder().setIfThen(b).build()
  }

  def switchOn(value: Expression, cases: Seq[(Expression, Expression)], otherwise: Option[Expression]): Expression = {
    val b = Expression.SwitchExpression.newBuilder().setMatch(value)
    cases.foreach { case (l, t) =>
      b.addIfs(Expression.SwitchExpression.IfValue.newBuilder().setIf(l.getLiteral).setThen(t))
    }
    otherwise.foreach(b.setElse)
    Expression.newBuilder().setSwitchExpression(b).build()
  }

  def inList(value: Expression, options: Expression*): Expression = Expression.newBuilder().setSingularOrList(
    Expression.SingularOrList.newBuilder().setValue(value).addAllOptions(options.asJava)).build()

  /** A literal of user-defined type `anchor`, its value a google.protobuf.Any. */
  def litUserDefined(anchor: Int, value: com.google.protobuf.Any): Expression =
    lit(_.setUserDefined(Literal.UserDefined.newBuilder().setTypeReference(anchor).setValue(value)))

  /** A literal of user-defined type `anchor` in the struct form: `fields` are literals. */
  def litUserDefinedStruct(anchor: Int, fields: Expression*): Expression =
    lit(_.setUserDefined(Literal.UserDefined.newBuilder().setTypeReference(anchor)
          .setStruct(Literal.Struct.newBuilder().addAllFields(fields.map(_.getLiteral).asJava))))

  def structOf(fields: Expression*): Expression = Expression.newBuilder().setNested(Expression.Nested.newBuilder()
      .setStruct(Expression.Nested.Struct.newBuilder().addAllFields(fields.asJava))).build()
  def listOf(values: Expression*): Expression = Expression.newBuilder().setNested(Expression.Nested.newBuilder()
      .setList(Expression.Nested.List.newBuilder().addAllValues(values.asJava))).build()
  def mapOf(kvs: (Expression, Expression)*): Expression = {
    val m = Expression.Nested.Map.newBuilder()
    kvs.foreach { case (k, v) => m.addKeyValues(Expression.Nested.Map.KeyValue.newBuilder().setKey(k).setValue(v)) }
    Expression.newBuilder().setNested(Expression.Nested.newBuilder().setMap(m)).build()
  }

  // ---- relations ----
  def readNamed(schema: NamedStruct, names: String*): Rel = Rel.newBuilder().setRead(ReadRel.newBuilder()
      .setBaseSchema(schema).setNamedTable(ReadRel.NamedTable.newBuilder().addAllNames(names.asJava))).build()

  def readVirtual(schema: NamedStruct, rows: Seq[Seq[Expression]]): Rel = {
    val vt = ReadRel.VirtualTable.newBuilder()
    rows.foreach(r => vt.addExpressions(Expression.Nested.Struct.newBuilder().addAllFields(r.asJava)))
    Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(schema).setVirtualTable(vt)).build()
  }

  def readVirtualLegacy(schema: NamedStruct, rows: Seq[Seq[Expression]]): Rel = {
    val vt = ReadRel.VirtualTable.newBuilder()
    rows.foreach(r => vt.addValues(Literal.Struct.newBuilder().addAllFields(r.map(_.getLiteral).asJava)))
    Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(schema).setVirtualTable(vt)).build()
  }

  /** Extension relations: the detail is any message packed (Any.pack) or an Any made by hand. */
  def extensionLeaf(detail: com.google.protobuf.Any): Rel =
    Rel.newBuilder().setExtensionLeaf(ExtensionLeafRel.newBuilder().setDetail(detail)).build()
  def extensionSingle(input: Rel, detail: com.google.protobuf.Any): Rel =
    Rel.newBuilder().setExtensionSingle(ExtensionSingleRel.newBuilder().setInput(input).setDetail(detail)).build()
  def extensionMulti(detail: com.google.protobuf.Any, inputs: Rel*): Rel =
    Rel.newBuilder().setExtensionMulti(ExtensionMultiRel.newBuilder().setDetail(detail).addAllInputs(inputs.asJava))
      .build()

  def filter(input: Rel, condition: Expression): Rel =
    Rel.newBuilder().setFilter(FilterRel.newBuilder().setInput(input).setCondition(condition)).build()

  def project(input: Rel, exprs: Expression*): Rel =
    Rel.newBuilder().setProject(ProjectRel.newBuilder().setInput(input).addAllExpressions(exprs.asJava)).build()

  def fetch(input: Rel, offset: Long, count: Long): Rel =
    Rel.newBuilder().setFetch(
      FetchRel.newBuilder().setInput(input).setOffsetExpr(litI64(offset)).setCountExpr(litI64(count))).build()

  /** A fetch of every row after `offset`, its count written as a typed NULL (the spec's "all"). */
  def fetchAll(input: Rel, offset: Long): Rel =
    Rel.newBuilder().setFetch(FetchRel.newBuilder().setInput(input).setOffsetExpr(litI64(offset))
        .setCountExpr(lit(_.setNull(i64())))).build()

  def fetchLegacy(input: Rel, offset: Long, count: Long): Rel =
    Rel.newBuilder().setFetch(FetchRel.newBuilder().setInput(input).setOffset(offset).setCount(count)).build()

  /** A TopNRel; None leaves the offset or count unset. */
  def topN(input: Rel, mode: FetchMode, offset: Option[Long], count: Option[Long],
    fields: (Expression, SortField.SortDirection)*): Rel = {
    val t = TopNRel.newBuilder().setInput(input).setMode(mode).addAllSorts(
      fields.map { case (e, d) => SortField.newBuilder().setExpr(e).setDirection(d).build() }.asJava)
    offset.foreach(o => t.setOffset(litI64(o)))
    count.foreach(c => t.setCount(litI64(c)))
    Rel.newBuilder().setTopN(t).build()
  }

  def sort(input: Rel, fields: (Expression, SortField.SortDirection)*): Rel =
    Rel.newBuilder().setSort(SortRel.newBuilder().setInput(input).addAllSorts(
        fields.map { case (e, d) => SortField.newBuilder().setExpr(e).setDirection(d).build() }.asJava)).build()

  def aggregate(input: Rel, groups: Seq[Expression], measures: Seq[AggregateRel.Measure]): Rel = {
    val a = AggregateRel.newBuilder().setInput(input).addAllGroupingExpressions(groups.asJava)
      .addGroupings(
        AggregateRel.Grouping.newBuilder().addAllExpressionReferences(groups.indices.map(Integer.valueOf).asJava))
      .addAllMeasures(measures.asJava)
    Rel.newBuilder().setAggregate(a).build()
  }

  def join(left: Rel, right: Rel, joinType: JoinRel.JoinType, condition: Option[Expression] = None,
    postJoinFilter: Option[Expression] = None): Rel = {
    val j = JoinRel.newBuilder().setLeft(left).setRight(right).setType(joinType)
    condition.foreach(j.setExpression)
    postJoinFilter.foreach(j.setPostJoinFilter)
    Rel.newBuilder().setJoin(j).build()
  }

  /** A LateralJoinRel anchored at `anchor`, so that the right input can reference the left row by rel_reference. */
  def lateralJoin(left: Rel, right: Rel, joinType: JoinRel.JoinType, anchor: Int, condition: Option[Expression] = None,
    postJoinFilter: Option[Expression] = None): Rel = {
    val j = LateralJoinRel.newBuilder().setLeft(left).setRight(right).setType(joinType)
      .setCommon(RelCommon.newBuilder().setRelAnchor(anchor))
    condition.foreach(j.setExpression)
    postJoinFilter.foreach(j.setPostJoinFilter)
    Rel.newBuilder().setLateralJoin(j).build()
  }

  def set(op: SetRel.SetOp, inputs: Rel*): Rel =
    Rel.newBuilder().setSet(SetRel.newBuilder().setOp(op).addAllInputs(inputs.asJava)).build()

  /** One grouping set of an AggregateRel, by references into its grouping expressions. */
  def groupingOf(refs: Int*): AggregateRel.Grouping =
    refs.foldLeft(AggregateRel.Grouping.newBuilder())(_.addExpressionReferences(_)).build()

  def cross(left: Rel, right: Rel): Rel =
    Rel.newBuilder().setCross(CrossRel.newBuilder().setLeft(left).setRight(right)).build()

  /** Sets the emit of any relation (its RelCommon). */
  def emit(rel: Rel, mapping: Int*): Rel =
    withCommon(rel,
      RelCommon.newBuilder().setEmit(
        RelCommon.Emit.newBuilder().addAllOutputMapping(mapping.map(Integer.valueOf).asJava)).build())

  /** Sets the rel_anchor of any relation (its RelCommon), for outer references by rel_reference. */
  def anchored(rel: Rel, anchor: Int): Rel = withCommon(rel, RelCommon.newBuilder().setRelAnchor(anchor).build())

  /** Merges `common` into the RelCommon of any relation kind. */
  def withCommon(rel: Rel, common: RelCommon): Rel = {
    val kind = rel.getDescriptorForType.findFieldByNumber(rel.getRelTypeCase.getNumber)
    val inner = rel.getField(kind).asInstanceOf[com.google.protobuf.Message]
    val field = inner.getDescriptorForType.findFieldByName("common")
    if (field == null) throw new IllegalArgumentException(s"no RelCommon on ${rel.getRelTypeCase}")
    val merged = inner.getField(field).asInstanceOf[RelCommon].toBuilder.mergeFrom(common).build()
    rel.toBuilder.setField(kind, inner.toBuilder.setField(field, merged).build()).build()
  }
}
