package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import com.google.protobuf.Message

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.proto.{Expression, FunctionArgument, Plan, Rel, Type}
import io.sparksubstrait.proto.Expression.FieldReference

/**
 * ibis-substrait writes no outer reference (its `table_column` makes every column a root
 * reference, in 2.29.1 to 4.0.1): a subquery's column of the enclosing query is numbered by
 * the enclosing relation's record, which is the input of the relation holding the subquery.
 * TPC-H Q21's `l2.l_suppkey != l1.l_suppkey` inside EXISTS over lineitem is
 * `not_equal(field 2, field 9)`: locally l_suppkey and l_linestatus, in the enclosing join's
 * record s_address and l1.l_suppkey.
 *
 * Only the types can tell the two numberings apart, and ibis compares numbers of different
 * types without a cast (`equal(i64, decimal)` is a valid local comparison). So a comparison
 * of two such references is read here only where its meaning is certain:
 *  - as written (both local) where its two local columns can be compared at all;
 *  - else with exactly one side as the enclosing record's column, where exactly one of the
 *    two ways agrees in type; where both do, which side was meant is not in the plan: refused.
 * A subquery found correlated so is then read only if none of its other comparisons could
 * also mean an enclosing column (its meaning would be a guess): refused otherwise, naming the bug.
 */
