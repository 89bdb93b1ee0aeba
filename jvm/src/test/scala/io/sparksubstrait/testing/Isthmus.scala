package io.sparksubstrait.testing

import io.substrait.isthmus.SqlToSubstrait
import io.substrait.isthmus.sql.SubstraitCreateStatementParser
import io.substrait.plan.PlanProtoConverter

import io.sparksubstrait.proto.Plan

/**
 * isthmus (Calcite's SQL to Substrait, substrait-java), the test-time producer. It builds
 * substrait-java's own message classes; a plan crosses over as bytes, exactly as a plan
 * from any other producer reaches us.
 */
object Isthmus {

  /** isthmus' plan for `sql` over the tables of the CREATE TABLE statements `ddl`. */
  def plan(sql: String, ddl: String*): Plan = {
    val catalog = SubstraitCreateStatementParser.processCreateStatementsToCatalog(ddl: _*)
    Plan.parseFrom(new PlanProtoConverter().toProto(new SqlToSubstrait().convert(sql, catalog)).toByteArray)
  }
}
