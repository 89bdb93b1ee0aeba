package org.apache.spark.sql.sparksubstrait

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateFunction, CollectList}
import org.apache.spark.sql.types.{ArrayType, DataType, StringType}

/**
 * string_agg on Spark 3.5, which has no listagg: the non-NULL values collected (with their sort
 * keys, as one struct each) by collect_list, sorted by a comparator that follows every sort
 * field's direction and NULL placement, then joined; no values is NULL. The same strings as
 * Spark 4's listagg given the same order: both sort stably what they collected, and the caller
 * makes that order total (StringFunctions), so neither depends on the order rows arrive in.
 */
private[sparksubstrait] object OrderedStringAgg {

  /** The collected elements: the value alone when unordered, else struct(keys…, value). */
  def function(value: Expression, order: Seq[SortOrder]): AggregateFunction =
    if (order.isEmpty) CollectList(value)
    else {
      val fields = keys(value, order) :+ value
      val struct = CreateNamedStruct(fields.zipWithIndex.flatMap { case (e, i) => Seq(Literal(s"f$i"), e) })
      // collect_list skips NULLs: a NULL value must leave out its whole struct.
      CollectList(If(IsNull(value), Literal(null, struct.dataType), struct))
    }

  /** The joined string of what [[function]] collected (`collected`, an array). */
  def result(collected: Expression, value: Expression, separator: Expression, order: Seq[SortOrder]): Expression =
    // `collected` is referenced once: twice would make two window functions of one (a window
    // expression is extracted per occurrence), so it is bound to a lambda variable instead.
    let(collected) { all =>
      val values = if (order.isEmpty) all else sortedValues(all, value, order)
      If(EqualTo(Size(all), Literal(0)), Literal(null, StringType), ArrayJoin(values, separator, None))
    }

  /** The sort keys other than the value itself (the value is collected once, last). */
  private def keys(value: Expression, order: Seq[SortOrder]): Seq[Expression] =
    order.map(_.child).filterNot(_.semanticEquals(value))
      .foldLeft(Seq.empty[Expression])((seen, k) => if (seen.exists(_.semanticEquals(k))) seen else seen :+ k)

  private def sortedValues(all: Expression, value: Expression, order: Seq[SortOrder]): Expression = {
    val element = all.dataType.asInstanceOf[ArrayType].elementType
    val ks = keys(value, order)
    def field(e: Expression): Int = Some(ks.indexWhere(_.semanticEquals(e))).filter(_ >= 0).getOrElse(ks.size)
    val sorted = ArraySort(all, comparator(element, order.map(o => (field(o.child), o))))
    val x = NamedLambdaVariable("x", element, nullable = false)
    ArrayTransform(sorted, LambdaFunction(GetStructField(x, ks.size), Seq(x)))
  }

  /**
   * array_sort's comparator (l, r) -> -1 / 0 / 1 over struct elements: the first sort field
   * that tells them apart decides, by its direction and NULL placement. The comparisons are
   * Spark SQL's (NaN greatest, -0.0 = 0.0), the same as a SortOrder's.
   */
  private def comparator(element: DataType, fields: Seq[(Int, SortOrder)]): LambdaFunction = {
    val l = NamedLambdaVariable("l", element, nullable = false)
    val r = NamedLambdaVariable("r", element, nullable = false)
    val (before, after) = (Literal(-1), Literal(1))
    val body = fields.foldRight(Literal(0): Expression) { case ((i, o), tie) =>
      val (lk, rk) = (GetStructField(l, i), GetStructField(r, i))
      val (nullL, nullR) = if (o.nullOrdering == NullsFirst) (before, after) else (after, before)
      val (less, greater) = if (o.direction == Ascending) (before, after) else (after, before)
      // Both NULL or equal: no branch is taken (the comparisons are NULL or false), the next field decides.
      CaseWhen(
        Seq(
          And(IsNull(lk), IsNotNull(rk)) -> nullL,
          And(IsNotNull(lk), IsNull(rk)) -> nullR,
          LessThan(lk, rk) -> less,
          GreaterThan(lk, rk) -> greater), Some(tie))
    }
    LambdaFunction(body, Seq(l, r))
  }

  /** `body` of `e` evaluated once: transform of the one-element array [e], its only element. */
  private def let(e: Expression)(body: Expression => Expression): Expression = {
    val v = NamedLambdaVariable("v", e.dataType, e.nullable)
    GetArrayItem(ArrayTransform(CreateArray(Seq(e)), LambdaFunction(body(v), Seq(v))), Literal(0))
  }
}