private[sparksubstrait] object CorrelationAsRootReference extends ReadingOf(Releases.Ibis) with LiftsOneAtATime {
  val name = "ibis-correlation-as-root-reference"
  val meaning = "a subquery's correlated column written as a root reference numbered by the enclosing relation's " +
    "record: read as an outer reference where the comparison holding it cannot compare the subquery's own columns " +
    "and exactly one side read as the enclosing record's agrees in type; refused where the plan cannot tell"

  override def needs: Set[com.google.protobuf.Descriptors.Descriptor] = Set(Expression.Subquery.getDescriptor)

  private val comparisons = Set("equal", "not_equal", "lt", "gt", "lte", "gte")

  def rewrite(plan: Plan, found: String => Unit): Option[PartialFunction[(Message, PlanPath), Message]] = {
    val anchors = DeclaredFunctions.anchorsNamed(plan, comparisons)
    val names = plan.getExtensionsList.asScala.filter(_.hasExtensionFunction).map(_.getExtensionFunction)
      .map(f => f.getFunctionAnchor -> DeclaredFunctions.baseName(f.getName)).toMap
    if (anchors.isEmpty) None
    else Some {
      case (rel: Rel, at) if rel.hasFilter && rel.getFilter.hasCondition && holdsSubquery(rel.getFilter.getCondition) =>
        val enclosing = InputTypes.output(rel.getFilter.getInput)
        val b = rel.toBuilder
        b.getFilterBuilder.setCondition(new Holder(anchors, names, enclosing, found)
            .expression(rel.getFilter.getCondition, at / "filter" / "condition"))
        b.build()
      case (rel: Rel, at) if rel.hasProject && rel.getProject.getExpressionsList.asScala.exists(holdsSubquery) =>
        val holder = new Holder(anchors, names, InputTypes.output(rel.getProject.getInput), found)
        val b = rel.toBuilder
        rel.getProject.getExpressionsList.asScala.zipWithIndex.foreach { case (e, i) =>
          b.getProjectBuilder.setExpressions(i, holder.expression(e, (at / "project").at("expressions", i)))
        }
        b.build()
    }
  }

  /** How one comparison of two plain root references reads. */
  private sealed trait Reads
  private case object AsWritten extends Reads
  private case object AsWrittenOrEnclosing extends Reads // its own columns comparable, and an enclosing one agrees too
  private final case class Enclosing(argument: Int) extends Reads
  private final case class EitherSide(what: String) extends Reads

  private def holdsSubquery(e: Expression): Boolean = InputTypes.existsWithin(e)(_.hasSubquery)

  /** The subqueries of one relation's expressions, whose enclosing record has the types `enclosing`. */
  private final class Holder(anchors: Set[Int], names: Map[Int, String], enclosing: InputTypes.Types,
    found: String => Unit) {

    /** `e` with the subqueries within it (through functions and casts) read. */
    def expression(e: Expression, at: PlanPath): Expression = e.getRexTypeCase match {
      case Expression.RexTypeCase.SCALAR_FUNCTION =>
        val b = e.getScalarFunction.toBuilder
        e.getScalarFunction.getArgumentsList.asScala.zipWithIndex.foreach { case (a, i) =>
          if (a.hasValue) b.setArguments(i,
            FunctionArgument.newBuilder(a)
              .setValue(expression(a.getValue, (at / "scalar_function").at("arguments", i) / "value")))
        }
        e.toBuilder.setScalarFunction(b).build()
      case Expression.RexTypeCase.CAST =>
        e.toBuilder.setCast(e.getCast.toBuilder.setInput(expression(e.getCast.getInput, at / "cast" / "input"))).build()
      case Expression.RexTypeCase.SUBQUERY =>
        val s = e.getSubquery
        val sAt = at / "subquery"
        val b = s.toBuilder
        if (s.hasScalar && s.getScalar.hasInput)
          b.getScalarBuilder.setInput(subquery(s.getScalar.getInput, sAt / "scalar" / "input"))
        else if (s.hasInPredicate && s.getInPredicate.hasHaystack)
          b.getInPredicateBuilder.setHaystack(subquery(s.getInPredicate.getHaystack, sAt / "in_predicate" / "haystack"))
        else if (s.hasSetPredicate && s.getSetPredicate.hasTuples)
          b.getSetPredicateBuilder.setTuples(subquery(s.getSetPredicate.getTuples, sAt / "set_predicate" / "tuples"))
        else if (s.hasSetComparison && s.getSetComparison.hasRight)
          b.getSetComparisonBuilder.setRight(subquery(s.getSetComparison.getRight, sAt / "set_comparison" / "right"))
        e.toBuilder.setSubquery(b).build()
      case _ => e
    }

    /** A subquery's relations of its own level (down its single-input relations), their filters read. */
    private def subquery(rel: Rel, at: PlanPath): Rel = rel.getRelTypeCase match {
      case Rel.RelTypeCase.FILTER =>
        val f = rel.getFilter
        val b = rel.toBuilder
        if (f.hasCondition) b.getFilterBuilder.setCondition(
          condition(f.getCondition, InputTypes.output(f.getInput), at / "filter" / "condition"))
        if (f.hasInput) b.getFilterBuilder.setInput(subquery(f.getInput, at / "filter" / "input"))
        b.build()
      case Rel.RelTypeCase.PROJECT if rel.getProject.hasInput =>
        val b = rel.toBuilder; b.getProjectBuilder.setInput(subquery(rel.getProject.getInput, at / "project" / "input"))
        b.build()
      case Rel.RelTypeCase.AGGREGATE if rel.getAggregate.hasInput =>
        val b = rel.toBuilder
        b.getAggregateBuilder.setInput(subquery(rel.getAggregate.getInput, at / "aggregate" / "input"))
        b.build()
      case Rel.RelTypeCase.SORT if rel.getSort.hasInput =>
        val b = rel.toBuilder; b.getSortBuilder.setInput(subquery(rel.getSort.getInput, at / "sort" / "input"))
        b.build()
      case Rel.RelTypeCase.FETCH if rel.getFetch.hasInput =>
        val b = rel.toBuilder; b.getFetchBuilder.setInput(subquery(rel.getFetch.getInput, at / "fetch" / "input"))
        b.build()
      case _ => rel
    }

    /** A subquery filter's condition over its own columns `local`, its comparisons read (or the plan refused). */
    private def condition(e: Expression, local: InputTypes.Types, at: PlanPath): Expression = {
      val reads = scala.collection.mutable.LinkedHashMap.empty[PlanPath, (Expression.ScalarFunction, Reads)]
      InputTypes.foreachWithin(e, at) { (x, xAt) =>
        if (x.hasScalarFunction && anchors(x.getScalarFunction.getFunctionReference)) {
          columns(x.getScalarFunction).foreach { case (i, j) => reads(xAt) = x.getScalarFunction -> read(i, j, local) }
        }
      }
      def call(f: Expression.ScalarFunction) = {
        val (i, j) = columns(f).get
        s"${names.getOrElse(f.getFunctionReference, "comparison")}(field $i, field $j)"
      }
      reads.collectFirst { case (where, (f, EitherSide(what))) =>
        throw refused(where, s"${call(f)} inside a subquery: $what")
      }
      if (!reads.values.exists(_._2.isInstanceOf[Enclosing])) e
      else {
        reads.collectFirst { case (where, (f, AsWrittenOrEnclosing)) =>
          throw refused(where,
            s"${call(f)} inside a subquery another comparison of which reads the enclosing " +
              "query's columns: it compares two of the subquery's columns as written, or one of the enclosing query's " +
              "(both agree in type)")
        }
        withOuterSides(e, at, reads.collect { case (where, (f, Enclosing(k))) => where.toString -> k }.toMap, call)
      }
    }

    /** `e` with the comparisons at `sides` (by place) reading that argument as the enclosing query's column. */
    private def withOuterSides(e: Expression, at: PlanPath, sides: Map[String, Int],
      call: Expression.ScalarFunction => String): Expression = e.getRexTypeCase match {
      case Expression.RexTypeCase.SCALAR_FUNCTION if sides.contains(at.toString) =>
        val f = e.getScalarFunction
        val k = sides(at.toString)
        found(s"$at: ${call(f)}, field ${columns(f).map(c => if (k == 0) c._1 else c._2).getOrElse(-1)} of the " +
          "enclosing query")
        val b = f.toBuilder
        b.setArguments(k, FunctionArgument.newBuilder(f.getArguments(k)).setValue(outer(f.getArguments(k).getValue)))
        e.toBuilder.setScalarFunction(b).build()
      case Expression.RexTypeCase.SCALAR_FUNCTION =>
        val b = e.getScalarFunction.toBuilder
        e.getScalarFunction.getArgumentsList.asScala.zipWithIndex.foreach { case (a, i) =>
          if (a.hasValue) b.setArguments(i,
            FunctionArgument.newBuilder(a).setValue(
              withOuterSides(a.getValue, (at / "scalar_function").at("arguments", i) / "value", sides, call)))
        }
        e.toBuilder.setScalarFunction(b).build()
      case Expression.RexTypeCase.CAST =>
        e.toBuilder.setCast(e.getCast.toBuilder.setInput(
            withOuterSides(e.getCast.getInput, at / "cast" / "input", sides, call))).build()
      case _ => e
    }

    private def refused(at: PlanPath, found: String) = SubstraitErrors.unsupported(at, found,
      "a comparison whose meaning the plan says: ibis-substrait's known bug writes a subquery's column of the " +
        "enclosing query as one of the subquery's own (a root reference numbered by the enclosing relation's record), " +
        "and the types do not tell which is meant here")

    private def read(i: Int, j: Int, local: InputTypes.Types): Reads = {
      def at(types: InputTypes.Types, k: Int) = types.lift(k).flatten
      val asWritten = comparable(at(local, i), at(local, j))
      val leftLocal = comparable(at(local, i), at(enclosing, j)) // i its own, j the enclosing record's
      val rightLocal = comparable(at(enclosing, i), at(local, j))
      if (asWritten) if (leftLocal || rightLocal) AsWrittenOrEnclosing else AsWritten
      else if (leftLocal && rightLocal)
        EitherSide(s"its own columns cannot be compared (${show(at(local, i))}, ${show(at(local, j))}), and either " +
          s"one read as the enclosing query's agrees in type (${show(at(local, i))} with ${show(at(enclosing, j))}, " +
          s"${show(at(enclosing, i))} with ${show(at(local, j))})")
      else if (leftLocal) Enclosing(1)
      else if (rightLocal) Enclosing(0)
      else AsWritten // no reading agrees: the converter refuses it as written
    }

    private def show(t: Option[Type]): String = t.map(_.getKindCase.name.toLowerCase).getOrElse("unknown")
  }

  /** Both arguments of a comparison plain root references to top-level columns: their numbers. */
  private def columns(f: Expression.ScalarFunction): Option[(Int, Int)] = f.getArgumentsList.asScala.toSeq match {
    case Seq(a, b) => for (i <- column(a); j <- column(b)) yield (i, j)
    case _ => None
  }

  private def column(a: FunctionArgument): Option[Int] =
    if (!a.hasValue || !a.getValue.hasSelection) None
    else {
      val s = a.getValue.getSelection
      if ((s.hasRootReference || s.getRootTypeCase == FieldReference.RootTypeCase.ROOTTYPE_NOT_SET) &&
        s.hasDirectReference && s.getDirectReference.hasStructField && !s.getDirectReference.getStructField.hasChild)
        Some(s.getDirectReference.getStructField.getField)
      else None
    }

  /** The same column of the enclosing query: an outer reference one subquery out. */
  private def outer(e: Expression): Expression = e.toBuilder.setSelection(e.getSelection.toBuilder
      .setOuterReference(FieldReference.OuterReference.newBuilder().setStepsOut(1))).build()

  /** Two known types a comparison takes as they are: the same kind, or both numbers (ibis writes no cast between numbers). */
  private def comparable(a: Option[Type], b: Option[Type]): Boolean = (a, b) match {
    case (Some(x), Some(y)) =>
      x.getKindCase == y.getKindCase || (numeric(x) && numeric(y))
    case _ => false
  }

  private def numeric(t: Type): Boolean = t.getKindCase match {
    case Type.KindCase.I8 | Type.KindCase.I16 | Type.KindCase.I32 | Type.KindCase.I64 | Type.KindCase.FP32 |
        Type.KindCase.FP64 | Type.KindCase.DECIMAL => true
    case _ => false
  }
}
