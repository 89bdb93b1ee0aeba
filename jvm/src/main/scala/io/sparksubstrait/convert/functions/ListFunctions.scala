package io.sparksubstrait.convert.functions

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.types._

import io.sparksubstrait.convert.functions.FunctionCatalog.ScalarEntry

/** functions_list: lists as Spark arrays, lambdas as Spark's higher-order functions. */
private[functions] object ListFunctions {
  private val Lists = Set("functions_list")

  val entries: Seq[ScalarEntry] = Seq(
    ScalarEntry("cardinality", Lists,
      c => { c.expectArity(1); Cast(Size(list(c, 0), legacySizeOfNull = false), LongType) }),
    ScalarEntry("sort", Lists,
      c => {
        c.expectArity(1)
        val xs = list(c, 0)
        val (ascending, nullsFirst) = c.option("direction",
          Map("ASC_NULLS_FIRST" -> (true, true), "ASC_NULLS_LAST" -> (true, false),
            "DESC_NULLS_FIRST" -> (false, true), "DESC_NULLS_LAST" -> (false, false))).getOrElse((true, true))
        val element = xs.dataType.asInstanceOf[ArrayType].elementType
        ArraySort(xs, comparator(element, ascending, nullsFirst))
      }),
    ScalarEntry("transform", Lists, c => higherOrder(c)(ArrayTransform(_, _))),
    ScalarEntry("filter", Lists, c => higherOrder(c)(ArrayFilter(_, _))),
    // Three-valued: NULL when no element matches but one gives NULL.
    ScalarEntry("any_match", Lists, c => higherOrder(c)(ArrayExists(_, _, true))),
    ScalarEntry("all_match", Lists, c => higherOrder(c)(ArrayForAll(_, _))),
    // functions_set: the 0-based index of the first equal element, NULL when none (or the needle is NULL).
    ScalarEntry("index_in", Set("functions_set"),
      c => {
        c.expectArity(2)
        val (needle, haystack) = (c.arg(0), list(c, 1))
        // array_position treats NaN as equal to NaN, which is NAN_IS_NAN.
        val nanIsNan = c.option("nan_equality", Map("NAN_IS_NAN" -> true, "NAN_IS_NOT_NAN" -> false)).getOrElse(true)
        val position = ArrayPosition(haystack, needle)
        val index = If(EqualTo(position, Literal(0L)), Literal(null, LongType), Subtract(position, Literal(1L)))
        needle.dataType match {
          case DoubleType | FloatType if !nanIsNan => If(IsNaN(needle), Literal(null, LongType), index)
          case _ => index
        }
      })
  )

  /** array_sort's comparator (l, r) -> -1 / 0 / 1 for one direction and NULL placement. */
  private def comparator(element: DataType, ascending: Boolean, nullsFirst: Boolean): LambdaFunction = {
    val l = NamedLambdaVariable("l", element, nullable = true)
    val r = NamedLambdaVariable("r", element, nullable = true)
    val (before, after) = (Literal(-1), Literal(1))
    val nullFirst = if (nullsFirst) before else after
    val (less, greater) = if (ascending) (before, after) else (after, before)
    LambdaFunction(
      CaseWhen(
        Seq(
          And(IsNull(l), IsNull(r)) -> Literal(0),
          IsNull(l) -> nullFirst,
          IsNull(r) -> UnaryMinus(nullFirst),
          LessThan(l, r) -> less,
          GreaterThan(l, r) -> greater), Some(Literal(0))), Seq(l, r))
  }

  private def higherOrder(c: FunctionCall)(f: (Expression, Expression) => Expression): Expression = {
    c.expectArity(2)
    c.arg(1) match {
      case fn: LambdaFunction => f(list(c, 0), fn)
      case _ => c.wrongArguments("a list and a lambda")
    }
  }

  private def list(c: FunctionCall, i: Int): Expression = c.arg(i).dataType match {
    case _: ArrayType => c.arg(i)
    case _ => c.wrongArguments("a list argument")
  }
}
