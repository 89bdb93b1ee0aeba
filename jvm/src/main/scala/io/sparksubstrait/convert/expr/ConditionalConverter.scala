package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Expression.{IfThen, MultiOrList, SingularOrList, SwitchExpression}
import org.apache.spark.sql.catalyst.expressions.{
  And, Attribute, CaseWhen, Cast, EqualTo, In, InSet, Literal, Or, Expression => CExpression
}
import org.apache.spark.sql.types.{BooleanType, DataType, NullType}

import io.sparksubstrait.convert.ConversionContext
import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.convert.functions.NumericCoercion
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.util.Options

/**
 * If-then, switch and singular-or-list. A NULL condition or a NULL switch value selects
 * no branch (falls to else, NULL without one), and IN has SQL's three-valued result, as
 * the spec and Spark agree.
 */
private[sparksubstrait] object ConditionalConverter {
  def ifThen(e: IfThen, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    if (e.getIfsCount == 0) throw SubstraitErrors.invalidPlan(at / "ifs", "no if clause", "one or more if clauses")
    val branches = e.getIfsList.asScala.toSeq.zipWithIndex.map { case (c, i) =>
      val cAt = at.at("ifs", i)
      if (!c.hasIf || !c.hasThen)
        throw SubstraitErrors.missingField(cAt, if (!c.hasIf) "if" else "then", "a condition and a result")
      val cond = ExpressionConverter.convert(c.getIf, input, cAt / "if")
      if (cond.resolved && cond.dataType != BooleanType && cond.dataType != NullType) {
        throw SubstraitErrors.typeMismatch(cAt / "if", SparkTypeNames.of(cond.dataType), "bool")
      }
      (cond, ExpressionConverter.convert(c.getThen, input, cAt / "then"))
    }
    val otherwise = Options.when(e.hasElse)(ExpressionConverter.convert(e.getElse, input, at / "else"))
    caseWhen(branches, otherwise, at)
  }

  def switch(e: SwitchExpression, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    if (!e.hasMatch) throw SubstraitErrors.missingField(at, "match", "the value to switch on")
    if (e.getIfsCount == 0) throw SubstraitErrors.invalidPlan(at / "ifs", "no if value", "one or more if values")
    val value = ExpressionConverter.convert(e.getMatch, input, at / "match")
    val branches = e.getIfsList.asScala.toSeq.zipWithIndex.map { case (c, i) =>
      val cAt = at.at("ifs", i)
      val literal = LiteralConverter.convert(c.getIf, cAt / "if")(ctx.types)
      val Seq(v, l) = unify(Seq(value, literal), cAt / "if")
      (EqualTo(v, l): CExpression, ExpressionConverter.convert(c.getThen, input, cAt / "then"))
    }
    val otherwise = Options.when(e.hasElse)(ExpressionConverter.convert(e.getElse, input, at / "else"))
    caseWhen(branches, otherwise, at)
  }

  def singularOrList(e: SingularOrList, input: Seq[Attribute], at: PlanPath)(
    implicit ctx: ConversionContext): CExpression = {
    if (!e.hasValue) throw SubstraitErrors.missingField(at, "value", "the value to look for")
    // Read as false until now; an empty list is no list the spec writes (SQL has no `x IN ()`).
    if (e.getOptionsCount == 0) {
      throw SubstraitErrors.invalidPlan(at / "options", "a SingularOrList without options",
        "one or more options: the spec's SingularOrList is `value IN (options)`, and no SQL list is empty " +
          "(spec: algebra.proto, Expression.SingularOrList)")
    }
    val value = ExpressionConverter.convert(e.getValue, input, at / "value")
    val options = e.getOptionsList.asScala.toSeq.zipWithIndex.map { case (o, i) =>
      ExpressionConverter.convert(o, input, at.at("options", i))
    }
    val all = unify(value +: options, at / "options")
    inList(all.head, all.tail)
  }

  /**
   * `value IN (options)`. A long list of constants is Spark's InSet straight away, the form its
   * optimizer (OptimizeIn) gives it anyway: one node holding a hash set, so Catalyst's passes
   * over the plan do not walk, copy and re-check hundreds of thousands of children.
   */
  private def inList(value: CExpression, options: Seq[CExpression]): CExpression =
    if (options.size > InSetThreshold && options.forall(o => o.isInstanceOf[Literal] && o.dataType == value.dataType)) {
      InSet(value, options.map(_.asInstanceOf[Literal].value).toSet)
    } else In(value, options)

  /** Above Spark's own default threshold (spark.sql.optimizer.inSetConversionThreshold, 10). */
  private val InSetThreshold = 10

  /**
   * (v1, …, vn) IN ((o11, …, o1n), …): SQL's row-value IN, an OR over the records of ANDs
   * of equalities, so NULLs give SQL's three-valued answer.
   */
  def multiOrList(e: MultiOrList, input: Seq[Attribute], at: PlanPath)(implicit ctx: ConversionContext): CExpression = {
    val values = e.getValueList.asScala.toSeq.zipWithIndex.map { case (v, i) =>
      ExpressionConverter.convert(v, input, at.at("value", i))
    }
    if (values.isEmpty) throw SubstraitErrors.missingField(at, "value", "the values to look for")
    val records = e.getOptionsList.asScala.toSeq.zipWithIndex.map { case (r, i) =>
      val rAt = at.at("options", i)
      val fields = r.getFieldsList.asScala.toSeq.zipWithIndex.map { case (f, j) =>
        ExpressionConverter.convert(f, input, rAt.at("fields", j))
      }
      if (fields.size != values.size) {
        throw SubstraitErrors.invalidPlan(rAt, s"a record of ${fields.size} fields",
          s"${values.size} fields, one per value")
      }
      values.zip(fields).zipWithIndex.map { case ((v, f), j) =>
        val Seq(l, r) = unify(Seq(v, f), rAt.at("fields", j))
        EqualTo(l, r): CExpression
      }.reduce(And(_, _))
    }
    // Balanced: a list of thousands of records stays shallow (OR is associative).
    if (records.isEmpty) Literal.FalseLiteral
    else io.sparksubstrait.util.Balanced.reduce(records.toIndexedSeq)(Or(_, _))
  }

  /** All results share one type: numeric ones widen; others must already agree. */
  private def caseWhen(branches: Seq[(CExpression, CExpression)], otherwise: Option[CExpression], at: PlanPath)
    : CExpression = {
    val results = unify(branches.map(_._2) ++ otherwise, at)
    val (thens, elseValue) = (results.take(branches.size), results.drop(branches.size).headOption)
    CaseWhen(branches.map(_._1).zip(thens), elseValue)
  }

  private def unify(values: Seq[CExpression], at: PlanPath): Seq[CExpression] = {
    if (!values.forall(_.resolved)) return values
    val types = values.map(_.dataType).filter(_ != NullType).distinct
    types match {
      case Seq() | Seq(_) => values.map(v => if (v.dataType == NullType && types.nonEmpty) Cast(v, types.head) else v)
      case _ => NumericCoercion.unify(values).getOrElse(throw SubstraitErrors.typeMismatch(at,
            types.map((t: DataType) => SparkTypeNames.of(t)).mkString(", "), "values of one type"))
    }
  }
}
