package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions.{Expression, PythonUDF, ScalaUDF}

import io.sparksubstrait.convert.functions.UserFunctionMapping
import io.sparksubstrait.proto.{Expression => SExpression, FunctionArgument}
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.types.TypeWriter

/**
 * A call of a UDF that one of the session's user mappings names (`spark_function`), written
 * as that mapping's extension function: the URN and name a reader maps back to the same UDF
 * (docs/extending.md). A UDF no mapping names stays unwritable, as before.
 */
private[sparksubstrait] object UserFunctionWriter {

  /** The mapping whose Spark function is this UDF, if any. */
  def mappingOf(e: Expression)(implicit ctx: WriteContext): Option[UserFunctionMapping] =
    udfName(e).flatMap { name =>
      ctx.userFunctions.mappings.find(_.target match {
        case UserFunctionMapping.SparkFunction(f) => f.split('.').last.replace("`", "").equalsIgnoreCase(name)
        case _ => false
      })
    }

  private def udfName(e: Expression): Option[String] = e match {
    case u: ScalaUDF => u.udfName
    case p: PythonUDF => Some(p.name)
    case _ => None
  }

  def write(e: Expression, m: UserFunctionMapping, input: InputRecord, at: CatalystPath)(
    implicit ctx: WriteContext): SExpression = {
    val signature = m.signature.getOrElse(e.children.map(c => TypeWriter.signature(c.dataType)).mkString("_"))
    val compound = if (e.children.isEmpty && m.signature.isEmpty) m.name else s"${m.name}:$signature"
    val b = SExpression.ScalarFunction.newBuilder()
      .setFunctionReference(ctx.functionAnchor(m.urn, compound))
      .setOutputType(TypeWriter.write(e.dataType, e.nullable, at))
    e.children.zipWithIndex.foreach { case (c, i) =>
      b.addArguments(FunctionArgument.newBuilder().setValue(ExpressionWriter.write(c, input, at / s"argument $i")))
    }
    SExpression.newBuilder().setScalarFunction(b).build()
  }
}
