package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.plans.logical.{CTERelationRef, WithCTE}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.Rel
import io.sparksubstrait.write.{CatalystPath, WriteContext}

/**
 * WITH (analyzed plans; the optimizer inlines CTEs it does not share): each reference is
 * written as the definition's relation, whose record is the reference's, column for column.
 * A definition that is not deterministic is refused: evaluated once per reference, its
 * references could see different rows.
 */
private[sparksubstrait] object CteWriter {
  def withCte(w: WithCTE, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    ctx.withCteDefinitions(w.cteDefs.map(d => d.id -> d.child))(RelWriter.write(w.plan, at))

  def ref(r: CTERelationRef, at: CatalystPath)(implicit ctx: WriteContext): Rel = {
    val definition = ctx.cteDefinition(r.cteId).getOrElse(throw SubstraitErrors.unwritable(at.toString,
        s"a reference to CTE ${r.cteId}", "its definition is not in the plan written", "a CTE defined in the plan"))
    if (!definition.deterministic) {
      throw SubstraitErrors.unwritable(at.toString, s"a reference to the non-deterministic CTE ${r.cteId}",
        "each reference would evaluate it again and could see other rows", "deterministic CTEs")
    }
    RelWriter.write(definition, at / s"CTE ${r.cteId}")
  }
}
