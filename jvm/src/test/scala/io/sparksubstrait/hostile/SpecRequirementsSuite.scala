package io.sparksubstrait
package hostile

import io.sparksubstrait.proto._
import io.sparksubstrait.proto.JoinRel.JoinType._
import io.sparksubstrait.proto.SortField.SortDirection._
import org.apache.spark.sql.Row

import io.sparksubstrait.errors.SubstraitException
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * The spec's "required", "at least one", "one or more" (docs/errors.md, "Invalid plans we
 * refuse"): one test per rule. The plan that breaks it is refused at conversion with
 * SUBSTRAIT_INVALID_PLAN, at the place that breaks it, with the rule named; its minimal valid
 * twin runs and gives the rows worked out by hand (NULLs, duplicates, an empty input).
 */
class SpecRequirementsSuite extends SparkSuite with SubstraitAssertions {
  private val Root = "relations[0].root.input"
  private val aSchema = schema("a" -> i32())
  // NULL, a duplicate, and an empty table of the same schema.
  private val t = readVirtual(aSchema, Seq(Seq(litI32(2)), Seq(litNull(i32())), Seq(litI32(1)), Seq(litI32(2))))
  private val empty = readVirtual(aSchema, Nil)
  private val tRows = Seq(Row(2), Row(null), Row(1), Row(2))

  /** Refused at conversion (SubstraitPlans.read, before any row is read), naming the rule's words. */
  private def refused(plan: Plan, at: String, rule: String*): SubstraitException = {
    val e = assertPlanError("SUBSTRAIT_INVALID_PLAN", at)(run(plan))
    (rule :+ "spec:").foreach(w => assert(e.getMessage.contains(w), s"'$w' not in: ${e.getMessage}"))
    e
  }

  test("Aggregate: a grouping set or a measure (an AggregateRel with neither is refused)") {
    val b = new PlanBuilder()
    val neither = Rel.newBuilder().setAggregate(AggregateRel.newBuilder().setInput(t)).build()
    refused(b.plan(neither), s"$Root.aggregate", "no grouping set and no measure", "required if no measures")
    // The twin: the empty grouping set (GROUP BY ()) is one group of every row, even of none.
    assertRows(run(b.plan(aggregate(t, Nil, Nil))), Seq(Row()))
    assertRows(run(b.plan(aggregate(empty, Nil, Nil))), Seq(Row()))
  }

  test("Aggregate: every grouping expression is referred to by a grouping set") {
    val b = new PlanBuilder()
    val unreferenced = Rel.newBuilder().setAggregate(AggregateRel.newBuilder().setInput(t)
        .addGroupingExpressions(field(0)).addGroupings(groupingOf())).build()
    refused(b.plan(unreferenced), s"$Root.aggregate.grouping_expressions[0]", "no grouping set refers to",
      "AggregateRel.grouping_expressions")
    // The twin: DISTINCT a (NULL is one group).
    assertRows(run(b.plan(aggregate(t, Seq(field(0)), Nil), "a")), Seq(Row(1), Row(2), Row(null)))
  }

  test("Join: a JoinRel's expression is required (a cross join is a CrossRel or the literal true)") {
    val b = new PlanBuilder()
    val right = readVirtual(schema("b" -> string()), Seq(Seq(litString("x")), Seq(litNull(string()))))
    Seq(JOIN_TYPE_INNER, JOIN_TYPE_LEFT, JOIN_TYPE_OUTER, JOIN_TYPE_LEFT_SEMI, JOIN_TYPE_LEFT_MARK).foreach { kind =>
      refused(b.plan(join(t, right, kind), "a", "b"), s"$Root.join.expression", "a JoinRel without its expression",
        "Can be the literal True")
    }
    // The twins: every pair, 4 x 2 rows; and an inner join on true over an empty side is empty.
    val pairs = for { l <- tRows; r <- Seq("x", null) } yield Row(l.get(0), r)
    assertRows(run(b.plan(join(t, right, JOIN_TYPE_INNER, Some(litBool(true))), "a", "b")), pairs)
    assertRows(run(b.plan(cross(t, right), "a", "b")), pairs)
    assertRows(run(b.plan(join(empty, right, JOIN_TYPE_INNER, Some(litBool(true))), "a", "b")), Nil)
  }

  test("Project: at least one expression") {
    val b = new PlanBuilder()
    refused(b.plan(project(t), "a"), s"$Root.project.expressions", "a ProjectRel with no expressions",
      "At least one expression required")
    assertRows(run(b.plan(project(t, field(0)), "a", "a2")), tRows.map(r => Row(r.get(0), r.get(0))))
  }

  test("Sort: one or more sort fields") {
    val b = new PlanBuilder()
    refused(b.plan(sort(t), "a"), s"$Root.sort.sorts", "a SortRel with no sort fields", "One sort field required")
    assertRows(run(b.plan(sort(t, field(0) -> SORT_DIRECTION_ASC_NULLS_FIRST), "a")),
      Seq(Row(null), Row(1), Row(2), Row(2)), ordered = true)
  }

