package io.sparksubstrait.convert.rel

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, Cast, Expression, Literal, NamedExpression}
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke
import org.apache.spark.sql.catalyst.trees.TreeNodeTag
import org.apache.spark.sql.types._

import io.sparksubstrait.convert.types.SparkTypeNames
import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.runtime.CheckedNarrowing

/**
 * A column read as another type than the table's, because base_schema declares it so.
 * Producers write their own schema of a table: ibis' and Calcite's TPC-H schemas declare i32
 * for keys (`ps_partkey`, `o_orderkey`) a catalog holds as i64. A value that fits the
 * declared type is the same value in it, so a narrower integer or decimal is read through a
 * checked narrowing ([[CheckedNarrowing]]): the rows are exact when every value fits, and a
 * value that does not is SUBSTRAIT_VALUE_OUT_OF_RANGE naming the column and the value, never
 * a wrapped integer. A wider declared type (more integer bits, more decimal digits on both
 * sides of the point, fp64 for fp32) is an exact cast. Every other pair would change values
 * (fp32 for fp64, fewer fraction digits, another kind of type) or is ambiguous: refused by
 * the caller, as before.
 */
private[sparksubstrait] object DeclaredColumnTypes {

  /** What the projection reading such columns did, one phrase per column, for the explorer. */
  val Notes: TreeNodeTag[Seq[String]] = TreeNodeTag[Seq[String]]("sparksubstrait.declaredColumnTypes")

  final case class Reading(column: NamedExpression, note: String)

  /** `column` read as `declared` (base_schema at `at`), or None when no exact reading exists. */
  def reading(column: Attribute, declared: DataType, at: PlanPath, what: String): Option[Reading] = {
    val stored = column.dataType
    def as(e: Expression, how: String): Option[Reading] = Some(Reading(Alias(e, column.name)(),
        s"column ${column.name}: ${SparkTypeNames.of(stored)} in $what, read as the declared " +
          s"${SparkTypeNames.of(declared)} ($how)"))
    val narrowed = "checked narrowing: a value beyond it is SUBSTRAIT_VALUE_OUT_OF_RANGE"
    // The error's arguments: where base_schema declares the column, which column, what the table holds.
    def context = Seq(Literal(at.toString), Literal(s"${column.name} of $what"), Literal(SparkTypeNames.of(stored)))
    (integerBits(stored), integerBits(declared)) match {
      case (Some(s), Some(d)) if d > s => as(Cast(column, declared), "widened")
      case (Some(_), Some(d)) =>
        val long = if (stored == LongType) column else Cast(column, LongType)
        val method = d match { case 32 => "toInt"; case 16 => "toShort"; case _ => "toByte" }
        as(invoke(declared, method, long +: context), narrowed)
      case _ => (stored, declared) match {
          case (FloatType, DoubleType) => as(Cast(column, DoubleType), "widened")
          // Fewer fraction digits would round: only the integer digits may narrow.
          case (s: DecimalType, d: DecimalType) if d.scale >= s.scale =>
            if (d.precision - d.scale >= s.precision - s.scale) as(Cast(column, d), "widened")
            else as(invoke(d, "toDecimal", Seq(column, Literal(d.precision), Literal(d.scale)) ++ context), narrowed)
          case _ => None
        }
    }
  }

  private def integerBits(t: DataType): Option[Int] = t match {
    case ByteType => Some(8)
    case ShortType => Some(16)
    case IntegerType => Some(32)
    case LongType => Some(64)
    case _ => None
  }

  /** NULL stays NULL (the arguments' nulls propagate); the result is as nullable as the column. */
  private def invoke(result: DataType, method: String, args: Seq[Expression]): Expression =
    StaticInvoke(classOf[CheckedNarrowing], result, method, args, Nil, true, false)
}
