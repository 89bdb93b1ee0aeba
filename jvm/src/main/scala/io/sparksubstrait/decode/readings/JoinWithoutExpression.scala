package io.sparksubstrait.decode.readings

import io.sparksubstrait.proto.{Expression, JoinRel, Plan, Rel}

/**
 * The spec's JoinRel requires its expression ("Can be the literal True"; a cross join is a
 * CrossRel), and a JoinRel without one is refused. DataFusion writes one anyway: 31 and 32 for
 * a join whose whole condition is not an equality of keys (a non-equi join, a scalar
 * subquery's join, TPC-H Q11 and Q22: the condition, if any, in `post_join_filter`), 43 to 55
 * for its cross join (an inner JoinRel with neither). In DataFusion's engine that join pairs
 * every row (its own consumer reads a missing expression as true), so it is read with the
 * expression the literal true: what the spec calls a join of every pair.
 */
private[sparksubstrait] object JoinWithoutExpression extends Reading {
  val name = "datafusion-join-without-expression"
  val releases = "DataFusion 31, 32 (spec 0.33, 0.35) and 43 to 55 (spec 0.58 on)"
  val meaning = "a JoinRel without its expression (a cross join, or a condition only in post_join_filter); " +
    "read with the expression the literal true"

  def appliesTo(stamp: ProducerStamp): Boolean =
    stamp.within("datafusion", "0.0", "0.35") || stamp.within("datafusion", "0.58", ProducerStamp.Newest)

  override def needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set(JoinRel.getDescriptor)

  private val True = Expression.newBuilder()
    .setLiteral(Expression.Literal.newBuilder().setBoolean(true).setNullable(false)).build()

  def lift(plan: Plan, found: String => Unit): Plan =
    MessageRewrite.skippingLeavesLocated(plan) {
      case (r: Rel, at) if r.hasJoin && !r.getJoin.hasExpression =>
        found(
          s"${at / "join"}: a ${r.getJoin.getType.name.stripPrefix("JOIN_TYPE_").toLowerCase} join without expression")
        r.toBuilder.setJoin(r.getJoin.toBuilder.setExpression(True)).build()
    }
}
