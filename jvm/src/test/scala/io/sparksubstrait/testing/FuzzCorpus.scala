package io.sparksubstrait.testing

import scala.util.Try

import io.sparksubstrait.proto.{JoinRel, Plan, SetRel, SortField}

import io.sparksubstrait.testing.PlanBuilder._

/**
 * Valid plans for the fuzzer to mutate: hand-written ones over the shared test tables
 * (every relation kind the DSL writes, most expression kinds), isthmus (Calcite) plans
 * of TPC-H-style SQL over `lineitem`, and the producer fixtures. Each is a starting point; the mutations do the rest.
 */
object FuzzCorpus {
  private val t = readNamed(Datasets.numsSchema, "nums")
  private val people = readNamed(Datasets.peopleSchema, "people")
  private val vt = readVirtual(schema("k" -> i32(), "s" -> string(), "d" -> decimal(5, 2)),
    Seq(
      Seq(litI32(1), litString("a"), litDecimal(new java.math.BigDecimal("1.50"), 5, 2)),
      Seq(litI32(2), litNull(string()), litNull(decimal(5, 2))),
      Seq(litI32(2), litString("b"), litDecimal(new java.math.BigDecimal("-3.25"), 5, 2))))

  /** Plans over the `nums` and `people` views and inline tables (no Spark job needed to run most). */
  def handWritten: Seq[Plan] = {
    def one(f: PlanBuilder => Plan): Plan = f(new PlanBuilder())
    Seq(
      one(b =>
        b.plan(filter(t,
            b.call(b.fn("functions_boolean", "and:bool"),
              b.call(b.fn("functions_comparison", "gt:i32_i32"), field(0), litI32(0)),
              b.call(b.fn("functions_comparison", "is_not_null:any"), field(9)))), "a", "b", "x", "y", "p", "q", "d",
          "e", "dt", "s")),
      one(b =>
        b.plan(emit(project(t,
              b.call(b.fn("functions_arithmetic", "add:i32_i32"), field(0), field(1)),
              b.call(b.fn("functions_arithmetic", "divide:fp64_fp64"), field(2), field(3)),
              b.call(b.fn("functions_arithmetic_decimal", "multiply:decimal_decimal"), field(6), field(7)),
              cast(field(0), string()),
              ifThen(Seq(b.call(b.fn("functions_comparison", "is_null:any"), field(0)) -> litI32(-1)), Some(field(1))),
              inList(field(9), litString("x"), litString("z")),
              structOf(field(0), field(9)), listOf(field(0), field(1), litI32(3))), 10, 11, 12, 13, 14, 15, 16, 17),
          "s", "q", "m", "c", "i", "l",
          "st", "st0", "st1", "li")),
      one(b =>
        b.plan(aggregate(people, Seq(field(3)),
            Seq(
              b.measure(b.fn("functions_arithmetic", "sum:fp64"), Seq(field(2))),
              b.measure(b.fn("functions_aggregate_generic", "count:any"), Seq(field(1)), distinct = true),
              b.measure(b.fn("functions_arithmetic", "sum:fp64"), Seq(field(2)),
                filter = Some(b.call(b.fn("functions_comparison", "gt:fp64_fp64"), field(2), litFp64(0)))))), "grp",
          "total", "names", "pos")),
      one(b =>
        b.plan(join(people, vt, JoinRel.JoinType.JOIN_TYPE_LEFT,
            Some(b.call(b.fn("functions_comparison", "equal:any_any"), field(0), field(4))),
            Some(b.call(b.fn("functions_comparison", "is_not_null:any"), field(1)))),
          "id", "name", "score", "grp", "k", "s", "d")),
      one(b =>
        b.plan(set(SetRel.SetOp.SET_OP_UNION_ALL, emit(project(vt, field(0)), 3),
            readVirtual(schema("k" -> i32()),
              Seq(Seq(litI32(2)), Seq(litNull(i32()))))), "k")),
      one(b =>
        b.plan(set(SetRel.SetOp.SET_OP_MINUS_PRIMARY_ALL, emit(project(vt, field(0)), 3),
            readVirtual(schema("k" -> i32()), Seq(Seq(litI32(2))))), "k")),
      one(b =>
        b.plan(fetch(sort(people, field(2) -> SortField.SortDirection.SORT_DIRECTION_DESC_NULLS_LAST,
              field(0) -> SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST), 1, 3), "id", "name", "score",
          "grp")),
      one(b =>
        b.plan(cross(vt, readVirtual(schema("z" -> bool()), Seq(Seq(litBool(true)), Seq(litNull(bool()))))),
          "k", "s", "d", "z")),
      one(b =>
        b.plan(project(vt, path(0), switchOn(field(0), Seq(litI32(1) -> litString("one")), Some(litString("many"))),
            b.call(b.fn("functions_arithmetic_decimal", "add:decimal_decimal"), field(2),
              litDecimal(java.math.BigDecimal.ONE, 5, 2)),
            fieldOf(listOf(field(0), litI32(9)), listSeg(1))), "k", "s", "d", "k2", "w", "dd", "el")),
      // Subqueries (correlated EXISTS, scalar), a lambda, a mark join, a dynamic parameter,
      // a row-value IN and string functions: the expression kinds of the function work.
      one(b =>
        b.plan(emit(project(filter(people,
                exists(filter(vt,
                    b.call(b.fn("functions_comparison", "equal:any_any"), field(0), outer(0))))),
              scalar(aggregate(vt, Nil, Seq(b.measure(b.fn("functions_arithmetic", "max:i32"), Seq(field(0)))))),
              b.call(b.fn("functions_list", "transform:list_func"), listOf(field(0), litI32(2)),
                lambda(b.fn("functions_arithmetic", "add:i32_i32"), b, litI32(1))),
              b.call(b.fn("functions_string", "regexp_replace:str_str_str"), field(1), litString("[ae]"),
                litString("_")),
              b.call(b.fn("functions_string", "substring:str_i32_i32"), field(1), litI32(-2), litI32(2)),
              param(1, i32())), 4, 5, 6, 7, 8, 9), "top", "xs", "r", "sub", "p", "x").toBuilder
          .addParameterBindings(io.sparksubstrait.proto.DynamicParameterBinding.newBuilder().setParameterAnchor(
              1).setValue(litI32(7).getLiteral)).build()),
      one(b =>
        b.plan(join(people, vt, JoinRel.JoinType.JOIN_TYPE_LEFT_MARK,
            Some(b.call(b.fn("functions_comparison", "equal:any_any"), field(0), field(4)))), "id", "name", "score",
          "grp", "m")),
      one(b =>
        b.plan(filter(vt,
            io.sparksubstrait.proto.Expression.newBuilder().setMultiOrList(
              io.sparksubstrait.proto.Expression.MultiOrList.newBuilder()
                .addValue(field(0)).addValue(field(1)).addOptions(
                  io.sparksubstrait.proto.Expression.MultiOrList.Record.newBuilder()
                    .addFields(litI32(2)).addFields(litString("b")))).build()), "k", "s", "d")))
  }

