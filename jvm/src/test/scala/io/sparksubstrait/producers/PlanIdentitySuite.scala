package io.sparksubstrait
package producers

import io.sparksubstrait.testing.{PlanIdentity, SparkSuite, TpchSchema}

/**
 * Plans from isthmus must optimize to the plan Spark SQL makes of the same text on the same
 * tables (see PlanIdentity for what is normalised). Data does not matter to plans, so the
 * tables are empty. The 22 TPC-H queries are reported (bench/ publishes the report, with
 * why each one differs); the shapes below, whose types isthmus and Spark agree on, must be
 * identical. The report writes both normalised plans of each query to jvm/target/plan-identity/.
 */
class PlanIdentitySuite extends SparkSuite {
  override def beforeAll(): Unit = { super.beforeAll(); TpchSchema.createEmptyTables(spark) }

  /** The comparison; with `dump`, both normalised plans are written there (`name.converted.txt`, `name.sql.txt`). */
  private def outcome(sql: String, dump: Option[String] = None): Either[String, PlanIdentity.Outcome] =
    TpchSchema.isthmus(sql).left.map(w => s"isthmus made no plan: $w").flatMap { plan =>
      try {
        val (converted, expected) = (SubstraitPlans.read(spark, plan.toByteArray), spark.sql(sql))
        dump.foreach { name =>
          val dir = java.nio.file.Paths.get("jvm/target/plan-identity")
          java.nio.file.Files.createDirectories(dir)
          Seq("converted" -> converted, "sql" -> expected).foreach { case (side, df) =>
            java.nio.file.Files.writeString(dir.resolve(s"$name.$side.txt"),
              PlanIdentity.normalize(df.queryExecution.optimizedPlan).treeString)
          }
        }
        Right(PlanIdentity.compare(converted, expected))
      } catch { case e: Exception => Left(s"conversion failed: ${e.getMessage.linesIterator.next()}") }
    }

  /** Query shapes TPC-H is made of, with types both sides agree on. */
  private val shapes = Seq(
    "projection and filter" ->
      "select n_name, n_regionkey from nation where n_nationkey > 3 and n_name <> 'PERU'",
    "comma join with the join condition in WHERE" ->
      "select c_name, o_orderdate from customer, orders where c_custkey = o_custkey and o_orderstatus = 'F'",
    "three-way comma join, filter pushed below the joins" ->
      "select n_name, s_name from supplier, nation, region where s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = 'ASIA'",
    "group by with count, min and max over a join" ->
      "select r_name, count(*) as n, min(n_nationkey), max(n_nationkey) from region, nation where n_regionkey = r_regionkey group by r_name",
    "left outer join with a condition on the inner side" ->
      "select c_custkey, o_orderkey from customer left join orders on c_custkey = o_custkey and o_orderstatus <> 'F'",
    "order by with explicit null ordering and limit" ->
      "select o_orderkey, o_orderdate from orders order by o_orderdate desc nulls last, o_orderkey asc nulls first limit 5",
    "self-join" ->
      "select a.n_name, b.n_name from nation a, nation b where a.n_regionkey = b.n_nationkey",
    // The subquery is a projection over an aggregate in Substrait (TPC-H Q17, Q20's shape).
    "correlated scalar subquery computing with its aggregate" ->
      "select n_name from nation where n_nationkey > (select 2 * min(r_regionkey) from region where r_regionkey = n_regionkey)")

  shapes.foreach { case (name, sql) =>
    test(s"optimizes like Spark SQL: $name") {
      outcome(sql) match {
        case Left(why) => fail(why)
        case Right(o) => assert(o.identical, s"\n${o.verdict}\n${o.diff}")
      }
    }
  }

  test("the 22 TPC-H plans from isthmus have Spark SQL's operators and joins; the report says what else differs") {
    val texts = TpchSchema.QueryNumbers.map(n => n -> TpchSchema.calciteSpelling(n, TpchSchema.query(n))).toMap
    val outcomes = TpchSchema.QueryNumbers.map(n => n -> outcome(texts(n), Some(f"q$n%02d")))
    outcomes.foreach {
      case (n, Left(why)) => info(s"Q$n: $why")
      case (n, Right(o)) =>
        // Whether Calcite left subqueries to the consumer, or decorrelated them into joins itself.
        val subqueries = TpchSchema.isthmus(texts(n)).toOption.map(p =>
          "\"subquery\":".r.findAllMatchIn(com.google.protobuf.util.JsonFormat.printer().print(p)).size).getOrElse(0)
        info(s"Q$n: ${o.verdict}; subqueries in the plan: $subqueries" + (if (o.identical) "" else "\n" + o.diff))
    }
    info(s"${outcomes.count(_._2.exists(_.identical))}/22 identical")
    // What remains may differ only inside expressions (declared types, null ordering, where
    // Calcite computes an aggregate's arguments, IN as ORs): never an operator or a join.
    outcomes.foreach {
      case (n, Right(o)) => assert(o.sameOperators, s"Q$n: another operator tree than Spark SQL's\n${o.diff}")
      case (n, Left(why)) => fail(s"Q$n: $why")
    }
  }
}
