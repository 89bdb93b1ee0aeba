package io.sparksubstrait.convert.rel

import org.apache.spark.sql.types._

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Substrait names the fields of a struct — and of every struct nested in it, through lists
 * and maps — in one flat list, depth first. This applies such a list to a Spark type.
 */
private[sparksubstrait] object NestedNames {
  def apply(t: StructType, names: Seq[String], at: PlanPath): DataType = {
    val needed = count(t)
    if (names.size != needed) throw SubstraitErrors.rootNamesMismatch(at, names.size, needed)
    val it = names.iterator
    rename(t, it)
  }

  /** How many names a type consumes (a top-level struct's own fields included). */
  def count(t: DataType): Int = t match {
    case s: StructType => s.fields.map(f => 1 + count(f.dataType)).sum
    case ArrayType(e, _) => count(e)
    case MapType(k, v, _) => count(k) + count(v)
    case _ => 0
  }

  private def rename(t: DataType, names: Iterator[String]): DataType = t match {
    case s: StructType => StructType(s.fields.map { f =>
        val name = names.next()
        f.copy(name = name, dataType = rename(f.dataType, names))
      })
    case ArrayType(e, n) => ArrayType(rename(e, names), n)
    case MapType(k, v, n) =>
      val key = rename(k, names)
      MapType(key, rename(v, names), n)
    case other => other
  }
}
