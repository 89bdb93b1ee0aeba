package io.sparksubstrait.convert.expr

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.Expression.{Literal => SLiteral}
import org.apache.spark.sql.catalyst.CatalystTypeConverters
import org.apache.spark.sql.catalyst.expressions.{Expression => CExpression, Literal}

import io.sparksubstrait.convert.types.{HandledUserType, TypeEnv}
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.extending.HandlerClasses

/**
 * A literal of a user-defined type a session's handler holds (docs/extending.md): the handler
 * reads its value, given as an `Any` payload or in the struct form, into a value of its Spark
 * type as a Row holds it; Catalyst's converter then makes the literal of that type, so a
 * value of another class is the handler's error here, not a wrong value later.
 */
private[sparksubstrait] object HandledUserLiterals {
  def convert(u: SLiteral.UserDefined, held: HandledUserType, at: PlanPath)(implicit env: TypeEnv): CExpression = {
    val handler = held.handler
    val what = s"reading a literal of ${held.declared.name}"
    def call[T](body: => T): T = HandlerClasses.call(handler, what, at.toString)(body)
    val value = u.getValCase match {
      case SLiteral.UserDefined.ValCase.VALUE =>
        val any = u.getValue
        call(handler.literal(any.getTypeUrl, any.getValue.toByteArray))
      case SLiteral.UserDefined.ValCase.STRUCT =>
        val fields = u.getStruct.getFieldsList.asScala.toSeq.zipWithIndex.map { case (f, i) =>
          LiteralConverter.convert(f, (at / "struct").at("fields", i)) match {
            case Literal(v, dt) => CatalystTypeConverters.convertToScala(v, dt)
            case other => throw SubstraitErrors.invalidPlan((at / "struct").at("fields", i),
                s"a field that is not a constant (${other.nodeName})", "a literal")
          }
        }
        call(handler.structLiteral(fields)).getOrElse(throw SubstraitErrors.unsupported(at / "struct",
            s"a ${held.declared.name} literal in the struct form",
            "a literal given as a value (google.protobuf.Any): " +
              s"${HandlerClasses.describe(handler)} reads no struct form"))
      case SLiteral.UserDefined.ValCase.VAL_NOT_SET =>
        throw SubstraitErrors.missingField(at, "val", s"the ${held.declared.name} literal's value or struct")
    }
    call(Literal.create(value, held.sparkType))
  }
}
