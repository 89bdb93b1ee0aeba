package io.sparksubstrait.decode.readings

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, Rel, RelCommon, Type}
import io.sparksubstrait.proto.Expression.Literal.LiteralTypeCase

/**
 * The types a plan itself declares for a relation's output and an expression's value, read
 * before conversion for readings whose meaning depends on a type (a cast's input). Only
 * what the plan states is used: a read's schema, a literal's kind, a function's
 * output_type, a cast's type, and relations that pass columns through (filter, sort,
 * fetch, project, joins, sets, an aggregate of one grouping set). Anything else is None, and a reading leaves it alone.
 */
private[sparksubstrait] object DeclaredTypes {

  /** The integer kinds (casts to them and divisions of them are what readings look for). */
  val Integers: Set[Type.KindCase] = Set(Type.KindCase.I8, Type.KindCase.I16, Type.KindCase.I32, Type.KindCase.I64)

  /** The output columns' types (None for a column the plan does not type), or None if not even their number is known. */
  def of(rel: Rel): Option[Seq[Option[Type]]] = {
    val direct: Option[Seq[Option[Type]]] = rel.getRelTypeCase match {
      case Rel.RelTypeCase.READ =>
        val read = rel.getRead
        if (!read.getBaseSchema.hasStruct) None
        else {
          val all = read.getBaseSchema.getStruct.getTypesList.asScala.toSeq.map(Option(_))
          if (!read.hasProjection) Some(all)
          else {
            val items = read.getProjection.getSelect.getStructItemsList.asScala.toSeq
            // An item out of range is the converter's error to name (ReadConverter), not this reading's.
            if (items.exists(i => i.hasChild || !all.indices.contains(i.getField))) None
            else Some(items.map(i => all(i.getField)))
          }
        }
      case Rel.RelTypeCase.FILTER => of(rel.getFilter.getInput)
      case Rel.RelTypeCase.SORT => of(rel.getSort.getInput)
      case Rel.RelTypeCase.FETCH => of(rel.getFetch.getInput)
      case Rel.RelTypeCase.PROJECT =>
        of(rel.getProject.getInput).map(in => in ++ rel.getProject.getExpressionsList.asScala.map(of(_, in)))
      case Rel.RelTypeCase.CROSS => for (l <- of(rel.getCross.getLeft); r <- of(rel.getCross.getRight)) yield l ++ r
      case Rel.RelTypeCase.JOIN =>
        val j = rel.getJoin
        val (l, r) = (of(j.getLeft), of(j.getRight))
        j.getType.name.stripPrefix("JOIN_TYPE_") match {
          case "INNER" | "LEFT" | "RIGHT" | "OUTER" => for (a <- l; b <- r) yield a ++ b
          case "LEFT_SEMI" | "LEFT_ANTI" => l
          case "RIGHT_SEMI" | "RIGHT_ANTI" => r
          case _ => None
        }
      case Rel.RelTypeCase.SET => rel.getSet.getInputsList.asScala.headOption.flatMap(of)
      // One grouping set (or none): its distinct keys in order, then the measures; several add an index column.
      case Rel.RelTypeCase.AGGREGATE if rel.getAggregate.getGroupingsCount <= 1 =>
        val a = rel.getAggregate
        of(a.getInput).map { in =>
          val keys = a.getGroupingsList.asScala.flatMap(_.getExpressionReferencesList.asScala.map(_.intValue)).distinct
          keys.map(k => a.getGroupingExpressionsList.asScala.lift(k).flatMap(of(_, in))).toSeq ++
            a.getMeasuresList.asScala.map(m => Option(m.getMeasure).filter(_.hasOutputType).map(_.getOutputType))
        }
      case _ => None
    }
    direct.flatMap(emitted(common(rel), _))
  }

  /** An expression's type given its input columns' types, where the plan declares it. */
  def of(e: Expression, input: Seq[Option[Type]]): Option[Type] = e.getRexTypeCase match {
    case Expression.RexTypeCase.LITERAL => literal(e.getLiteral)
    case Expression.RexTypeCase.SCALAR_FUNCTION if e.getScalarFunction.hasOutputType =>
      Some(e.getScalarFunction.getOutputType)
    case Expression.RexTypeCase.CAST => Some(e.getCast.getType)
    case Expression.RexTypeCase.SELECTION =>
      val s = e.getSelection
      val root = !s.hasOuterReference && !s.hasExpression
      if (root && s.hasDirectReference && s.getDirectReference.hasStructField &&
        !s.getDirectReference.getStructField.hasChild)
        input.lift(s.getDirectReference.getStructField.getField).flatten
      else None
    case _ => None
  }

  private def literal(l: Expression.Literal): Option[Type] = {
    val n = if (l.getNullable) Type.Nullability.NULLABILITY_NULLABLE else Type.Nullability.NULLABILITY_REQUIRED
    val t = Type.newBuilder()
    l.getLiteralTypeCase match {
      case LiteralTypeCase.I8 => Some(t.setI8(Type.I8.newBuilder().setNullability(n)).build())
      case LiteralTypeCase.I16 => Some(t.setI16(Type.I16.newBuilder().setNullability(n)).build())
      case LiteralTypeCase.I32 => Some(t.setI32(Type.I32.newBuilder().setNullability(n)).build())
      case LiteralTypeCase.I64 => Some(t.setI64(Type.I64.newBuilder().setNullability(n)).build())
      case LiteralTypeCase.FP32 => Some(t.setFp32(Type.FP32.newBuilder().setNullability(n)).build())
      case LiteralTypeCase.FP64 => Some(t.setFp64(Type.FP64.newBuilder().setNullability(n)).build())
      case LiteralTypeCase.DECIMAL =>
        Some(t.setDecimal(Type.Decimal.newBuilder().setPrecision(l.getDecimal.getPrecision)
              .setScale(l.getDecimal.getScale).setNullability(n)).build())
      case LiteralTypeCase.NULL => Some(l.getNull)
      case _ => None
    }
  }

  private def common(rel: Rel): Option[RelCommon] = {
    val kind = rel.getDescriptorForType.findFieldByNumber(rel.getRelTypeCase.getNumber)
    if (kind == null) None
    else {
      val inner = rel.getField(kind).asInstanceOf[com.google.protobuf.Message]
      Option(inner.getDescriptorForType.findFieldByName("common")).map(inner.getField(_).asInstanceOf[RelCommon])
    }
  }

  private def emitted(common: Option[RelCommon], columns: Seq[Option[Type]]): Option[Seq[Option[Type]]] = common match {
    case Some(c) if c.hasEmit =>
      val mapping = c.getEmit.getOutputMappingList.asScala.toSeq.map(_.intValue)
      if (mapping.exists(i => i < 0 || i >= columns.size)) None else Some(mapping.map(columns))
    case _ => Some(columns)
  }

  /** The type with its kind's nullability set (every kind with a nullability; else as it is). */
  def withNullability(t: Type, n: Type.Nullability): Type = {
    val kind = t.getDescriptorForType.findFieldByNumber(t.getKindCase.getNumber)
    if (kind == null) t
    else {
      val inner = t.getField(kind).asInstanceOf[com.google.protobuf.Message]
      Option(inner.getDescriptorForType.findFieldByName("nullability"))
        .fold(t)(field =>
          t.toBuilder.setField(kind, inner.toBuilder.setField(field, n.getValueDescriptor).build()).build())
    }
  }

  /** A null literal whose type has no kind (DuckDB's SQL NULL): the plan does not say its type. */
  def isTypelessNull(e: Expression): Boolean =
    e.hasLiteral && isTypelessNull(e.getLiteral)

  def isTypelessNull(l: Expression.Literal): Boolean =
    l.hasNull && l.getNull.getKindCase == Type.KindCase.KIND_NOT_SET

  /** A typed kind (a type the plan states, not a typeless NULL's empty one). */
  def typed(t: Option[Type]): Option[Type] = t.filter(_.getKindCase != Type.KindCase.KIND_NOT_SET)
}
