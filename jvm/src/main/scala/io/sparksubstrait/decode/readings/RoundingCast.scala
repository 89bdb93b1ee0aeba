package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message
import io.sparksubstrait.proto.{
  Expression, FunctionArgument, FunctionOption, Plan, Rel, SimpleExtensionDeclaration, SimpleExtensionURN, Type
}

/**
 * A producer whose engine casts a fractional number to an integer by rounding, where the
 * spec's cast (and Spark's) truncates: CAST(1.5 AS BIGINT) is 2 in DuckDB. Measured on
 * DuckDB 1.0.0 and 1.1.3: a double or float rounds half to even (0.5 → 0, 1.5 → 2, 2.5 → 2,
 * -2.5 → -2), a decimal half away from zero (0.5 → 1, 2.5 → 3, -2.5 → -3). ibis-substrait
 * writes ibis' cast("int64") of a float as a plain cast, which ibis' default engine (DuckDB)
 * rounds the same way. Such a cast whose input the plan types (DeclaredTypes) is read as the
 * cast of the standard round(x, 0) with the engine's tie rule, which is exact: the cast then
 * drops nothing. Where the plan does not type the input (a window's column, an outer
 * reference, a CASE) the cast stays as written: still Spark's truncation (docs/producers.md).
 */
private[sparksubstrait] final case class RoundingCast(name: String, range: Releases, rules: Map[Type.KindCase, String])
    extends ReadingOf(range) {
  val meaning: String = "casts of " +
    rules.toSeq.map { case (k, r) => s"${k.name.toLowerCase}: ${r.toLowerCase}" }.sorted.mkString(", ") +
    " to integers round; read as the cast of round(x, 0) with that rule where the plan types the input"

  override val needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set(Expression.Cast.getDescriptor)

  def lift(plan: Plan, found: String => Unit): Plan = {
    val anchor = DeclaredFunctions.freeAnchor(plan)
    var used = false
    def rounded(x: Expression, t: Type, rule: String): Expression = {
      used = true
      found(s"cast of ${t.getKindCase.name.toLowerCase} to an integer, rounded ${rule.toLowerCase}")
      val call = Expression.ScalarFunction.newBuilder().setFunctionReference(anchor).setOutputType(t)
        .addArguments(FunctionArgument.newBuilder().setValue(x))
        .addArguments(FunctionArgument.newBuilder().setValue(
            Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setI32(0))))
        .addOptions(FunctionOption.newBuilder().setName("rounding").addPreference(rule))
      Expression.newBuilder().setScalarFunction(call).build()
    }
    // Each relation's own expressions, typed by its inputs; nested relations (inputs, subqueries) have their turn.
    val lifted = MessageRewrite.skippingLeaves(plan) {
      case rel: Rel => scope(rel) match {
          case Some(input) =>
            MessageRewrite.until(rel, (m: Message) => (m ne rel) && m.isInstanceOf[Rel] || MessageRewrite.isLeaf(m)) {
              case c: Expression.Cast if DeclaredTypes.Integers(c.getType.getKindCase) =>
                DeclaredTypes.of(c.getInput, input) match {
                  case Some(t) if rules.contains(t.getKindCase) =>
                    c.toBuilder.setInput(rounded(c.getInput, t, rules(t.getKindCase))).build()
                  case _ => c
                }
            }
          case None => rel
        }
    }
    if (!used) plan else declared(lifted, anchor)
  }

  /** The input columns a relation's expressions see. */
  private def scope(rel: Rel): Option[Seq[Option[Type]]] = rel.getRelTypeCase match {
    case Rel.RelTypeCase.PROJECT => DeclaredTypes.of(rel.getProject.getInput)
    case Rel.RelTypeCase.FILTER => DeclaredTypes.of(rel.getFilter.getInput)
    case Rel.RelTypeCase.SORT => DeclaredTypes.of(rel.getSort.getInput)
    case Rel.RelTypeCase.AGGREGATE => DeclaredTypes.of(rel.getAggregate.getInput)
    case Rel.RelTypeCase.JOIN =>
      for (l <- DeclaredTypes.of(rel.getJoin.getLeft); r <- DeclaredTypes.of(rel.getJoin.getRight)) yield l ++ r
    case _ => None
  }

  /** The plan with `round` of functions_rounding declared at `anchor`, under a URN of its own. */
  private def declared(plan: Plan, anchor: Int): Plan = {
    val urn = (plan.getExtensionUrnsList.asScala.map(_.getExtensionUrnAnchor) :+ 0).max + 1
    plan.toBuilder
      .addExtensionUrns(
        SimpleExtensionURN.newBuilder().setExtensionUrnAnchor(urn).setUrn("extension:io.substrait:functions_rounding"))
      .addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
          SimpleExtensionDeclaration.ExtensionFunction.newBuilder()
            .setExtensionUrnReference(urn).setFunctionAnchor(anchor).setName("round")))
      .build()
  }
}

private[sparksubstrait] object RoundingCast {
  private val ToEven = "TIE_TO_EVEN"
  val duckDb: RoundingCast = RoundingCast("duckdb-rounding-cast", Releases.DuckDb,
    Map(Type.KindCase.FP32 -> ToEven, Type.KindCase.FP64 -> ToEven, Type.KindCase.DECIMAL -> "TIE_AWAY_FROM_ZERO"))
  // Decimal casts of ibis plans are left as written: not measured on ibis' engine (docs/producers.md).
  val ibis: RoundingCast = RoundingCast("ibis-float-to-integer-cast", Releases.Ibis,
    Map(Type.KindCase.FP32 -> ToEven, Type.KindCase.FP64 -> ToEven))
}