  test("SingularOrList: one or more options") {
    val b = new PlanBuilder()
    refused(b.plan(filter(t, inList(field(0))), "a"), s"$Root.filter.condition.singular_or_list.options",
      "a SingularOrList without options", "Expression.SingularOrList")
    // The twin: a IN (2, NULL) keeps both 2s; NULL IN (...) and 1 IN (2, NULL) are NULL, not true.
    assertRows(run(b.plan(filter(t, inList(field(0), litI32(2), litNull(i32()))), "a")), Seq(Row(2), Row(2)))
  }

  test("a read's base schema: the outer struct is not nullable") {
    val b = new PlanBuilder()
    def outer(n: Type.Nullability) = NamedStruct.newBuilder().addNames("a")
      .setStruct(Type.Struct.newBuilder().addTypes(i32()).setNullability(n)).build()
    val rows = Seq(Seq(litI32(2)), Seq(litNull(i32())))
    refused(b.plan(readVirtual(outer(Type.Nullability.NULLABILITY_NULLABLE), rows), "a"),
      s"$Root.read.base_schema.struct.nullability", "a nullable outer struct", "NULLABILITY_REQUIRED")
    // The twins: required, and unset (DataFusion 31 to 43 write it unset).
    Seq(Type.Nullability.NULLABILITY_REQUIRED, Type.Nullability.NULLABILITY_UNSPECIFIED).foreach { n =>
      assertRows(run(b.plan(readVirtual(outer(n), rows), "a")), Seq(Row(2), Row(null)))
    }
  }

  test("a read's projection: a MaskExpression has its select") {
    val b = new PlanBuilder()
    val two = readVirtual(schema("a" -> i32(), "b" -> string()),
      Seq(Seq(litI32(1), litString("x")), Seq(litNull(i32()), litNull(string())), Seq(litI32(1), litString("x"))))
    def masked(m: Expression.MaskExpression) =
      Rel.newBuilder().setRead(two.getRead.toBuilder.setProjection(m)).build()
    refused(b.plan(masked(Expression.MaskExpression.getDefaultInstance), "a", "b"), s"$Root.read.projection.select",
      "a projection without its select", "MaskExpression.select")
    val second = Expression.MaskExpression.newBuilder().setSelect(Expression.MaskExpression.StructSelect.newBuilder()
        .addStructItems(Expression.MaskExpression.StructItem.newBuilder().setField(1))).build()
    assertRows(run(b.plan(masked(second), "b")), Seq(Row("x"), Row(null), Row("x")))
  }

  test("a virtual table's literals are of the base schema's types") {
    val b = new PlanBuilder()
    val at = s"$Root.read.virtual_table.expressions[1].fields[0]"
    def rows(second: Expression) = Seq(Seq(litNull(string())), Seq(second))
    def varcharRows(second: Expression) = Seq(Seq(litNull(varchar(3))), Seq(second))
    refused(b.plan(readVirtual(schema("s" -> string()), rows(litVarchar("abc", 3))), "s"), at,
      "a literal of type varchar<3>", "a value of type string")
    refused(b.plan(readVirtual(schema("x" -> i64()), Seq(Seq(litI64(1)), Seq(litI32(7)))), "x"), at,
      "a literal of type i32", "a value of type i64")
    refused(b.plan(readVirtual(schema("d" -> decimal(5, 2)),
          Seq(Seq(litNull(decimal(5, 2))),
            Seq(litDecimal(new java.math.BigDecimal("1.5"), 4, 1)))), "d"), at,
      "a literal of type decimal<4,1>", "a value of type decimal<5,2>")
    // A nullable literal in a required column, even one holding a value.
    val nullableThree = Expression.newBuilder().setLiteral(litI32(3).getLiteral.toBuilder.setNullable(true)).build()
    refused(b.plan(readVirtual(schema("x" -> i32(false)), Seq(Seq(litI32(1)), Seq(nullableThree))), "x"), at,
      "a nullable literal", "column x is not nullable")
    // The twins: each literal of its column's type; a required literal in a nullable column is a value it holds.
    assertRows(run(b.plan(readVirtual(schema("s" -> varchar(3)), varcharRows(litVarchar("abc", 3))), "s")),
      Seq(Row(null), Row("abc")))
    assertRows(run(b.plan(readVirtual(schema("s" -> string()), rows(litString("abc"))), "s")),
      Seq(Row(null), Row("abc")))
    assertRows(run(b.plan(readVirtual(schema("x" -> i64()), Seq(Seq(litI64(1)), Seq(litI64(7)), Seq(litI64(7)))), "x")),
      Seq(Row(1L), Row(7L), Row(7L)))
    assertRows(run(b.plan(readVirtual(schema("x" -> i32()), Seq(Seq(litI32(3)), Seq(nullableThree))), "x")),
      Seq(Row(3), Row(3)))
  }

