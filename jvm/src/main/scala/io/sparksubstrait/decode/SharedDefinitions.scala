package io.sparksubstrait.decode

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import com.google.protobuf.{Descriptors, Message}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.proto.{Expression, Plan, PlanRel, Rel}
import io.sparksubstrait.foundation.PlanPath

/**
 * Definitions a plan writes once and uses by number, inlined at decode time so that
 * converters see a plain tree:
 *  - detached relations and expressions (spec 0.105+): encoding only, a `detached_rel_ordinal`
 *    or `detached_expression_ordinal` stands for entry N of its PlanRel's lists;
 *  - named lambdas (spec 0.106+): a `named_lambda_reference` (a function value) or a lambda
 *    invocation's `named_lambda` stands for the plan's lambda of that anchor, which captures
 *    nothing of the caller, so its body means the same wherever it is written.
 *
 * Definitions may use one another but not themselves (the spec: acyclic). Inlining shares
 * each definition's one copy, but converting walks every use, so the size a plan unfolds to
 * counts against [[PlanLimits.maxBytes]].
 */
private[decode] object SharedDefinitions {

  /** Whether the plan defines any (the decoder also inlines when [[PlanTreeCheck]] met a use). */
  def defines(plan: Plan): Boolean = plan.getNamedLambdasCount > 0 ||
    plan.getRelationsList.asScala.exists(r => r.getDetachedRelsCount > 0 || r.getDetachedExpressionsCount > 0)

  def apply(plan: Plan, limits: PlanLimits): Plan = {
    val lambdas = plan.getNamedLambdasList.asScala.zipWithIndex.map { case (l, i) =>
      l.getLambdaAnchor -> (l.getLambda, PlanPath.root.at("named_lambdas", i) / "lambda")
    }
    val duplicated = lambdas.groupBy(_._1).collectFirst { case (a, ls) if ls.size > 1 => a }
    duplicated.foreach(a =>
      throw SubstraitErrors.invalidPlan(PlanPath.root / "named_lambdas",
        s"lambda_anchor $a defined more than once", "unique lambda anchors"))
    val unfolded = new Unfolded(limits)
    val named = new Definitions[Expression.Lambda]("named lambda", lambdas.toMap, unfolded)
    val b = plan.toBuilder.clearNamedLambdas()
    plan.getRelationsList.asScala.zipWithIndex.foreach { case (rel, i) =>
      val at = PlanPath.root.at("relations", i)
      val inliner = new Inliner(named,
        new Definitions[Rel]("detached relation", indexed(rel.getDetachedRelsList.asScala.toSeq, at, "detached_rels"),
          unfolded),
        new Definitions[Expression]("detached expression",
          indexed(rel.getDetachedExpressionsList.asScala.toSeq, at, "detached_expressions"), unfolded))
      val plain = rel.toBuilder.clearDetachedRels().clearDetachedExpressions().build()
      b.setRelations(i, inliner.walk(plain, at).asInstanceOf[PlanRel])
    }
    b.build()
  }

  private def indexed[T](entries: Seq[T], at: PlanPath, field: String): Map[Int, (T, PlanPath)] =
    entries.zipWithIndex.map { case (e, k) => k -> (e, at.at(field, k)) }.toMap

  /** The bytes the uses of definitions unfold to, against the plan size limit (checked as they add up). */
  private final class Unfolded(limits: PlanLimits) {
    private var bytes = 0L
    def snapshot: Long = bytes
    def restore(s: Long): Unit = bytes = s
    def add(n: Long): Unit = {
      bytes += n
      if (bytes > limits.maxBytes) {
        throw SubstraitErrors.planTooLarge(s"a plan whose shared definitions unfold to more than $bytes bytes",
          s"${limits.maxBytes} bytes", PlanLimits.raise(PlanLimits.MaxBytesKey, "heap"))
      }
    }
  }

  /** One kind of definition, each inlined once (on first use) and shared by every use after. */
  private final class Definitions[T <: Message](kind: String, entries: Map[Int, (T, PlanPath)], unfolded: Unfolded) {
    private val done = mutable.Map.empty[Int, (T, Long)]
    private val inProgress = mutable.Set.empty[Int]

    /** The inlined definition `n`, its unfolded size counted once more for this use. */
    def use(n: Int, at: PlanPath, field: String)(inline: (T, PlanPath) => T): T = {
      val (definition, size) = done.getOrElse(n, {
          val (raw, defAt) = entries.getOrElse(n,
            throw SubstraitErrors.invalidPlan(at / field, s"$field $n",
              s"a $kind of the plan (${if (entries.isEmpty) "it has none"
                else s"it has ${entries.keys.toSeq.sorted.mkString(", ")}"})"))
          if (!inProgress.add(n)) {
            throw SubstraitErrors.invalidPlan(at / field, s"$kind $n defined in terms of itself",
              "definitions that do not refer to themselves")
          }
          // The uses inside a definition count with each use of it, not once more here.
          val before = unfolded.snapshot
          val inlined = try inline(raw, defAt)
          finally inProgress -= n
          val entry = (inlined, raw.getSerializedSize + unfolded.snapshot - before)
          unfolded.restore(before)
          done(n) = entry
          entry
        })
      unfolded.add(size)
      definition
    }
  }

  /** Replaces every use by its definition, walking the tree once. */
  private final class Inliner(lambdas: Definitions[Expression.Lambda], rels: Definitions[Rel],
    exprs: Definitions[Expression]) {
    def walk(m: Message, at: PlanPath): Message = m match {
      case r: Rel if r.getRelTypeCase == Rel.RelTypeCase.DETACHED_REL_ORDINAL =>
        rels.use(r.getDetachedRelOrdinal, at, "detached_rel_ordinal")((d, dAt) => walk(d, dAt).asInstanceOf[Rel])
      case e: Expression if e.getRexTypeCase == Expression.RexTypeCase.DETACHED_EXPRESSION_ORDINAL =>
        exprs.use(e.getDetachedExpressionOrdinal, at, "detached_expression_ordinal")((d, dAt) =>
          walk(d, dAt).asInstanceOf[Expression])
      case e: Expression if e.getRexTypeCase == Expression.RexTypeCase.NAMED_LAMBDA_REFERENCE =>
        Expression.newBuilder().setLambda(lambda(e.getNamedLambdaReference.getLambdaReference,
            at / "named_lambda_reference")).build()
      case i: Expression.LambdaInvocation
          if i.getLambdaTypeCase == Expression.LambdaInvocation.LambdaTypeCase.NAMED_LAMBDA =>
        children(i.toBuilder.setLambda(lambda(i.getNamedLambda.getLambdaReference, at / "named_lambda")).build(), at)
      case other => children(other, at)
    }

    private def lambda(anchor: Int, at: PlanPath): Expression.Lambda =
      lambdas.use(anchor, at, "lambda_reference")((d, dAt) => walk(d, dAt).asInstanceOf[Expression.Lambda])

    private def children(m: Message, at: PlanPath): Message = {
      var builder: Message.Builder = null
      m.getAllFields.asScala.foreach { case (f, value) =>
        if (f.getJavaType == Descriptors.FieldDescriptor.JavaType.MESSAGE) {
          if (f.isRepeated) {
            value.asInstanceOf[java.util.List[Message]].asScala.zipWithIndex.foreach { case (child, i) =>
              val done = walk(child, at.at(f.getName, i))
              if (done ne child) {
                if (builder == null) builder = m.toBuilder
                builder.setRepeatedField(f, i, done)
              }
            }
          } else {
            val child = value.asInstanceOf[Message]
            val done = walk(child, at / f.getName)
            if (done ne child) {
              if (builder == null) builder = m.toBuilder
              builder.setField(f, done)
            }
          }
        }
      }
      if (builder == null) m else builder.build()
    }
  }
}
