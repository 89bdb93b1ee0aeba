package io.sparksubstrait.write.rel

import org.apache.spark.sql.catalyst.plans.logical.BaseEvalPython

import io.sparksubstrait.proto.Rel
import io.sparksubstrait.write.{CatalystPath, WriteContext}
import io.sparksubstrait.write.expr.InputRecord

/**
 * The operator Spark's optimizer extracts Python UDF calls into (BatchEvalPython,
 * ArrowEvalPython): its input's columns and one column per call, which is a projection.
 * Each call is written as the user mapping that names its UDF, or refused.
 */
private[sparksubstrait] object PythonEvalWriter {
  def write(e: BaseEvalPython, at: CatalystPath)(implicit ctx: WriteContext): Rel =
    ProjectWriter.project(RelWriter.write(e.child, at), InputRecord(e.child.output), e.child.output ++ e.udfs, at)
}
