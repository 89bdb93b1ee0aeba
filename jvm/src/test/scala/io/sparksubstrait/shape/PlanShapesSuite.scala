package io.sparksubstrait
package shape

import io.sparksubstrait.proto.{Expression, Plan}
import io.sparksubstrait.proto.JoinRel.JoinType._
import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.catalyst.expressions.{And, Exists, In, Expression => CExpression}
import org.apache.spark.sql.catalyst.plans.{Inner, LeftSemi}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, Join, LogicalPlan}

import io.sparksubstrait.shape.PlanShapes
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * The converter's plan shapes (shape/): each gives the rows of the same plan without
 * it (`spark.substrait.planShapes=false`) and of Spark SQL, with NULL keys, duplicates and
 * empty inputs, applies where it says, and leaves the plans it must not touch as written.
 */
class PlanShapesSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW a AS SELECT * FROM VALUES (1, 'a'), (2, 'b'), (2, 'b'), (NULL, 'n'), (4, NULL), (5, 'e') AS t(k, v)")
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW b AS SELECT * FROM VALUES (1, 10), (2, 20), (2, 21), (NULL, 30), (4, NULL), (6, 60) AS t(k, j)")
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW c AS SELECT * FROM VALUES (10, 'x'), (20, 'y'), (20, 'y'), (NULL, 'z'), (21, NULL) AS t(j, w)")
    spark.sql("CREATE OR REPLACE TEMP VIEW f AS SELECT * FROM VALUES (1), (2), (2), (NULL), (6) AS t(k)")
    // g: the grouped side, with NULL keys, NULL values and keys absent elsewhere.
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW g AS SELECT * FROM VALUES (1, 3), (1, 4), (2, 1), (2, NULL), (NULL, 9), (4, 2), (6, 5), (7, 1) AS t(k, x)")
    spark.sql("CREATE OR REPLACE TEMP VIEW gd AS SELECT CAST(k AS DOUBLE) AS k, x FROM g")
    for (t <- Seq("a", "b", "c", "f", "g"))
      spark.sql(s"CREATE OR REPLACE TEMP VIEW ${t}0 AS SELECT * FROM $t WHERE false")
  }

  private val aSchema = schema("k" -> i32(), "v" -> string())
  private val bSchema = schema("k" -> i32(), "j" -> i32())
  private val cSchema = schema("j" -> i32(), "w" -> string())
  private val fSchema = schema("k" -> i32())
  private val gSchema = schema("k" -> i32(), "x" -> i32())

  private def stamped(plan: Plan, producer: String): Plan =
    plan.toBuilder.setVersion(plan.getVersion.toBuilder.setProducer(producer)).build()

  private def withoutShapes(plan: Plan): DataFrame = withConf(PlanShapes.EnabledKey, "false") {
    val df = run(plan); df.collect(); df
  }

  /** The rows with the shapes, without them, and of the SQL, all the same; the converted plan. */
  private def sameRows(plan: Plan, sql: String): LogicalPlan = {
    val shaped = run(plan)
    assertSameRows(shaped, spark.sql(sql))
    assertSameRows(withoutShapes(plan), spark.sql(sql))
    shaped.queryExecution.analyzed
  }

  private def joins(p: LogicalPlan): Seq[Join] = p.collect { case j: Join => j } ++
    p.subqueries.flatMap(joins)

  // ---- mark-as-exists ----
  /** a LEFT_MARK b on k, then LEFT_MARK f on k: a's k, v and the two marks. */
  private def twoMarks(bd: PlanBuilder, bT: String, fT: String): io.sparksubstrait.proto.Rel = {
    val eq = bd.fn("functions_comparison", "equal:any_any")
    val onB =
      join(readNamed(aSchema, "a"), readNamed(bSchema, bT), JOIN_TYPE_LEFT_MARK, Some(bd.call(eq, field(0), field(2))))
    join(onB, readNamed(fSchema, fT), JOIN_TYPE_LEFT_MARK, Some(bd.call(eq, field(0), field(3))))
  }

  private def existenceJoins(df: DataFrame): Seq[Join] = df.queryExecution.optimizedPlan.collect {
    case j: Join if j.joinType.isInstanceOf[org.apache.spark.sql.catalyst.plans.ExistenceJoin] => j
  }

  /** SQL's spelling of the spec's mark of a ⋉ `t` on k: true, NULL where only a NULL condition met, false. */
  private def markSql(t: String) =
    s"CASE WHEN EXISTS (SELECT 1 FROM $t WHERE $t.k = a.k) THEN true " +
      s"WHEN EXISTS (SELECT 1 FROM $t WHERE ($t.k = a.k) IS NULL) THEN NULL ELSE false END"

  for ((bT, fT) <- Seq(("b", "f"), ("b0", "f"), ("b", "f0"))) {
    test(
      s"mark-as-exists: marks only ORed in a filter are SQL's EXISTS OR EXISTS, one existence join each ($bT, $fT)") {
      val bd = new PlanBuilder()
      val or = bd.fn("functions_boolean", "or:bool")
      val plan = bd.plan(emit(filter(twoMarks(bd, bT, fT), bd.call(or, field(2), field(3))), 0, 1), "k", "v")
      val sql =
        s"SELECT k, v FROM a WHERE EXISTS (SELECT 1 FROM $bT WHERE $bT.k = a.k) OR EXISTS (SELECT 1 FROM $fT WHERE $fT.k = a.k)"
      sameRows(plan, sql)
      assert(existenceJoins(run(plan)).size == existenceJoins(spark.sql(sql)).size,
        run(plan).queryExecution.optimizedPlan)
      assert(existenceJoins(withoutShapes(plan)).size == 4)
    }
  }

  test("mark-as-exists: coalesce(mark, false), as our writer writes an existence join, is the EXISTS too") {
    val sql =
      "SELECT k, v FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k) OR EXISTS (SELECT 1 FROM f WHERE f.k = a.k)"
    val written = Plan.parseFrom(SubstraitPlans.write(spark.sql(sql)))
    assertSameRows(run(written), spark.sql(sql))
    assert(existenceJoins(run(written)).size == existenceJoins(spark.sql(sql)).size,
      run(written).queryExecution.optimizedPlan)
  }

  test("mark-as-exists: a mark in the output, negated, or compared keeps its NULLs (same rows as the spec's CASE)") {
    val bd = new PlanBuilder()
    val not = bd.fn("functions_boolean", "not:bool")
    val eq = bd.fn("functions_comparison", "equal:any_any")
    // Output: both marks as they are.
    val shown = sameRows(bd.plan(twoMarks(bd, "b", "f"), "k", "v", "mb", "mf"),
      s"SELECT k, v, ${markSql("b")} AS mb, ${markSql("f")} AS mf FROM a")
    assert(shown.collectWithSubqueries { case p =>
        p.expressions.flatMap(_.collect { case e: Exists => e })
      }.flatten.size == 4,
      shown.treeString)
    // Negated: NOT NULL drops the row that NOT false keeps.
    sameRows(bd.plan(emit(filter(twoMarks(bd, "b", "f"), bd.call(not, field(2))), 0, 1), "k", "v"),
      s"SELECT k, v FROM a WHERE NOT (${markSql("b")})")
    // Compared with a column of the plan: `mark = false` is NULL, not true, where the mark is NULL.
    sameRows(bd.plan(emit(filter(twoMarks(bd, "b", "f"), bd.call(eq, field(2), field(3))), 0, 1), "k", "v"),
      s"SELECT k, v FROM a WHERE (${markSql("b")}) = (${markSql("f")})")
  }

  test("mark-as-exists: a mark under a union or a DISTINCT keeps its NULLs (rows compared whole)") {
    val bd = new PlanBuilder()
    val marked = join(readNamed(aSchema, "a"), readNamed(bSchema, "b"), JOIN_TYPE_LEFT_MARK,
      Some(bd.call(bd.fn("functions_comparison", "equal:any_any"), field(0), field(2))))
    // DISTINCT (v, mark), then only v: a NULL and a false mark of one v are two rows.
    val distinct = aggregate(emit(marked, 1, 2), Seq(field(0), field(1)), Nil)
    sameRows(bd.plan(emit(distinct, 0), "v"), s"SELECT v FROM (SELECT DISTINCT v, ${markSql("b")} AS m FROM a)")
    val both = set(io.sparksubstrait.proto.SetRel.SetOp.SET_OP_UNION_ALL, emit(marked, 0, 2), emit(marked, 0, 2))
    sameRows(bd.plan(both, "k", "m"), s"SELECT k, ${markSql("b")} FROM a UNION ALL SELECT k, ${markSql("b")} FROM a")
  }

  // ---- semi-join-under-grouping ----
  /** a ⋉ `rT` on a.k = rT.k (plus `extra`), grouped by a.v with `measures` of a.k. */
  private def groupedSemi(bd: PlanBuilder, rT: String, rSchema: io.sparksubstrait.proto.NamedStruct = bSchema,
    measures: Seq[io.sparksubstrait.proto.AggregateRel.Measure] = Nil, extra: Option[Expression] = None) = {
    val eq = bd.call(bd.fn("functions_comparison", "equal:any_any"), field(0), field(2))
    val condition = extra.fold(eq)(x => bd.call(bd.fn("functions_boolean", "and:bool"), eq, x))
    aggregate(join(readNamed(aSchema, "a"), readNamed(rSchema, rT), JOIN_TYPE_LEFT_SEMI, Some(condition)),
      Seq(field(1)),
      measures)
  }

  private def semiJoins(df: DataFrame): Int =
    df.queryExecution.optimizedPlan.collect { case j: Join if j.joinType == LeftSemi => j }.size

  for (rT <- Seq("b", "b0", "c")) {
    test(
      s"semi-join-under-grouping: a semi join below a grouping-only aggregate is an inner join, with distinct keys when the left is large ($rT)") {
      val bd = new PlanBuilder()
      // c's first column is j: a ⋉ c on a.k = c.j, keys absent and NULL on both sides.
      val rSchema = if (rT == "c") cSchema else bSchema
      val rKey = if (rT == "c") "j" else "k"
      val plan = bd.plan(groupedSemi(bd, rT, rSchema), "v")
      val sql = s"SELECT v FROM a WHERE k IN (SELECT $rKey FROM $rT) GROUP BY v"
      // a is small enough to broadcast: the inner join takes the right input as it is (TPC-DS
      // Q54's customer); a left side Spark would not broadcast joins the right's distinct keys.
      def distinctKeys(p: LogicalPlan) = joins(p).filter(_.joinType == Inner).map(_.right.isInstanceOf[Aggregate])
      val small = sameRows(plan, sql)
      assert(distinctKeys(small) == Seq(false), small)
      withConf("spark.sql.autoBroadcastJoinThreshold", "-1") {
        val large = sameRows(plan, sql)
        assert(distinctKeys(large) == Seq(true), large)
      }
      // (Of an empty b0 the optimizer leaves no join at all, with or without the shape.)
      assert(semiJoins(run(plan)) == 0 && semiJoins(withoutShapes(plan)) == (if (rT == "b0") 0 else 1),
        run(plan).queryExecution.optimizedPlan)
      // max and min, and DISTINCT aggregates, ignore duplicated rows too.
      val bd2 = new PlanBuilder()
      val withMax = bd2.plan(groupedSemi(bd2, rT, rSchema,
          Seq(bd2.measure(bd2.fn("functions_arithmetic", "max:i32"), Seq(field(0))),
            bd2.measure(bd2.fn("functions_aggregate_generic", "count:any"), Seq(field(0)), distinct = true))),
        "v", "m", "n")
      sameRows(withMax, s"SELECT v, max(k), count(DISTINCT k) FROM a WHERE k IN (SELECT $rKey FROM $rT) GROUP BY v")
      assert(semiJoins(run(withMax)) == 0, run(withMax).queryExecution.optimizedPlan)
    }
  }

  test("semi-join-under-grouping: counting aggregates, other conditions and floating-point keys keep the semi join") {
    val bd = new PlanBuilder()
    // count(k) counts duplicated rows: b has key 2 twice, so an inner join would count a's 2s twice.
    val counted = bd.plan(groupedSemi(bd, "b",
        measures = Seq(bd.measure(bd.fn("functions_aggregate_generic", "count:any"), Seq(field(0))))), "v", "n")
    sameRows(counted, "SELECT v, count(k) FROM a WHERE k IN (SELECT k FROM b) GROUP BY v")
    assert(semiJoins(run(counted)) == 1)
    val bd2 = new PlanBuilder()
    val lt = bd2.call(bd2.fn("functions_comparison", "lt:any_any"), field(0), field(3))
    val other = bd2.plan(groupedSemi(bd2, "b", extra = Some(lt)), "v")
    sameRows(other, "SELECT v FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND a.k < b.j) GROUP BY v")
    assert(semiJoins(run(other)) == 1)
    val bd3 = new PlanBuilder()
    val doubles = aggregate(join(readNamed(schema("k" -> fp64(), "x" -> i32()), "gd"),
        readNamed(schema("k" -> fp64(),
            "x" -> i32()), "gd"), JOIN_TYPE_LEFT_SEMI,
        Some(bd3.call(bd3.fn("functions_comparison", "equal:any_any"),
            field(0), field(2)))), Seq(field(1)), Nil)
    sameRows(bd3.plan(doubles, "x"), "SELECT x FROM gd WHERE k IN (SELECT k FROM gd) GROUP BY x")
    assert(semiJoins(run(bd3.plan(doubles, "x"))) == 1)
  }

  // ---- inner-join-chain ----
  private def rightDeepChain(bd: PlanBuilder, aT: String, bT: String, cT: String) = {
    val eq = bd.fn("functions_comparison", "equal:any_any")
    // a ⋈ (b ⋈ c on b.j = c.j, emitting b.k, c.w) on a.k = b.k: columns a.k, a.v, b.k, c.w
    val bc =
      emit(join(readNamed(bSchema, bT), readNamed(cSchema, cT), JOIN_TYPE_INNER, Some(bd.call(eq, field(1), field(2)))),
        0, 3)
    join(readNamed(aSchema, aT), bc, JOIN_TYPE_INNER, Some(bd.call(eq, field(0), field(2))))
  }

  for (producer <- Seq("DuckDB", "datafusion");
    (aT, bT, cT) <- Seq(("a", "b", "c"), ("a", "b0", "c"), ("a", "b", "c0"), ("a0", "b", "c"))) {
    test(s"inner-join-chain: $producer's right-deep inner joins left-deep, same rows ($aT, $bT, $cT)") {
      val bd = new PlanBuilder()
      val plan = stamped(bd.plan(rightDeepChain(bd, aT, bT, cT), "ak", "av", "bk", "cw"), producer)
      val analyzed = sameRows(plan,
        s"SELECT $aT.k, $aT.v, $bT.k, $cT.w FROM $aT JOIN ($bT JOIN $cT ON $bT.j = $cT.j) ON $aT.k = $bT.k")
      val js = joins(analyzed)
      assert(js.size == 2 && js.forall(j => !j.right.isInstanceOf[Join] && j.condition.isEmpty), analyzed.treeString)
      assert(analyzed.exists { case Filter(c, _: Join) => true; case _ => false }, analyzed.treeString)
    }
  }

  test(
    "inner-join-chain: a right input Spark would not broadcast (too large, or no broadcasts) stays as written, same rows") {
    for (threshold <- Seq("1", "-1")) withConf("spark.sql.autoBroadcastJoinThreshold", threshold) {
      val bd = new PlanBuilder()
      val plan = stamped(bd.plan(rightDeepChain(bd, "a", "b", "c"), "ak", "av", "bk", "cw"), "DuckDB")
      val analyzed = sameRows(plan, "SELECT a.k, a.v, b.k, c.w FROM a JOIN (b JOIN c ON b.j = c.j) ON a.k = b.k")
      assert(joins(analyzed).exists(j => j.right.isInstanceOf[Join] || j.right.children.exists(_.isInstanceOf[Join])),
        analyzed.treeString)
    }
  }

  test("explain names the shapes that rewrote the plan, with what they do") {
    val bd = new PlanBuilder()
    val plan = stamped(bd.plan(rightDeepChain(bd, "a", "b", "c"), "ak", "av", "bk", "cw"), "DuckDB")
    val json = SubstraitPlans.explainJson(spark, com.google.protobuf.util.JsonFormat.printer().print(plan), null, null)
    assert(json.contains("\"shapes\":[{\"name\":\"inner-join-chain\""), json.take(600))
    val isthmus = stamped(plan, "isthmus")
    assert(SubstraitPlans.explainJson(spark, com.google.protobuf.util.JsonFormat.printer().print(isthmus), null, null)
        .contains("\"shapes\":[]"))
  }

  test("explain maps the reshaped plan's operators to the relations that made them") {
    val bd = new PlanBuilder()
    val plan = stamped(bd.plan(rightDeepChain(bd, "a", "b", "c"), "ak", "av", "bk", "cw"), "DuckDB")
    val doc = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
      SubstraitPlans.explainJson(spark, com.google.protobuf.util.JsonFormat.printer().print(plan), null, null))
    import scala.jdk.CollectionConverters._
    val relations = doc.get("relations").elements().asScala.toSeq
    val nodeIds = doc.get("catalyst").get("nodes").elements().asScala.map(_.get("id").asInt).toSet
    def catalyst(kind: String) =
      relations.filter(_.get("kind").asText == kind).map(_.get("catalyst").elements().asScala.map(_.asInt).toSeq)
    // The three reads keep their operators; the joins now sit in the top join relation (the
    // chain it became), the inner join relation merged into it.
    assert(catalyst("read").size == 3 && catalyst("read").forall(ids => ids.nonEmpty && ids.forall(nodeIds)),
      doc.toPrettyString.take(3000))
    val joinOperators =
      relations.filter(_.get("kind").asText == "join").map(_.get("operators").elements().asScala.map(_.asText).toSeq)
    assert(joinOperators.flatten.count(_ == "Join") == 2, joinOperators)
    assert(relations.forall(_.get("catalyst").elements().asScala.forall(id => nodeIds(id.asInt))))
  }

  test("inner-join-chain: other producers' plans, outer joins and joins under a renaming projection stay as written") {
    val bd = new PlanBuilder()
    val isthmus = run(stamped(bd.plan(rightDeepChain(bd, "a", "b", "c"), "ak", "av", "bk", "cw"),
        "isthmus")).queryExecution.analyzed
    assert(joins(isthmus).exists(_.right.isInstanceOf[org.apache.spark.sql.catalyst.plans.logical.Project]),
      isthmus.treeString)
    val eq = bd.fn("functions_comparison", "equal:any_any")
    val leftOuter = join(readNamed(aSchema, "a"),
      join(readNamed(bSchema, "b"), readNamed(cSchema, "c"), JOIN_TYPE_INNER, Some(bd.call(eq, field(1), field(2)))),
      JOIN_TYPE_LEFT, Some(bd.call(eq, field(0), field(2))))
    val plan = stamped(bd.plan(leftOuter, "ak", "av", "bk", "bj", "cj", "cw"), "DuckDB")
    val analyzed = sameRows(plan, "SELECT * FROM a LEFT JOIN (b JOIN c ON b.j = c.j) ON a.k = b.k")
    assert(joins(analyzed).exists(j => j.right.isInstanceOf[Join]), analyzed.treeString)
  }

  // ---- semi-join-on-group-keys ----
  /** a ⋉ (g grouped by k: k, sum(x)) on a.k = g.k and a.k < sum(x). */
  private def semiOnAggregate(bd: PlanBuilder, aT: String, gT: String, gKey: io.sparksubstrait.proto.Type = i32(),
    onKey: Boolean = true) = {
    val grouped = aggregate(readNamed(schema("k" -> gKey, "x" -> i32()), gT), Seq(field(0)),
      Seq(bd.measure(bd.fn("functions_arithmetic", "sum:i32"), Seq(field(1)))))
    val keyEq = bd.call(bd.fn("functions_comparison", "equal:any_any"),
      if (gKey == i32()) field(0) else cast(field(0), gKey), field(2))
    val less = bd.call(bd.fn("functions_comparison", "lt:any_any"), cast(field(0), i64()), field(3))
    join(readNamed(aSchema, aT), grouped, JOIN_TYPE_LEFT_SEMI,
      Some(if (onKey) bd.call(bd.fn("functions_boolean", "and:bool"), keyEq, less) else less))
  }

  for ((aT, gT) <- Seq(("a", "g"), ("a0", "g"), ("a", "g0"))) {
    test(s"semi-join-on-group-keys: a semi join on all of an aggregate's keys is an inner join, same rows ($aT, $gT)") {
      val bd = new PlanBuilder()
      val analyzed = sameRows(bd.plan(semiOnAggregate(bd, aT, gT), "k", "v"),
        s"SELECT * FROM $aT LEFT SEMI JOIN (SELECT k, sum(x) AS s FROM $gT GROUP BY k) s ON $aT.k = s.k AND $aT.k < s.s")
      assert(joins(analyzed).map(_.joinType) == Seq(Inner), analyzed.treeString)
    }
  }

  test("semi-join-on-group-keys: not on part of the keys, not on floating-point keys (stays a semi join, same rows)") {
    val bd = new PlanBuilder()
    val notOnKey = sameRows(bd.plan(semiOnAggregate(bd, "a", "g", onKey = false), "k", "v"),
      "SELECT * FROM a LEFT SEMI JOIN (SELECT k, sum(x) AS s FROM g GROUP BY k) s ON a.k < s.s")
    assert(joins(notOnKey).map(_.joinType) == Seq(LeftSemi), notOnKey.treeString)
    val bd2 = new PlanBuilder()
    val floating = sameRows(bd2.plan(semiOnAggregate(bd2, "a", "gd", gKey = fp64()), "k", "v"),
      "SELECT * FROM a LEFT SEMI JOIN (SELECT k, sum(x) AS s FROM gd GROUP BY k) s ON CAST(a.k AS DOUBLE) = s.k AND a.k < s.s")
    assert(joins(floating).map(_.joinType) == Seq(LeftSemi), floating.treeString)
  }

  // ---- semi-join-as-in ----
  /** (a ⋈ b on a.k = b.k) ⋉ (g grouped by k having sum(x) > 2: k) on a.k = g.k: columns a.k, a.v, b.k, b.j. */
  private def semiOnKeysOnly(bd: PlanBuilder, aT: String, bT: String, gT: String) = {
    val eq = bd.fn("functions_comparison", "equal:any_any")
    val grouped = aggregate(readNamed(gSchema, gT), Seq(field(0)),
      Seq(bd.measure(bd.fn("functions_arithmetic", "sum:i32"), Seq(field(1)))))
    val having = emit(filter(grouped, bd.call(bd.fn("functions_comparison", "gt:any_any"), field(1), litI64(2))), 0)
    val ab =
      join(readNamed(aSchema, aT), readNamed(bSchema, bT), JOIN_TYPE_INNER, Some(bd.call(eq, field(0), field(2))))
    join(ab, having, JOIN_TYPE_LEFT_SEMI, Some(bd.call(eq, field(0), field(4))))
  }

  private def subqueries(p: LogicalPlan): Seq[CExpression] =
    p.flatMap(_.expressions.flatMap(_.collect { case s: org.apache.spark.sql.catalyst.expressions.SubqueryExpression =>
      s
    }))

  for ((aT, bT, gT) <- Seq(("a", "b", "g"), ("a0", "b", "g"), ("a", "b", "g0"))) {
    test(s"semi-join-as-in: a semi join on an aggregate's keys alone is SQL's IN subquery, same rows ($aT, $bT, $gT)") {
      val bd = new PlanBuilder()
      val analyzed = sameRows(stamped(bd.plan(semiOnKeysOnly(bd, aT, bT, gT), "ak", "av", "bk", "bj"), "datafusion"),
        s"SELECT * FROM $aT JOIN $bT ON $aT.k = $bT.k WHERE $aT.k IN (SELECT k FROM $gT GROUP BY k HAVING sum(x) > 2)")
      assert(joins(analyzed).map(_.joinType) == Seq(Inner), analyzed.treeString)
      assert(subqueries(analyzed).size == 1, analyzed.treeString)
    }
  }

  test("semi-join-as-in: Spark then filters both sides of the query's join on the key, as for the SQL") {
    val bd = new PlanBuilder()
    val df = run(stamped(bd.plan(semiOnKeysOnly(bd, "a", "b", "g"), "ak", "av", "bk", "bj"), "duckdb"))
    val semis = df.queryExecution.optimizedPlan.collect { case j: Join if j.joinType == LeftSemi => j }
    val sql =
      spark.sql("SELECT * FROM a JOIN b ON a.k = b.k WHERE a.k IN (SELECT k FROM g GROUP BY k HAVING sum(x) > 2)")
    val sqlSemis = sql.queryExecution.optimizedPlan.collect { case j: Join if j.joinType == LeftSemi => j }
    assert(semis.size == sqlSemis.size && semis.size == 2, df.queryExecution.optimizedPlan.treeString)
    // The semi join alone filters one side only.
    val without = withConf(PlanShapes.EnabledKey, "false")(run(stamped(bd.plan(semiOnKeysOnly(bd, "a", "b", "g"), "ak",
            "av", "bk", "bj"),
          "duckdb")).queryExecution.optimizedPlan)
    assert(without.collect { case j: Join if j.joinType == LeftSemi => j }.size == 1, without.treeString)
  }

  /** The semi join of [[semiOnKeysOnly]] inside a chain: its result ⋈ c on b.j = c.j (TPC-DS q64 as DataFusion writes it). */
  private def semiInChain(bd: PlanBuilder, aT: String, gT: String, cT: String) =
    join(semiOnKeysOnly(bd, aT, "b", gT), readNamed(cSchema, cT), JOIN_TYPE_INNER,
      Some(bd.call(bd.fn("functions_comparison", "equal:any_any"), field(3), field(4))))

  for ((aT, gT, cT) <- Seq(("a", "g", "c"), ("a", "g0", "c"), ("a0", "g", "c"), ("a", "g", "c0"))) {
    test(
      s"semi-join-as-in: over joins inside a chain of inner joins it is the inner join, in place (q64; $aT, $gT, $cT)") {
      val bd = new PlanBuilder()
      val analyzed = sameRows(
        stamped(bd.plan(semiInChain(bd, aT, gT, cT), "ak", "av", "bk", "bj", "cj", "cw"), "datafusion"),
        s"SELECT $aT.*, b.*, $cT.* FROM $aT JOIN b ON $aT.k = b.k " +
          s"JOIN (SELECT k FROM $gT GROUP BY k HAVING sum(x) > 2) s ON $aT.k = s.k JOIN $cT ON b.j = $cT.j")
      assert(subqueries(analyzed).isEmpty, analyzed.treeString)
      assert(joins(analyzed).map(_.joinType).distinct == Seq(Inner), analyzed.treeString)
      // Where the producer placed it: above a ⋈ b (not moved onto a alone), below the join with c.
      val withAggregate = joins(analyzed).filter(_.right.exists(_.isInstanceOf[Aggregate]))
      assert(withAggregate.size == 1 && withAggregate.head.left.output.exists(_.name == "j") &&
          !withAggregate.head.left.output.exists(_.name == "w"), analyzed.treeString)
    }
  }

  test("semi-join-as-in: on a table inside a chain (DuckDB's TPC-H Q18) it is still the IN") {
    val bd = new PlanBuilder()
    val eq = bd.fn("functions_comparison", "equal:any_any")
    val grouped = aggregate(readNamed(gSchema, "g"), Seq(field(0)),
      Seq(bd.measure(bd.fn("functions_arithmetic", "sum:i32"), Seq(field(1)))))
    val having = emit(filter(grouped, bd.call(bd.fn("functions_comparison", "gt:any_any"), field(1), litI64(2))), 0)
    val onA = join(readNamed(aSchema, "a"), having, JOIN_TYPE_LEFT_SEMI, Some(bd.call(eq, field(0), field(2))))
    val chain = join(onA, readNamed(bSchema, "b"), JOIN_TYPE_INNER, Some(bd.call(eq, field(0), field(2))))
    val analyzed = sameRows(stamped(bd.plan(chain, "ak", "av", "bk", "bj"), "DuckDB"),
      "SELECT * FROM a JOIN b ON a.k = b.k WHERE a.k IN (SELECT k FROM g GROUP BY k HAVING sum(x) > 2)")
    assert(subqueries(analyzed).size == 1, analyzed.treeString)
  }

  test("spark.substrait.planShapes.skip: a skipped shape is not applied; an unknown name is the setting error") {
    val bd = new PlanBuilder()
    val plan = stamped(bd.plan(semiOnKeysOnly(bd, "a", "b", "g"), "ak", "av", "bk", "bj"), "datafusion")
    val sql = "SELECT * FROM a JOIN b ON a.k = b.k WHERE a.k IN (SELECT k FROM g GROUP BY k HAVING sum(x) > 2)"
    val skipped = withConf(PlanShapes.SkipKey, " conjunct-order , semi-join-as-in") {
      val df = run(plan); assertSameRows(df, spark.sql(sql)); df.queryExecution.analyzed
    }
    // Left to semi-join-on-group-keys: the inner join, no IN.
    assert(subqueries(skipped).isEmpty && joins(skipped).map(_.joinType) == Seq(Inner, Inner), skipped.treeString)
    withConf(PlanShapes.SkipKey, "semi-join-as-in,no-such-shape") {
      val e = intercept[io.sparksubstrait.errors.SubstraitException](run(plan))
      assert(e.getCondition == "SUBSTRAIT_INVALID_SETTING" && e.getMessage.contains("no-such-shape"), e.getMessage)
    }
  }

  test("semi-join-as-in: with another condition, or on part of the keys, it is not an IN (same rows)") {
    val bd = new PlanBuilder()
    val withLess = sameRows(bd.plan(semiOnAggregate(bd, "a", "g"), "k", "v"),
      "SELECT * FROM a LEFT SEMI JOIN (SELECT k, sum(x) AS s FROM g GROUP BY k) s ON a.k = s.k AND a.k < s.s")
    assert(subqueries(withLess).isEmpty, withLess.treeString)
    // An equality with the aggregate's value as well (TPC-H Q2's `ps_supplycost = min(…)`): SQL's join, not an IN.
    val bd2 = new PlanBuilder()
    val eq = bd2.fn("functions_comparison", "equal:any_any")
    val grouped = aggregate(readNamed(gSchema, "g"), Seq(field(0)),
      Seq(bd2.measure(bd2.fn("functions_arithmetic", "sum:i32"), Seq(field(1)))))
    val onValue = join(readNamed(aSchema, "a"), grouped, JOIN_TYPE_LEFT_SEMI,
      Some(bd2.call(bd2.fn("functions_boolean", "and:bool"), bd2.call(eq, field(0), field(2)),
          bd2.call(eq, cast(field(0), i64()), field(3)))))
    val analyzed = sameRows(bd2.plan(onValue, "k", "v"),
      "SELECT * FROM a LEFT SEMI JOIN (SELECT k, sum(x) AS s FROM g GROUP BY k) s ON a.k = s.k AND CAST(a.k AS BIGINT) = s.s")
    assert(subqueries(analyzed).isEmpty && joins(analyzed).map(_.joinType) == Seq(Inner), analyzed.treeString)
  }

  // ---- one-row-join-as-scalar-subquery ----
  /** The one-row aggregate of g: max(x) (nullable: NULL of an empty g) or count(*) (never NULL). */
  private def globalOf(bd: PlanBuilder, gT: String, counted: Boolean) =
    aggregate(readNamed(gSchema, gT), Nil,
      Seq(
        if (counted) bd.measure(bd.fn("functions_aggregate_generic", "count:"), Nil)
        else bd.measure(bd.fn("functions_arithmetic", "max:i32"), Seq(field(1)))))

  private def scalarFilters(p: LogicalPlan): Seq[CExpression] =
    p.collect { case Filter(c, _) =>
      c.collect { case s: org.apache.spark.sql.catalyst.expressions.ScalarSubquery => s }
    }.flatten

  for ((aT, gT) <- Seq(("a", "g"), ("a0", "g"), ("a", "g0"))) {
    test(
      s"one-row-join-as-scalar-subquery: a join on a global aggregate's value is SQL's scalar subquery, same rows ($aT, $gT)") {
      val bd = new PlanBuilder()
      val eq = bd.fn("functions_comparison", "equal:any_any")
      // a ⋈ (max(x) of g) on a.k + 4 = max: columns a.k, a.v, max (g's max is 9: a's row 5 only)
      val plusFour = bd.call(bd.fn("functions_arithmetic", "add:i32_i32"), field(0), litI32(4))
      val right = join(readNamed(aSchema, aT), globalOf(bd, gT, counted = false), JOIN_TYPE_INNER,
        Some(bd.call(eq, plusFour, field(2))))
      val analyzed = sameRows(stamped(bd.plan(right, "k", "v", "m"), "DuckDB"),
        s"SELECT * FROM $aT JOIN (SELECT max(x) AS m FROM $gT) s ON $aT.k + 4 = s.m")
      assert(joins(analyzed).isEmpty && scalarFilters(analyzed).size == 1, analyzed.treeString)
      // The one row on the left, and a count (never NULL) compared with >: 8 > k + 3 for a's 1, 2, 2, 4.
      val bd2 = new PlanBuilder()
      val kPlusThree = bd2.call(bd2.fn("functions_arithmetic", "add:i32_i32"), field(1), litI32(3))
      val greater = bd2.call(bd2.fn("functions_comparison", "gt:any_any"), field(0), cast(kPlusThree, i64()))
      val left = join(globalOf(bd2, gT, counted = true), readNamed(aSchema, aT), JOIN_TYPE_INNER, Some(greater))
      val counted = sameRows(bd2.plan(left, "n", "k", "v"),
        s"SELECT * FROM (SELECT count(*) AS n FROM $gT) s JOIN $aT ON s.n > CAST($aT.k + 3 AS BIGINT)")
      assert(joins(counted).isEmpty && scalarFilters(counted).size == 1, counted.treeString)
      assert(!counted.output.head.nullable, counted.output)
      if (aT == "a" && gT == "g") assert(run(stamped(bd.plan(right, "k", "v", "m"), "DuckDB")).count() == 1 &&
        run(bd2.plan(left, "n", "k", "v")).count() == 4)
    }
  }

  test(
    "one-row-join-as-scalar-subquery: a cross join with the one row is a projection of its value; a filtered aggregate stays a join") {
    val bd = new PlanBuilder()
    val analyzed = sameRows(bd.plan(cross(readNamed(aSchema, "a"), globalOf(bd, "g", counted = false)), "k", "v", "m"),
      "SELECT * FROM a CROSS JOIN (SELECT max(x) AS m FROM g)")
    assert(joins(analyzed).isEmpty, analyzed.treeString)
    // HAVING may leave no row: not a scalar subquery (which would be NULL, not no row).
    val bd2 = new PlanBuilder()
    val having = filter(globalOf(bd2, "g", counted = false),
      bd2.call(bd2.fn("functions_comparison", "gt:any_any"), field(0), litI32(100)))
    val noRow = sameRows(bd2.plan(cross(readNamed(aSchema, "a"), having), "k", "v", "m"),
      "SELECT * FROM a CROSS JOIN (SELECT max(x) AS m FROM g HAVING max(x) > 100)")
    assert(joins(noRow).size == 1, noRow.treeString)
  }

  test(
    "one-row-join-as-scalar-subquery: a join of one-row inputs only (SQL's FROM list of one-row derived tables) stays a join") {
    // Three global aggregates of g cross joined (TPC-DS q28's shape), and a third joined on a condition.
    val bd = new PlanBuilder()
    val three = cross(cross(globalOf(bd, "g", counted = false), globalOf(bd, "g", counted = true)),
      globalOf(bd, "g0", counted = true))
    val analyzed = sameRows(bd.plan(three, "m", "n", "n0"),
      "SELECT * FROM (SELECT max(x) AS m FROM g) a, (SELECT count(*) AS n FROM g) b, (SELECT count(*) AS n0 FROM g0) c")
    assert(joins(analyzed).size == 2 && subqueries(analyzed).isEmpty, analyzed.treeString)
    val bd2 = new PlanBuilder()
    val gt = bd2.fn("functions_comparison", "gt:any_any")
    val onValue = join(cross(globalOf(bd2, "g", counted = true), globalOf(bd2, "g0", counted = true)),
      globalOf(bd2, "g", counted = false), JOIN_TYPE_INNER, Some(bd2.call(gt, field(0), field(1))))
    val conditioned = sameRows(bd2.plan(onValue, "n", "n0", "m"),
      "SELECT * FROM (SELECT count(*) AS n FROM g) a, (SELECT count(*) AS n0 FROM g0) b, (SELECT max(x) AS m FROM g) c " +
        "WHERE a.n > b.n0")
    assert(joins(conditioned).size == 2 && subqueries(conditioned).isEmpty, conditioned.treeString)
    // Joined to a relation of many rows first (a decorrelation's order), each one row is a scalar subquery again.
    val bd3 = new PlanBuilder()
    val withA =
      cross(cross(readNamed(aSchema, "a"), globalOf(bd3, "g", counted = false)), globalOf(bd3, "g", counted = true))
    val mixed = sameRows(bd3.plan(withA, "k", "v", "m", "n"),
      "SELECT * FROM a, (SELECT max(x) AS m FROM g) b, (SELECT count(*) AS n FROM g) c")
    assert(joins(mixed).isEmpty, mixed.treeString)
  }

  // ---- semi-join-below-aggregate ----
  /** (a ⋉ f on a.k = f.k) ⋈ (g grouped by k: k, sum(x)) on a.k = g.k: columns a.k, a.v, g.k, sum. */
  private def semiThenAggregate(bd: PlanBuilder, aT: String, fT: String, gT: String) = {
    val eq = bd.fn("functions_comparison", "equal:any_any")
    val filtered =
      join(readNamed(aSchema, aT), readNamed(fSchema, fT), JOIN_TYPE_LEFT_SEMI, Some(bd.call(eq, field(0), field(2))))
    val grouped = aggregate(readNamed(gSchema, gT), Seq(field(0)),
      Seq(bd.measure(bd.fn("functions_arithmetic", "sum:i32"), Seq(field(1)))))
    join(filtered, grouped, JOIN_TYPE_INNER, Some(bd.call(eq, field(0), field(2))))
  }

  for ((aT, fT, gT) <- Seq(("a", "f", "g"), ("a", "f0", "g"), ("a0", "f", "g"), ("a", "f", "g0"))) {
    test(
      s"semi-join-below-aggregate: the query's semi join on the key also filters the aggregate's input, a copy with ids of its own ($aT, $fT, $gT)") {
      val bd = new PlanBuilder()
      val analyzed = sameRows(stamped(bd.plan(semiThenAggregate(bd, aT, fT, gT), "ak", "av", "gk", "s"), "datafusion"),
        s"SELECT * FROM ($aT LEFT SEMI JOIN $fT ON $aT.k = $fT.k) q JOIN (SELECT k, sum(x) FROM $gT GROUP BY k) s ON q.k = s.k")
      val belowAggregate =
        analyzed.collect { case a: Aggregate => a.child }.collect { case j: Join if j.joinType == LeftSemi => j }
      assert(belowAggregate.size == 1, analyzed.treeString)
      // The filtering side placed twice, each with ids of its own (shape/FreshIds).
      val filterSides = analyzed.collect { case j: Join if j.joinType == LeftSemi => j.right.outputSet }
      assert(filterSides.size == 2 && filterSides.head.intersect(filterSides(1)).isEmpty, analyzed.treeString)
    }
  }

  // ---- aggregate-join-early ----
  /**
   * ((a ⋈ b on a.k = b.k) ⋈ c on b.j = c.j, emitting a.k, a.v, b.j, c.w) ⋈ (g grouped by k: k,
   * sum(x)) on a.k = g.k and (b.j or, with `onC`, c.j) > sum(x): TPC-H Q2 as DataFusion writes it.
   */
  private def aggregateOnChain(bd: PlanBuilder, aT: String, bT: String, cT: String, gT: String, onC: Boolean = false,
    groupAlso: Boolean = false, keysOnly: Boolean = false) = {
    val eq = bd.fn("functions_comparison", "equal:any_any")
    val ab =
      join(readNamed(aSchema, aT), readNamed(bSchema, bT), JOIN_TYPE_INNER, Some(bd.call(eq, field(0), field(2))))
    val abc = emit(join(ab, readNamed(cSchema, cT), JOIN_TYPE_INNER, Some(bd.call(eq, field(3), field(4)))), 0, 1, 3, 5)
    val keys = if (groupAlso) Seq(field(0), field(1)) else Seq(field(0))
    val grouped = emit(aggregate(readNamed(gSchema, gT), keys,
        Seq(bd.measure(bd.fn("functions_arithmetic", "sum:i32"), Seq(field(1))))),
      0, if (groupAlso) 2 else 1)
    val compared = if (onC) bd.call(bd.fn("functions_string", "char_length:str"), field(3)) else field(2)
    val greater = bd.call(bd.fn("functions_comparison", "gt:any_any"), cast(compared, i64()), field(5))
    val onKey = bd.call(eq, field(0), field(4))
    join(abc, grouped, JOIN_TYPE_INNER,
      Some(if (keysOnly) onKey else bd.call(bd.fn("functions_boolean", "and:bool"), onKey, greater)))
  }

  private def aggregateJoinSql(aT: String, bT: String, cT: String, gT: String, onC: Boolean = false,
    groupAlso: Boolean = false, keysOnly: Boolean = false) =
    s"SELECT $aT.k, $aT.v, $bT.j, $cT.w, s.k, s.s FROM $aT JOIN $bT ON $aT.k = $bT.k JOIN $cT ON $bT.j = $cT.j " +
      s"JOIN (SELECT k, sum(x) AS s FROM $gT GROUP BY k${if (groupAlso) ", x" else ""}) s ON $aT.k = s.k" +
      (if (keysOnly) "" else s" AND ${if (onC) s"char_length($cT.w)" else s"$bT.j"} > s.s")

  /** The join whose right input holds the aggregate, and whether `c`'s columns are in its left input. */
  private def aggregateJoinAboveC(p: LogicalPlan): Boolean = {
    val withAggregate = joins(p).filter(_.right.exists(_.isInstanceOf[Aggregate]))
    assert(withAggregate.size == 1, p.treeString)
    withAggregate.head.left.output.exists(_.name == "w")
  }

  for (producer <- Seq("datafusion", "DuckDB");
    (aT, bT, cT, gT) <-
      Seq(("a", "b", "c", "g"), ("a", "b", "c", "g0"), ("a0", "b", "c", "g"), ("a", "b", "c0", "g"))) {
    test(
      s"aggregate-join-early: $producer's join with an aggregate on its keys moves below the joins it does not need, same rows ($aT, $bT, $cT, $gT)") {
      val bd = new PlanBuilder()
      val plan = stamped(bd.plan(aggregateOnChain(bd, aT, bT, cT, gT), "ak", "av", "bj", "cw", "gk", "s"), producer)
      val analyzed = sameRows(plan, aggregateJoinSql(aT, bT, cT, gT))
      assert(!aggregateJoinAboveC(analyzed), analyzed.treeString)
      assert(analyzed.output.map(_.name) == Seq("ak", "av", "bj", "cw", "gk", "s"))
    }
  }

  test(
    "aggregate-join-early: not when the condition needs the top join's columns, on part of the keys, on the keys alone, or for isthmus (same rows)") {
    val bd = new PlanBuilder()
    def shaped(rel: io.sparksubstrait.proto.Rel, producer: String = "datafusion", sql: String) =
      sameRows(stamped(bd.plan(rel, "ak", "av", "bj", "cw", "gk", "s"), producer), sql)
    assert(aggregateJoinAboveC(shaped(aggregateOnChain(bd, "a", "b", "c", "g", onC = true),
          sql = aggregateJoinSql("a", "b", "c", "g", onC = true))))
    assert(aggregateJoinAboveC(shaped(aggregateOnChain(bd, "a", "b", "c", "g", groupAlso = true),
          sql = aggregateJoinSql("a", "b", "c", "g", groupAlso = true))))
    assert(aggregateJoinAboveC(shaped(aggregateOnChain(bd, "a", "b", "c", "g"), "isthmus",
          aggregateJoinSql("a", "b", "c", "g"))))
    // On the keys alone: a join of the query's FROM list (TPC-DS q64's cs_ui), joined in the list's order.
    assert(aggregateJoinAboveC(shaped(aggregateOnChain(bd, "a", "b", "c", "g", keysOnly = true),
          sql = aggregateJoinSql("a", "b", "c", "g", keysOnly = true))))
  }

  for ((aT, gT) <- Seq(("a", "g"), ("a", "g0"), ("a0", "g"))) {
    test(
      s"aggregate-join-early: two aggregates joined on one key to a chain stay put, converted once (TPC-DS q83's shape; $aT, $gT)") {
      // (a ⋈ sum(x) of g by k on a.k = k) ⋈ max(x) of g by k on a.k = k: each aggregate join could
      // move below the other; before the fix each did, forever (a StackOverflowError).
      val bd = new PlanBuilder()
      val eq = bd.fn("functions_comparison", "equal:any_any")
      def grouped(fn: String) =
        aggregate(readNamed(gSchema, gT), Seq(field(0)),
          Seq(bd.measure(bd.fn("functions_arithmetic", fn), Seq(field(1)))))
      val first =
        join(readNamed(aSchema, aT), grouped("sum:i32"), JOIN_TYPE_INNER, Some(bd.call(eq, field(0), field(2))))
      val both = join(first, grouped("max:i32"), JOIN_TYPE_INNER, Some(bd.call(eq, field(0), field(4))))
      val plan = stamped(bd.plan(both, "ak", "av", "sk", "s", "mk", "m"), "datafusion")
      sameRows(plan,
        s"SELECT $aT.k, $aT.v, s.k, s.s, m.k, m.m FROM $aT JOIN (SELECT k, sum(x) AS s FROM $gT GROUP BY k) s " +
          s"ON $aT.k = s.k JOIN (SELECT k, max(x) AS m FROM $gT GROUP BY k) m ON $aT.k = m.k")
    }
  }

  // ---- conjunct-order ----
  private def conjuncts(c: CExpression): Seq[CExpression] = c match {
    case And(l, r) => conjuncts(l) ++ conjuncts(r)
    case other => Seq(other)
  }

  test("conjunct-order: DuckDB's conjuncts cheapest first (null tests, dates, decimals, strings), same rows") {
    spark.sql("CREATE OR REPLACE TEMP VIEW t AS SELECT i, d, CAST(m AS DECIMAL(5,2)) AS m, s FROM VALUES " +
      "(1, DATE'2024-01-05', 1.50BD, 'x'), (2, DATE'2024-02-01', 0.50BD, 'y'), (2, DATE'2024-02-01', 0.50BD, 'y'), " +
      "(NULL, NULL, NULL, NULL), (3, DATE'2023-12-31', 2.00BD, 'x') AS t(i, d, m, s)")
    val tSchema = schema("i" -> i32(), "d" -> date(), "m" -> decimal(5, 2), "s" -> string())
    val bd = new PlanBuilder()
    val and = bd.fn("functions_boolean", "and:bool")
    def cmp(name: String, l: Expression, r: Expression) = bd.call(bd.fn("functions_comparison", s"$name:any_any"), l, r)
    val condition = bd.call(and,
      cmp("equal", field(3), litString("x")),
      cmp("lt", field(2), litDecimal(new java.math.BigDecimal("1.75"), 5, 2)),
      bd.call(bd.fn("functions_comparison", "is_not_null:any"), field(1)),
      cmp("gte", field(1), litDate(19700)))
    for (producer <- Seq("DuckDB", "isthmus")) {
      val plan = stamped(bd.plan(filter(readNamed(tSchema, "t"), condition), "i", "d", "m", "s"), producer)
      val analyzed =
        sameRows(plan, "SELECT * FROM t WHERE s = 'x' AND m < 1.75 AND d IS NOT NULL AND d >= DATE'2023-12-31'")
      val order = analyzed.collectFirst { case Filter(c, _) => conjuncts(c).map(_.references.head.name) }.get
      assert(order == (if (producer == "DuckDB") Seq("d", "d", "m", "s") else Seq("s", "m", "d", "d")),
        s"$producer: $order")
    }
  }

  test("conjunct-order: a conjunct that can raise keeps its guard in front (x <> 0 before 10 / x under ANSI)") {
    withConf("spark.sql.ansi.enabled", "true") {
      spark.sql(
        "CREATE OR REPLACE TEMP VIEW z AS SELECT * FROM VALUES (0, 'a'), (2, 'b'), (5, 'c'), (NULL, 'd') AS t(x, s)")
      val bd = new PlanBuilder()
      val guard = bd.call(bd.fn("functions_comparison", "not_equal:any_any"), field(0), litI32(0))
      val quotient = bd.call(bd.fn("functions_arithmetic", "divide:i32_i32"), litI32(10), field(0))
      val big = bd.call(bd.fn("functions_comparison", "gt:i32_i32"), quotient, litI32(1))
      val named = bd.call(bd.fn("functions_comparison", "equal:any_any"), field(1), litString("b"))
      val condition = bd.call(bd.fn("functions_boolean", "and:bool"), named, guard, big)
      val plan =
        stamped(bd.plan(filter(readNamed(schema("x" -> i32(), "s" -> string()), "z"), condition), "x", "s"), "DuckDB")
      assertSameRows(run(plan), spark.sql("SELECT * FROM z WHERE s = 'b' AND x <> 0 AND 10 / x > 1"))
      val order = run(plan).queryExecution.analyzed.collectFirst { case Filter(c, _) => conjuncts(c) }.get
      assert(order.last.toString.contains(" div "), order)
    }
  }

  // ---- equalities-as-in ----
  test(
    "equalities-as-in: a = l1 OR a = l2 OR a = l3 as a IN (…), NULL column and NULL literal as SQL's; gathered among other terms; single or float equalities stay") {
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW e AS SELECT * FROM VALUES (1, 'AIR', 1.5D), (2, 'RAIL', 2.5D), (2, 'RAIL', 2.5D), " +
        "(NULL, NULL, NULL), (3, 'AIR REG', CAST('NaN' AS DOUBLE)) AS t(i, s, f)")
    spark.sql("CREATE OR REPLACE TEMP VIEW e0 AS SELECT * FROM e WHERE false")
    val eSchema = schema("i" -> i32(), "s" -> string(), "f" -> fp64())
    val bd = new PlanBuilder()
    val or = bd.fn("functions_boolean", "or:bool")
    def eq(l: Expression, r: Expression) = bd.call(bd.fn("functions_comparison", "equal:any_any"), l, r)
    def ins(p: LogicalPlan) = p.collect { case Filter(c, _) => c.collect { case i: In => i } }.flatten
    for (producer <- Seq("DataFusion", "isthmus"); table <- Seq("e", "e0")) {
      // Strings, the literal first in one equality.
      val strings = stamped(bd.plan(filter(readNamed(eSchema, table),
            bd.call(or, eq(field(1), litString("AIR")),
              eq(litString("AIR REG"), field(1)))), "i", "s", "f"), producer)
      assert(ins(sameRows(strings, s"SELECT * FROM $table WHERE s IN ('AIR', 'AIR REG')")).size == 1)
      // Three integers, one a NULL literal: true where equal, else NULL (never false): as SQL's IN.
      val ints = stamped(bd.plan(project(readNamed(eSchema, table),
            bd.call(or, eq(field(0), litI32(2)), eq(field(0), litNull(i32())),
              eq(field(0), litI32(3)))), "i", "s", "f", "hit"), producer)
      val analyzed = sameRows(ints, s"SELECT *, i IN (2, NULL, 3) FROM $table")
      assert(analyzed.collect { case p: org.apache.spark.sql.catalyst.plans.logical.Project =>
          p.projectList.flatMap(_.collect { case i: In => i })
        }
          .flatten.map(_.list.size) == Seq(3), analyzed)
      // Another column among the disjuncts, and doubles (NaN, -0.0): left as written.
      val mixed = stamped(bd.plan(filter(readNamed(eSchema, table),
            bd.call(or, eq(field(0), litI32(1)), eq(field(1), litString("RAIL")))),
          "i", "s", "f"), producer)
      assert(ins(sameRows(mixed, s"SELECT * FROM $table WHERE i = 1 OR s = 'RAIL'")).isEmpty)
      val doubles = stamped(bd.plan(filter(readNamed(eSchema, table),
            bd.call(or, eq(field(2), litFp64(1.5)),
              eq(field(2), litFp64(Double.NaN)))), "i", "s", "f"), producer)
      assert(ins(sameRows(doubles, s"SELECT * FROM $table WHERE f = 1.5D OR f = CAST('NaN' AS DOUBLE)")).isEmpty)
      // An expression of a column (TPC-H Q22's substring), NULL for the NULL row: computed once, in an IN.
      val substr = bd.fn("functions_string", "substring:str_i32_i32")
      def prefix = bd.call(substr, field(1), litI32(1), litI32(3))
      val onExpression = stamped(bd.plan(filter(readNamed(eSchema, table),
            bd.call(or, eq(prefix, litString("AIR")),
              eq(prefix, litString("RAI")))), "i", "s", "f"), producer)
      assert(ins(sameRows(onExpression, s"SELECT * FROM $table WHERE substring(s, 1, 3) IN ('AIR', 'RAI')")).size == 1)
      // Two different expressions: left as written.
      def other = bd.call(substr, field(1), litI32(2), litI32(3))
      val twoExpressions = stamped(bd.plan(filter(readNamed(eSchema, table),
            bd.call(or, eq(prefix, litString("AIR")),
              eq(other, litString("AIL")))), "i", "s", "f"), producer)
      assert(ins(sameRows(twoExpressions,
            s"SELECT * FROM $table WHERE substring(s, 1, 3) = 'AIR' OR substring(s, 2, 3) = 'AIL'")).isEmpty)
      // Equalities of one operand among other terms, in nested disjunctions (isthmus' TPC-DS Q15):
      // gathered into one IN per operand with two or more; a single one, a double's and the
      // comparison stay as written.
      def gt(l: Expression, r: Expression) = bd.call(bd.fn("functions_comparison", "gt:any_any"), l, r)
      val scattered = stamped(bd.plan(filter(readNamed(eSchema, table),
            bd.call(or,
              bd.call(or, eq(prefix, litString("AIR")), eq(field(0), litI32(1)), eq(field(2), litFp64(2.5))),
              bd.call(or, gt(field(0), litI32(2)), eq(prefix, litString("RAI")), eq(field(2), litFp64(Double.NaN))),
              eq(prefix, litNull(string())))), "i", "s", "f"), producer)
      val gatheredIns = ins(sameRows(scattered,
          s"SELECT * FROM $table WHERE substring(s, 1, 3) = 'AIR' OR i = 1 OR f = 2.5D OR i > 2 OR " +
            s"substring(s, 1, 3) = 'RAI' OR f = CAST('NaN' AS DOUBLE) OR substring(s, 1, 3) = NULL"))
      assert(gatheredIns.map(_.list.size) == Seq(3), gatheredIns)
    }
  }

  test("spark.substrait.planShapes: an unusable value is the project's setting error") {
    val bd = new PlanBuilder()
    withConf(PlanShapes.EnabledKey, "sometimes") {
      val e = intercept[io.sparksubstrait.errors.SubstraitException](run(bd.plan(readNamed(aSchema, "a"), "k", "v")))
      assert(e.getCondition == "SUBSTRAIT_INVALID_SETTING", e.getMessage)
    }
  }
}