  /** Rules the converters refused before this audit: each still is, with the condition and place it had. */
  test("rules refused before the audit stay refused where they are broken") {
    val b = new PlanBuilder()
    val cases: Seq[(String, Plan, String, String)] = Seq(
      ("set: two or more inputs", b.plan(set(SetRel.SetOp.SET_OP_UNION_ALL, t), "a"), "SUBSTRAIT_INVALID_PLAN",
        s"$Root.set.inputs"),
      ("top-N: one or more sort fields", b.plan(topN(t, FetchMode.FETCH_MODE_UNSPECIFIED, None, Some(1L)), "a"),
        "SUBSTRAIT_MISSING_FIELD", s"$Root.top_n"),
      ("filter: the condition", b.plan(Rel.newBuilder().setFilter(FilterRel.newBuilder().setInput(t)).build(), "a"),
        "SUBSTRAIT_MISSING_FIELD", s"$Root.filter"),
      ("sort field: its expression",
        b.plan(
          Rel.newBuilder().setSort(SortRel.newBuilder().setInput(t)
              .addSorts(SortField.newBuilder().setDirection(SORT_DIRECTION_ASC_NULLS_FIRST))).build(), "a"),
        "SUBSTRAIT_MISSING_FIELD", s"$Root.sort.sorts[0]"),
      ("hash join: one or more keys",
        b.plan(Rel.newBuilder().setHashJoin(HashJoinRel.newBuilder().setLeft(t)
              .setRight(t).setType(HashJoinRel.JoinType.JOIN_TYPE_INNER)).build(), "a", "b"),
        "SUBSTRAIT_MISSING_FIELD", s"$Root.hash_join"),
      ("merge join: one or more keys",
        b.plan(Rel.newBuilder().setMergeJoin(MergeJoinRel.newBuilder().setLeft(t)
              .setRight(t).setType(MergeJoinRel.JoinType.JOIN_TYPE_INNER)).build(), "a", "b"),
        "SUBSTRAIT_MISSING_FIELD", s"$Root.merge_join"),
      ("window: one or more window functions",
        b.plan(Rel.newBuilder().setWindow(
            ConsistentPartitionWindowRel.newBuilder().setInput(t)).build(), "a"),
        "SUBSTRAIT_INVALID_PLAN", s"$Root.window.window_functions"),
      ("expand: a switching field has one or more duplicates",
        b.plan(
          Rel.newBuilder().setExpand(ExpandRel.newBuilder()
              .setInput(t).addFields(ExpandRel.ExpandField.newBuilder().setSwitchingField(
                  ExpandRel.SwitchingField.newBuilder()))).build(), "x"),
        "SUBSTRAIT_INVALID_PLAN", s"$Root.expand.fields[0].switching_field"),
      ("named table: at least one name", b.plan(readNamed(aSchema), "a"), "SUBSTRAIT_INVALID_PLAN",
        s"$Root.read.named_table.names"),
      ("local files: one or more items",
        b.plan(Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(aSchema)
              .setLocalFiles(ReadRel.LocalFiles.newBuilder())).build(), "a"),
        "SUBSTRAIT_INVALID_PLAN", s"$Root.read.local_files.items"),
      ("if-then: one or more clauses", b.plan(project(t, ifThen(Nil, Some(litI32(5)))), "a", "b"),
        "SUBSTRAIT_INVALID_PLAN", s"$Root.project.expressions[0].if_then.ifs"),
      ("switch: one or more if values", b.plan(project(t, switchOn(field(0), Nil, Some(litI32(5)))), "a", "b"),
        "SUBSTRAIT_INVALID_PLAN", s"$Root.project.expressions[0].switch_expression.ifs"),
      ("nested list: one or more values", b.plan(project(t, listOf()), "a", "b"),
        "SUBSTRAIT_INVALID_PLAN", s"$Root.project.expressions[0].nested.list"),
      ("list literal: one or more values",
        b.plan(project(t,
            Expression.newBuilder().setLiteral(
              Expression.Literal.newBuilder().setList(Expression.Literal.List.newBuilder())).build()), "a", "b"),
        "SUBSTRAIT_INVALID_PLAN", s"$Root.project.expressions[0].literal.list"),
      ("map literal: one or more pairs",
        b.plan(project(t,
            Expression.newBuilder().setLiteral(
              Expression.Literal.newBuilder().setMap(Expression.Literal.Map.newBuilder())).build()), "a", "b"),
        "SUBSTRAIT_INVALID_PLAN", s"$Root.project.expressions[0].literal.map"))
    cases.foreach { case (rule, plan, condition, at) =>
      withClue(rule)(assertPlanError(condition, at)(run(plan)))
    }
  }
}
