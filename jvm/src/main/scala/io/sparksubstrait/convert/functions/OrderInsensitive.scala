package io.sparksubstrait.convert.functions

import org.apache.spark.sql.types.{ByteType, DecimalType, IntegerType, LongType, NullType, ShortType}

/**
 * Which aggregates give the same result whatever order their values come in: sort fields on
 * them (an AggregateFunction's `sorts`) change nothing, so they are read and left out, never
 * refused. Order matters where the function picks a value by position (any_value, which
 * DuckDB's ordered first() is; mode's ties; string_agg) and where rounding happens at every
 * step: a floating-point sum or mean through Spark's Sum and Average rounds each partial sum,
 * so its last bits depend on the order. Those stay refused with sort fields. Exact ones are
 * insensitive: integer and decimal sums and means (exact until their end), and the
 * statistics computed exactly and rounded once (ExactMoments, ExactProduct, ExactMedian).
 */
private[functions] object OrderInsensitive {
  val Never: FunctionCall => Boolean = _ => false

  /** count, min, max, bool_and, bool_or, approx_count_distinct (HyperLogLog's registers keep maxima). */
  val Always: FunctionCall => Boolean = _ => true

  /** sum, sum0, avg: of integers and decimals, whose sums are exact; of floating-point values not. */
  val OfExactNumbers: FunctionCall => Boolean = c =>
    c.args.nonEmpty && c.args.forall(a =>
      a.dataType match {
        case ByteType | ShortType | IntegerType | LongType | NullType | _: DecimalType => true
        case _ => false
      })
}
