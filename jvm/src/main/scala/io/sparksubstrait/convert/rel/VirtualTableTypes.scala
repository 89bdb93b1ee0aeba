package io.sparksubstrait.convert.rel

import io.sparksubstrait.proto.{Expression, Type}
import io.sparksubstrait.proto.Expression.Literal.LiteralTypeCase

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * A virtual table's literal is a value of its column's type, as base_schema declares it: the
 * same kind and parameters (a `varchar<3>` literal is no `string`, an i32 no i64), and not
 * nullable where the column is required (a required literal in a nullable column is a value
 * the column holds). Until now such rows were cast into the column's type, which the spec does
 * not ask for. Only literals are checked here: other constant expressions keep the reader's
 * check of their Spark types. Nested literals (struct, list, map) are checked by kind, a
 * struct by its number of fields too.
 */
private[rel] object VirtualTableTypes {
  def check(field: Expression, column: Type, name: String, columnNullable: Boolean, at: PlanPath): Unit = {
    if (!field.hasLiteral) return
    val l = field.getLiteral
    sameType(l, column).foreach { same =>
      if (!same) {
        throw SubstraitErrors.invalidPlan(at, s"a literal of type ${literalType(l)}",
          s"a value of type ${typeName(column)}, the type base_schema gives column $name (spec: a virtual table's " +
            "rows are values of the read's base_schema)")
      }
    }
    if (!columnNullable && (l.getNullable || l.hasNull)) {
      throw SubstraitErrors.invalidPlan(at, if (l.hasNull) "NULL" else s"a nullable literal (${literalType(l)}?)",
        s"a value: column $name is not nullable (spec: a virtual table's rows are values of the read's base_schema)")
    }
  }

  /** Whether the literal is of the type, ignoring nullability; None for a literal kind this check does not know. */
  private def sameType(l: Expression.Literal, t: Type): Option[Boolean] = l.getLiteralTypeCase match {
    case LiteralTypeCase.BOOLEAN => Some(t.hasBool)
    case LiteralTypeCase.I8 => Some(t.hasI8)
    case LiteralTypeCase.I16 => Some(t.hasI16)
    case LiteralTypeCase.I32 => Some(t.hasI32)
    case LiteralTypeCase.I64 => Some(t.hasI64)
    case LiteralTypeCase.FP32 => Some(t.hasFp32)
    case LiteralTypeCase.FP64 => Some(t.hasFp64)
    case LiteralTypeCase.STRING => Some(t.hasString)
    case LiteralTypeCase.BINARY => Some(t.hasBinary)
    case LiteralTypeCase.DATE => Some(t.hasDate)
    case LiteralTypeCase.UUID => Some(t.hasUuid)
    case LiteralTypeCase.INTERVAL_YEAR_TO_MONTH => Some(t.hasIntervalYear)
    case LiteralTypeCase.INTERVAL_DAY_TO_SECOND => Some(t.hasIntervalDay)
    case LiteralTypeCase.INTERVAL_COMPOUND => Some(t.hasIntervalCompound)
    case LiteralTypeCase.FIXED_CHAR =>
      Some(t.hasFixedChar && t.getFixedChar.getLength == l.getFixedChar.codePointCount(0, l.getFixedChar.length))
    case LiteralTypeCase.VAR_CHAR => Some(t.hasVarchar && t.getVarchar.getLength == l.getVarChar.getLength)
    case LiteralTypeCase.FIXED_BINARY => Some(t.hasFixedBinary && t.getFixedBinary.getLength == l.getFixedBinary.size)
    case LiteralTypeCase.DECIMAL => Some(t.hasDecimal && t.getDecimal.getPrecision == l.getDecimal.getPrecision &&
        t.getDecimal.getScale == l.getDecimal.getScale)
    case LiteralTypeCase.PRECISION_TIMESTAMP => Some(t.hasPrecisionTimestamp &&
        t.getPrecisionTimestamp.getPrecision == l.getPrecisionTimestamp.getPrecision)
    case LiteralTypeCase.PRECISION_TIMESTAMP_TZ => Some(t.hasPrecisionTimestampTz &&
        t.getPrecisionTimestampTz.getPrecision == l.getPrecisionTimestampTz.getPrecision)
    case LiteralTypeCase.STRUCT => Some(t.hasStruct && t.getStruct.getTypesCount == l.getStruct.getFieldsCount)
    case LiteralTypeCase.LIST | LiteralTypeCase.EMPTY_LIST => Some(t.hasList)
    case LiteralTypeCase.MAP | LiteralTypeCase.EMPTY_MAP => Some(t.hasMap)
    case LiteralTypeCase.NULL => Some(l.getNull.getKindCase == t.getKindCase)
    case LiteralTypeCase.USER_DEFINED =>
      Some(t.hasUserDefined && t.getUserDefined.getTypeReference == l.getUserDefined.getTypeReference)
    case _ => None
  }

  private def literalType(l: Expression.Literal): String = l.getLiteralTypeCase match {
    case LiteralTypeCase.VAR_CHAR => s"varchar<${l.getVarChar.getLength}>"
    case LiteralTypeCase.FIXED_CHAR => s"fixedchar<${l.getFixedChar.codePointCount(0, l.getFixedChar.length)}>"
    case LiteralTypeCase.FIXED_BINARY => s"fixedbinary<${l.getFixedBinary.size}>"
    case LiteralTypeCase.DECIMAL => s"decimal<${l.getDecimal.getPrecision},${l.getDecimal.getScale}>"
    case LiteralTypeCase.PRECISION_TIMESTAMP => s"precision_timestamp<${l.getPrecisionTimestamp.getPrecision}>"
    case LiteralTypeCase.PRECISION_TIMESTAMP_TZ => s"precision_timestamp_tz<${l.getPrecisionTimestampTz.getPrecision}>"
    case LiteralTypeCase.NULL => typeName(l.getNull)
    case other => other.name.toLowerCase
  }

  private def typeName(t: Type): String = t.getKindCase match {
    case Type.KindCase.VARCHAR => s"varchar<${t.getVarchar.getLength}>"
    case Type.KindCase.FIXED_CHAR => s"fixedchar<${t.getFixedChar.getLength}>"
    case Type.KindCase.FIXED_BINARY => s"fixedbinary<${t.getFixedBinary.getLength}>"
    case Type.KindCase.DECIMAL => s"decimal<${t.getDecimal.getPrecision},${t.getDecimal.getScale}>"
    case Type.KindCase.PRECISION_TIMESTAMP => s"precision_timestamp<${t.getPrecisionTimestamp.getPrecision}>"
    case Type.KindCase.PRECISION_TIMESTAMP_TZ => s"precision_timestamp_tz<${t.getPrecisionTimestampTz.getPrecision}>"
    case other => other.name.toLowerCase
  }
}