  private def sub(
    f: io.sparksubstrait.proto.Expression.Subquery.Builder => io.sparksubstrait.proto.Expression.Subquery.Builder) =
    io.sparksubstrait.proto.Expression.newBuilder().setSubquery(
      f(io.sparksubstrait.proto.Expression.Subquery.newBuilder())).build()
  private def exists(r: io.sparksubstrait.proto.Rel) = sub(
    _.setSetPredicate(io.sparksubstrait.proto.Expression.Subquery.SetPredicate.newBuilder()
        .setPredicateOp(
          io.sparksubstrait.proto.Expression.Subquery.SetPredicate.PredicateOp.PREDICATE_OP_EXISTS).setTuples(r)))
  private def scalar(r: io.sparksubstrait.proto.Rel) =
    sub(_.setScalar(io.sparksubstrait.proto.Expression.Subquery.Scalar.newBuilder().setInput(r)))
  private def outer(i: Int) = io.sparksubstrait.proto.Expression.newBuilder().setSelection(
    io.sparksubstrait.proto.Expression.FieldReference.newBuilder()
      .setOuterReference(io.sparksubstrait.proto.Expression.FieldReference.OuterReference.newBuilder().setStepsOut(
          1)).setDirectReference(structSeg(i))).build()
  private def param(anchor: Int, t: io.sparksubstrait.proto.Type) = io.sparksubstrait.proto.Expression.newBuilder()
    .setDynamicParameter(
      io.sparksubstrait.proto.DynamicParameter.newBuilder().setParameterReference(anchor).setType(t)).build()

  /** x -> f(x, arg) over one i32 parameter. */
  private def lambda(fn: Int, b: PlanBuilder, arg: io.sparksubstrait.proto.Expression) =
    lambdaOverI32(x => b.call(fn, x, arg))

  private val isthmusSql = Seq(
    TpchData.Q1, TpchData.Q6,
    "select l_orderkey, l_linenumber from lineitem where l_returnflag in ('A', 'R') and l_quantity between 5 and 20 order by l_orderkey desc limit 7",
    "select l_shipmode, count(distinct l_suppkey), max(l_discount), min(l_shipdate) from lineitem group by l_shipmode having count(*) > 2",
    "select case when l_quantity > 25 then 'big' when l_quantity > 10 then 'mid' else 'small' end as size, sum(l_tax) from lineitem group by 1",
    "select a.l_orderkey, b.l_partkey from lineitem a join lineitem b on a.l_orderkey = b.l_orderkey and a.l_linenumber < b.l_linenumber where a.l_orderkey < 20",
    "select l_orderkey from lineitem where l_tax > 0.05 union all select l_partkey from lineitem where l_discount is null",
    "select substring(l_comment, 1, 5), upper(l_shipmode), l_extendedprice * (1 - l_discount) / 3 from lineitem where l_comment like 'comment 1%'",
    "select l_suppkey, coalesce(l_discount, 0) + l_tax, cast(l_quantity as integer) from lineitem where not (l_linestatus = 'F') or l_tax is null",
    "select l_orderkey from lineitem a where exists (select 1 from lineitem b where b.l_orderkey = a.l_orderkey and b.l_suppkey <> a.l_suppkey)",
    "select l_orderkey, (select max(l_tax) from lineitem) from lineitem where l_partkey in (select l_partkey from lineitem where l_quantity > 40)")

  /**
   * The corpus: the hand-written plans, isthmus' (SQL it cannot plan is skipped) and every
   * real producer's fixture plan ([[ProducerFixtures]], whose tables the fuzzer registers).
   */
  def plans(): Seq[Plan] = {
    handWritten ++ isthmusSql.flatMap(sql => Try(Isthmus.plan(sql, TpchData.LineitemDdl)).toOption) ++
      ProducerFixtures.plans()
  }
}
