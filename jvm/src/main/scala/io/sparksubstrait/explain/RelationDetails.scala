package io.sparksubstrait.explain

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, ReadRel, Rel, RelCommon}
import io.sparksubstrait.proto.Rel.RelTypeCase

/**
 * The key facts of one relation, as short phrases for the explain output: what a reader of
 * the plan wants to see beside the operator it became. Read from the proto only, after the
 * relation converted, so a relation that reached here is valid.
 */
private[explain] object RelationDetails {
  def of(rel: Rel): Seq[String] = {
    val own: Seq[String] = rel.getRelTypeCase match {
      case RelTypeCase.READ => read(rel.getRead)
      case RelTypeCase.FILTER => Seq("condition")
      case RelTypeCase.PROJECT => Seq(count(rel.getProject.getExpressionsCount, "expression"))
      case RelTypeCase.FETCH =>
        val f = rel.getFetch
        Seq(s"offset ${fetchValue(f.hasOffsetExpr, f.getOffsetExpr, "0")}",
          s"count ${fetchValue(f.hasCountExpr, f.getCountExpr, "all")}")
      case RelTypeCase.SORT => Seq(count(rel.getSort.getSortsCount, "sort field"))
      case RelTypeCase.TOP_N =>
        val t = rel.getTopN
        Seq(count(t.getSortsCount, "sort field"), s"offset ${fetchValue(t.hasOffset, t.getOffset, "0")}",
          s"count ${fetchValue(t.hasCount, t.getCount, "all")}", enumName(t.getMode.name(), "FETCH_MODE_"))
      case RelTypeCase.LATERAL_JOIN => Seq(enumName(rel.getLateralJoin.getType.name(), "JOIN_TYPE_"), "lateral")
      case RelTypeCase.AGGREGATE =>
        val a = rel.getAggregate
        Seq(count(a.getGroupingExpressionsCount, "grouping expression"),
          count(a.getGroupingsCount, "grouping set"), count(a.getMeasuresCount, "measure"))
      case RelTypeCase.JOIN => Seq(enumName(rel.getJoin.getType.name(), "JOIN_TYPE_"))
      case RelTypeCase.SET =>
        Seq(enumName(rel.getSet.getOp.name(), "SET_OP_"), count(rel.getSet.getInputsCount, "input"))
      case RelTypeCase.HASH_JOIN => Seq(enumName(rel.getHashJoin.getType.name(), "JOIN_TYPE_"))
      case RelTypeCase.MERGE_JOIN => Seq(enumName(rel.getMergeJoin.getType.name(), "JOIN_TYPE_"))
      case RelTypeCase.NESTED_LOOP_JOIN => Seq(enumName(rel.getNestedLoopJoin.getType.name(), "JOIN_TYPE_"))
      case RelTypeCase.EXPAND => Seq(count(rel.getExpand.getFieldsCount, "field"))
      case RelTypeCase.EXCHANGE => Seq(enumName(rel.getExchange.getExchangeKindCase.name(), ""))
      case RelTypeCase.WINDOW => Seq(count(rel.getWindow.getWindowFunctionsCount, "window function"))
      case RelTypeCase.REFERENCE => Seq(s"relations[${rel.getReference.getSubtreeOrdinal}]")
      case RelTypeCase.EXTENSION_LEAF => Seq(s"detail ${rel.getExtensionLeaf.getDetail.getTypeUrl}")
      case RelTypeCase.EXTENSION_SINGLE => Seq(s"detail ${rel.getExtensionSingle.getDetail.getTypeUrl}")
      case RelTypeCase.EXTENSION_MULTI =>
        val m = rel.getExtensionMulti
        Seq(s"detail ${m.getDetail.getTypeUrl}", count(m.getInputsCount, "input"))
      case _ => Nil
    }
    own ++ emit(common(rel))
  }

  /** A fetch's offset or count: its integer when a literal, `absent` when unset or NULL. */
  private def fetchValue(has: Boolean, e: => Expression, absent: String): String =
    if (!has) absent
    else if (!e.hasLiteral) "expression"
    else e.getLiteral.getLiteralTypeCase match {
      case Expression.Literal.LiteralTypeCase.I64 => e.getLiteral.getI64.toString
      case Expression.Literal.LiteralTypeCase.I32 => e.getLiteral.getI32.toString
      case Expression.Literal.LiteralTypeCase.NULL => absent
      case _ => "expression"
    }

  private def read(r: ReadRel): Seq[String] = {
    val source = r.getReadTypeCase match {
      case ReadRel.ReadTypeCase.NAMED_TABLE => s"table ${r.getNamedTable.getNamesList.asScala.mkString(".")}"
      case ReadRel.ReadTypeCase.VIRTUAL_TABLE =>
        val v = r.getVirtualTable
        s"virtual table, ${count(v.getExpressionsCount, "row")}"
      case ReadRel.ReadTypeCase.LOCAL_FILES => s"local files, ${count(r.getLocalFiles.getItemsCount, "item")}"
      case other => other.name().toLowerCase
    }
    Seq(source, count(r.getBaseSchema.getStruct.getTypesCount, "column")) ++
      Seq(r.hasFilter -> "filter", r.hasBestEffortFilter -> "best-effort filter", r.hasProjection -> "projection")
        .collect { case (true, what) => what }
  }

  private def common(rel: Rel): Option[RelCommon] = {
    val message = rel.getField(rel.getDescriptorForType.findFieldByNumber(rel.getRelTypeCase.getNumber))
    message match {
      case m: com.google.protobuf.Message =>
        Option(m.getDescriptorForType.findFieldByName("common")).filter(m.hasField).map(
          m.getField(_).asInstanceOf[RelCommon])
      case _ => None
    }
  }

  private def emit(common: Option[RelCommon]): Seq[String] =
    common.filter(_.hasEmit).map(c => s"emit [${c.getEmit.getOutputMappingList.asScala.mkString(", ")}]").toSeq

  private def count(n: Int, what: String): String = s"$n $what${if (n == 1) "" else "s"}"

  private def enumName(name: String, prefix: String): String = name.stripPrefix(prefix).toLowerCase.replace('_', ' ')
}
