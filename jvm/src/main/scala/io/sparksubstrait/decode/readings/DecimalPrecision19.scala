package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Expression, Plan, Rel, Type}

/**
 * A known isthmus bug: a product of decimals is declared with its precision capped at 19
 * digits (Calcite's default maximum), where the spec's type has up to 38 (DECIMAL(15,2) ×
 * DECIMAL(15,2) declared DECIMAL(19,4), the spec's DECIMAL(31,4); a sum of such products × 0.0001
 * declared DECIMAL(19,12), which holds 7 digits before the point). A declared output type is the
 * plan's contract, so a product beyond it overflows, an error under ANSI and NULL without
 * it, where the query's SQL has its value: TPC-H Q11 at scale factor 10 does. Run as written,
 * with a warning at each such multiply.
 *
 * Found only where both arguments' types are declared (DeclaredTypes) and their digits add up
 * to more than 19: a product declared DECIMAL(19,s) of a DECIMAL(10,2) and a DECIMAL(9,0) is
 * exact, and not capped.
 */
private[sparksubstrait] object DecimalPrecision19 extends FoundBug(Releases.Isthmus) {
  val name = "isthmus-decimal-precision-19"
  val meaning =
    "a product of decimals declared with at most 19 digits where the spec's type has more, so it overflows on larger values; run as written"

  private val Capped = 19

  // Read, not rebuilt, in the walk shared with the other found bugs; a relation's input types
  // (DeclaredTypes) are worked out only for an expression holding a multiply declared with 19 digits.
  def finder(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Unit]] = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, Set("multiply"))
    def capped(e: Expression): Boolean = e.hasScalarFunction && anchors(e.getScalarFunction.getFunctionReference) &&
      e.getScalarFunction.getOutputType.hasDecimal &&
      e.getScalarFunction.getOutputType.getDecimal.getPrecision == Capped
    def holdsCapped(e: Expression): Boolean = InputTypes.existsWithin(e)(capped)
    def look(e: Expression, in: InputTypes.Types, at: PlanPath): Unit = InputTypes.foreachWithin(e, at) {
      (sub, subAt) =>
        if (capped(sub)) sub.getScalarFunction.getArgumentsList.asScala.toSeq
          .map(a => if (a.hasValue) InputTypes.typeOf(a.getValue, in).flatMap(digits) else None) match {
          case Seq(Some((p1, s1)), Some((p2, s2))) if p1 + p2 > Capped =>
            val (p, s) = specProduct(p1, s1, p2, s2)
            found(s"$subAt: multiply of DECIMAL($p1,$s1) and DECIMAL($p2,$s2) declared DECIMAL($Capped," +
              s"${sub.getScalarFunction.getOutputType.getDecimal.getScale}), the spec's type DECIMAL($p,$s)")
          case _ =>
        }
    }
    def each(exprs: Seq[(Expression, PlanPath)], input: Rel): Unit = {
      val suspects = exprs.filter { case (e, _) => holdsCapped(e) }
      if (suspects.nonEmpty) {
        val in = InputTypes.output(input)
        suspects.foreach { case (e, at) => look(e, in, at) }
      }
    }
    if (anchors.isEmpty) None
    else Some {
      case (rel: Rel, at) if rel.hasProject =>
        each(rel.getProject.getExpressionsList.asScala.toSeq.zipWithIndex.map { case (e, i) =>
            e -> (at / "project").at("expressions", i)
          },
          rel.getProject.getInput)
      case (rel: Rel, at) if rel.hasFilter && rel.getFilter.hasCondition =>
        each(Seq(rel.getFilter.getCondition -> at / "filter" / "condition"), rel.getFilter.getInput)
      case (rel: Rel, at) if rel.hasJoin && rel.getJoin.hasExpression =>
        val join = rel.getJoin
        if (holdsCapped(join.getExpression)) {
          // The right input's columns follow the left's: only where the left's number is known.
          val left = InputTypes.output(join.getLeft)
          if (left.nonEmpty)
            look(join.getExpression, left ++ InputTypes.output(join.getRight), at / "join" / "expression")
        }
    }
  }

  /** Precision and scale of an exact numeric type (an integer as the decimal that holds it, as Calcite types it). */
  private def digits(t: Type): Option[(Int, Int)] = t.getKindCase match {
    case Type.KindCase.DECIMAL => Some((t.getDecimal.getPrecision, t.getDecimal.getScale))
    case Type.KindCase.I8 => Some((3, 0))
    case Type.KindCase.I16 => Some((5, 0))
    case Type.KindCase.I32 => Some((10, 0))
    case Type.KindCase.I64 => Some((19, 0))
    case _ => None
  }

  /** The spec's multiply:decimal_decimal output type (functions_arithmetic_decimal.yaml). */
  private def specProduct(p1: Int, s1: Int, p2: Int, s2: Int): (Int, Int) = {
    val initScale = s1 + s2
    val initPrecision = p1 + p2 + 1
    val precision = math.min(initPrecision, 38)
    val scale =
      if (initPrecision > 38) math.max(initScale - (initPrecision - 38), math.min(initScale, 6)) else initScale
    (precision, scale)
  }
}
