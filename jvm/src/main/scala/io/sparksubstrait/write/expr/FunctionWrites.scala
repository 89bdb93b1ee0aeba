package io.sparksubstrait.write.expr

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.expressions.aggregate.{
  AggregateFunction, Average, CentralMomentAgg, Count, Max, Min, StddevPop, StddevSamp, Sum, VariancePop, VarianceSamp
}
import org.apache.spark.sql.sparksubstrait.SparkShim
import org.apache.spark.sql.types._

/**
 * The function table read backwards: Catalyst expression class to the standard Substrait
 * function (extension, name, options) our reader maps back to the same Catalyst expression.
 * One row per Catalyst class; `FunctionWritesSuite` checks every row against the reader's
 * [[io.sparksubstrait.convert.functions.FunctionCatalog]] (the reader must map each written name
 * from each extension the row may use) and every option against the YAML's values, so the
 * two tables cannot drift apart silently.
 *
 * A row's `write` says how the expression's values map to the call; it returns None where
 * the expression's Spark semantics have no exact Substrait form (the writer then refuses it
 * with `why`): a wrong answer is worse than an error.
 */
private[sparksubstrait] object FunctionWrites {
  sealed trait Arg
  final case class Value(e: Expression) extends Arg
  final case class Enum(value: String) extends Arg

  /**
   * The value of another call, in type `as` (the inner call's result cast to it when its
   * `result` differs, as for a row's own call): a Spark function some calls compute exactly.
   */
  final case class Nested(call: Call, as: DataType, nullable: Boolean) extends Arg

  /**
   * One call. `result`: the type the Substrait function returns when it is not the Catalyst
   * expression's (extract gives i64 where Spark's year() is an int): the writer casts it back.
   * `nullIsFalse`: Spark's predicate is false where the Substrait one is NULL (isnan of NULL):
   * the writer wraps the call in coalesce(call, false).
   */
  final case class Call(extension: String, name: String, args: Seq[Arg], options: Seq[(String, String)] = Nil,
    result: Option[DataType] = None, nullIsFalse: Boolean = false)

  sealed trait Kind
  case object Scalar extends Kind
  case object Aggregate extends Kind

  /** Window-only functions (ranking, offsets); aggregates over windows are Aggregate rows. */
  case object Window extends Kind

  final case class Row(catalyst: Class[_], kind: Kind, extensions: Set[String], name: String, why: String)(
    val write: Expression => Option[Call])

  private val Arithmetic = "functions_arithmetic"
  private val Decimal = "functions_arithmetic_decimal"
  private val Comparison = "functions_comparison"
  private val Boolean = "functions_boolean"
  private val Strings = "functions_string"
  private val Datetime = "functions_datetime"
  private val RoundingDecimal = "functions_rounding_decimal"
  private val Generic = "functions_aggregate_generic"

  private def numeric(t: DataType): Boolean = t.isInstanceOf[NumericType]
  private def integral(t: DataType): Boolean = Set[DataType](ByteType, ShortType, IntegerType, LongType)(t)

  /** Decimal arguments use the decimal YAML (its output type rules); other numbers the plain one. */
  private def arithmeticOf(e: Expression): String =
    if (e.children.exists(_.dataType.isInstanceOf[DecimalType])) Decimal else Arithmetic

  /** The YAML defining min/max for a type: numbers, decimals, date-times; others (strings) none. */
  private def orderedOf(t: DataType): Option[String] = t match {
    case _: DecimalType => Some(Decimal)
    case _: NumericType => Some(Arithmetic)
    case DateType | TimestampType | TimestampNTZType => Some(Datetime)
    case _ => None
  }

  /** Spark's overflow behaviour: ANSI raises, legacy wraps (a SILENT result); TRY's NULL has no option. */
  private def overflow(mode: EvalMode.Value): Option[String] = mode match {
    case EvalMode.ANSI => Some("ERROR")
    case EvalMode.LEGACY => Some("SILENT")
    case _ => None
  }

  /**
   * The overflow option of a sum or average of `t`: Spark's mode for integers and decimals;
   * floating-point sums are IEEE in every mode (ANSI checks no double add: an overflow is an
   * infinity), which the YAML's SILENT allows and ERROR would not. TRY stays unwritable.
   */
  private def summed(t: DataType, mode: EvalMode.Value): Option[String] = t match {
    case DoubleType | FloatType => overflow(mode).map(_ => "SILENT")
    case _ => overflow(mode)
  }

  /** Division by zero: ANSI raises, legacy gives NULL. */
  private def byZero(mode: EvalMode.Value): Option[String] = mode match {
    case EvalMode.ANSI => Some("ERROR")
    case EvalMode.LEGACY => Some("NULL")
    case _ => None
  }

  private def binaryArithmetic[T <: BinaryArithmetic](cls: Class[T], name: String): Row =
    Row(cls, Scalar, Set(Arithmetic, Decimal), name,
      "try_ arithmetic (NULL on overflow) and non-numeric operands have no Substrait form") {
      case b: BinaryArithmetic if numeric(b.dataType) =>
        overflow(SparkShim.arithmeticMode(b)).map(o =>
          Call(arithmeticOf(b), name, Seq(Value(b.left), Value(b.right)),
            if (b.dataType == DoubleType || b.dataType == FloatType) Nil else Seq("overflow" -> o)))
      case _ => None
    }

  private def comparison[T <: Expression](cls: Class[T], name: String): Row =
    Row(cls, Scalar, Set(Comparison), name, "") { case b: BinaryExpression =>
      Some(Call(Comparison, name, Seq(Value(b.left), Value(b.right))))
    }

  private def predicate[T <: Expression](cls: Class[T], name: String): Row =
    Row(cls, Scalar, Set(Comparison), name, "") { case u: UnaryExpression =>
      Some(Call(Comparison, name, Seq(Value(u.child))))
    }

  private def stringTest[T <: Expression](cls: Class[T], name: String): Row =
    Row(cls, Scalar, Set(Strings), name, "") { case b: BinaryExpression =>
      Some(Call(Strings, name, Seq(Value(b.left), Value(b.right)), Seq("case_sensitivity" -> "CASE_SENSITIVE")))
    }

  /** extract(part, x): Spark's date parts are ints, the YAML's i64 (every value fits). */
  private def datePart[T <: UnaryExpression](cls: Class[T], part: String): Row =
    Row(cls, Scalar, Set(Datetime), "extract", "only of a date") {
      case u: UnaryExpression if u.child.dataType == DateType =>
        Some(Call(Datetime, "extract", Seq(Enum(part), Value(u.child)), result = Some(LongType)))
      case _ => None
    }

  /**
   * round / bround of a decimal: Spark rounds the exact decimal value HALF_UP (round) or
   * HALF_EVEN (bround), which the decimal YAML's `rounding` option names TIE_AWAY_FROM_ZERO and
   * TIE_TO_EVEN. The YAML's result is DECIMAL(P + 1, S) (capped at 38); Spark's type keeps at
   * most `scale` digits, so the result is cast back to it, which loses nothing: the value already
   * has that many. Doubles are not written: Spark rounds a double's shortest decimal text
   * (round(2.675D, 2) is 2.68), the YAML the double's value (2.67499999…, so 2.67).
   *
   * Of a DECIMAL(38, s) the YAML's result is DECIMAL(38, s) itself, which overflows where the
   * rounded value gains a digit (99…9.999 to 2 places) and Spark's type, DECIMAL(39 - s + n, n),
   * does not: [[roundOf38]] writes round (not bround) there through a narrower decimal.
   */
  private def decimalRound[T <: RoundBase](cls: Class[T], rounding: String): Row =
    Row(cls, Scalar, Set(RoundingDecimal), "round",
      "of decimals: below 38 digits; of a DECIMAL(38, s) only round (HALF_UP) to a literal number of places n " +
        "with n <= s - 2 or n >= s (otherwise the YAML's DECIMAL(38, s) result overflows where Spark's type does " +
        "not); not of doubles (Spark rounds a double's shortest decimal text, not its value)") {
      // RoundBase is binary: the value (left) and the number of places (right).
      case r: RoundBase => r.left.dataType match {
          case d: DecimalType if d.precision < DecimalType.MAX_PRECISION && r.right.foldable =>
            Some(Call(RoundingDecimal, "round", Seq(Value(r.left), Value(r.right)), Seq("rounding" -> rounding),
                result = Some(DecimalType(d.precision + 1, d.scale))))
          case d: DecimalType if r.right.foldable =>
            places(r.right).flatMap { n =>
              // Places at or beyond the scale change no value: the YAML's DECIMAL(38, s) holds it.
              if (n >= d.scale) {
                Some(Call(RoundingDecimal, "round", Seq(Value(r.left), Value(r.right)), Seq("rounding" -> rounding),
                    result = Some(d)))
              } else if (rounding == HalfUp) roundOf38(r, d, n)
              else None
            }
          case _ => None
        }
    }

  private val HalfUp = "TIE_AWAY_FROM_ZERO"

  /** A literal int number of places (Spark's round takes only a foldable one). */
  private def places(e: Expression): Option[Int] = scala.util.Try(e.eval()).toOption.collect { case n: Int => n }

  /**
   * round(x, n) HALF_UP of x: DECIMAL(38, s), n < s. Whether HALF_UP rounds x up at n places is
   * decided by its digit at n + 1 places alone (>= 5: up), and its digits to n places are kept:
   * so x truncated to n + 1 places (toward zero, which never adds a digit) rounds HALF_UP to n
   * places exactly as x does. That value has at most 38 - s integer digits and k = max(n + 1, 0)
   * fraction digits: it is exactly a DECIMAL(38 - s + k, k) (the cast drops only zeros), whose
   * round is the YAML's DECIMAL(39 - s + k, k), a digit wider than any rounded value, then cast
   * to Spark's type. Written only where that fits 38 digits (n <= s - 2; n = s - 1 truncates
   * nothing) and Spark's type holds every rounded value (38 - s + 1 integer digits), so no step
   * can overflow and Spark's NULL-or-error on overflow never arises. bround (HALF_EVEN) has no
   * such form: its ties depend on every digit after n + 1.
   */
  private def roundOf38(r: RoundBase, d: DecimalType, n: Int): Option[Call] = {
    val k = math.max(n + 1, 0)
    val digits = math.max(d.precision - d.scale + k, 1)
    val spark = r.dataType.asInstanceOf[DecimalType]
    val holds = spark.precision - spark.scale >= d.precision - d.scale + 1
    if (d.scale < 0 || digits + 1 > DecimalType.MAX_PRECISION || !holds) None
    else {
      val narrow = DecimalType(digits, k)
      val truncated = Call(RoundingDecimal, "round", Seq(Value(r.left), Value(Literal(n + 1))),
        Seq("rounding" -> "TRUNCATE"), result = Some(d))
      Some(Call(RoundingDecimal, "round", Seq(Nested(truncated, narrow, r.left.nullable), Value(r.right)),
          Seq("rounding" -> HalfUp), result = Some(DecimalType(digits + 1, k))))
    }
  }

  /**
   * stddev / variance (sample or population) of doubles, the spec's std_dev / variance with the
   * distribution as its enumeration argument. Spark's default gives NULL for a sample of one
   * value, as the spec's sample statistic has no value there; the legacy setting
   * (spark.sql.legacy.statisticalAggregate: NaN) is not written.
   */
  private def moment[T <: CentralMomentAgg](cls: Class[T], name: String, distribution: String): Row =
    Row(cls, Aggregate, Set(Arithmetic), name,
      "not under spark.sql.legacy.statisticalAggregate (its NaN for one value has no Substrait form)") {
      case m: CentralMomentAgg if m.child.dataType == DoubleType && nullsOnDivideByZero(m) =>
        Some(Call(Arithmetic, name, Seq(Enum(distribution), Value(m.child))))
      case _ => None
    }

  /** Whether a moment aggregate gives NULL (not NaN) where its divisor is zero. */
  private def nullsOnDivideByZero(m: CentralMomentAgg): Boolean = m match {
    case s: StddevSamp => s.nullOnDivideByZero
    case s: StddevPop => s.nullOnDivideByZero
    case v: VarianceSamp => v.nullOnDivideByZero
    case v: VariancePop => v.nullOnDivideByZero
    case _ => false
  }

  /**
   * date + n days (DateAdd, and DateSub as date + (-n)): the datetime YAML's add of a date and
   * an interval_day, which is a precision_timestamp (midnight n days later), cast back to the
   * date. Only a literal n: Spark adds int days without a range check, the YAML's interval
   * has a range of its own.
   */
  private def dateShift[T <: BinaryExpression](cls: Class[T], sign: Int): Row =
    Row(cls, Scalar, Set(Datetime), "add", "only of a date and a literal number of days") {
      case b: BinaryExpression if b.left.dataType == DateType =>
        b.right match {
          case Literal(n: Number, IntegerType | ShortType | ByteType) =>
            val micros = sign * n.longValue * 86400L * 1000000L
            Some(Call(Datetime, "add", Seq(Value(b.left), Value(Literal(micros, DayTimeIntervalType.DEFAULT))),
                result = Some(TimestampNTZType)))
          case _ => None
        }
      case _ => None
    }

  val rows: Seq[Row] = Seq(
    binaryArithmetic(classOf[Add], "add"),
    binaryArithmetic(classOf[Subtract], "subtract"),
    binaryArithmetic(classOf[Multiply], "multiply"),
    // Spark divides doubles and decimals; by zero ANSI raises, legacy gives NULL. The decimal
    // YAML has no by-zero option: its overflow option carries the mode (our reader's reading).
    Row(classOf[Divide], Scalar, Set(Arithmetic, Decimal), "divide", "try_divide has no Substrait form") {
      case d: Divide if d.dataType == DoubleType =>
        byZero(SparkShim.arithmeticMode(d)).map(z =>
          Call(Arithmetic, "divide",
            Seq(Value(d.left), Value(d.right)), Seq("on_division_by_zero" -> z)))
      case d: Divide if d.dataType.isInstanceOf[DecimalType] =>
        overflow(SparkShim.arithmeticMode(d)).map(o =>
          Call(Decimal, "divide",
            Seq(Value(d.left), Value(d.right)), Seq("overflow" -> o)))
      case _ => None
    },
    // div: Substrait's integer division truncates, as Spark's; Spark's result is a long.
    Row(classOf[IntegralDivide], Scalar, Set(Arithmetic), "divide",
      "only of two longs; try_ forms have no Substrait form") {
      case d: IntegralDivide if d.left.dataType == LongType && d.right.dataType == LongType =>
        for (z <- byZero(SparkShim.arithmeticMode(d)); o <- overflow(SparkShim.arithmeticMode(d)))
          yield Call(Arithmetic, "divide", Seq(Value(d.left), Value(d.right)),
            Seq("on_division_by_zero" -> z, "overflow" -> o))
      case _ => None
    },
    // %: the truncating remainder (the dividend's sign); by zero ANSI raises, legacy gives NULL.
    Row(classOf[Remainder], Scalar, Set(Arithmetic), "modulus", "only of integers; try_ forms have no Substrait form") {
      case r: Remainder if integral(r.dataType) && r.left.dataType == r.right.dataType =>
        for (z <- byZero(SparkShim.arithmeticMode(r)); o <- overflow(SparkShim.arithmeticMode(r)))
          yield Call(Arithmetic, "modulus", Seq(Value(r.left), Value(r.right)),
            Seq("division_type" -> "TRUNCATE", "on_domain_error" -> z, "overflow" -> o))
      case _ => None
    },
    Row(classOf[UnaryMinus], Scalar, Set(Arithmetic, Decimal), "negate", "only of numbers") {
      case u: UnaryMinus if integral(u.dataType) =>
        Some(Call(Arithmetic, "negate", Seq(Value(u.child)),
            Seq("overflow" -> (if (u.failOnError) "ERROR" else "SILENT"))))
      case u: UnaryMinus if numeric(u.dataType) => Some(Call(arithmeticOf(u), "negate", Seq(Value(u.child))))
      case _ => None
    },
    Row(classOf[Abs], Scalar, Set(Arithmetic, Decimal), "abs", "only of numbers") {
      case a: Abs if integral(a.dataType) =>
        Some(Call(Arithmetic, "abs", Seq(Value(a.child)),
            Seq("overflow" -> (if (a.failOnError) "ERROR" else "SILENT"))))
      case a: Abs if numeric(a.dataType) => Some(Call(arithmeticOf(a), "abs", Seq(Value(a.child))))
      case _ => None
    },

    comparison(classOf[EqualTo], "equal"),
    comparison(classOf[LessThan], "lt"),
    comparison(classOf[LessThanOrEqual], "lte"),
    comparison(classOf[GreaterThan], "gt"),
    comparison(classOf[GreaterThanOrEqual], "gte"),
    comparison(classOf[EqualNullSafe], "is_not_distinct_from"),
    predicate(classOf[IsNull], "is_null"),
    predicate(classOf[IsNotNull], "is_not_null"),
    Row(classOf[IsNaN], Scalar, Set(Comparison), "is_nan", "") { case n: IsNaN =>
      Some(Call(Comparison, "is_nan", Seq(Value(n.child)), nullIsFalse = true))
    },
    Row(classOf[Coalesce], Scalar, Set(Comparison), "coalesce", "") { case c: Coalesce =>
      Some(Call(Comparison, "coalesce", c.children.map(Value)))
    },
    // Spark's greatest/least skip NULLs: the _skip_null forms.
    Row(classOf[Greatest], Scalar, Set(Comparison), "greatest_skip_null", "") { case g: Greatest =>
      Some(Call(Comparison, "greatest_skip_null", g.children.map(Value)))
    },
    Row(classOf[Least], Scalar, Set(Comparison), "least_skip_null", "") { case l: Least =>
      Some(Call(Comparison, "least_skip_null", l.children.map(Value)))
    },

    Row(classOf[And], Scalar, Set(Boolean), "and", "") { case a: And =>
      Some(Call(Boolean, "and", Seq(Value(a.left), Value(a.right))))
    },
    Row(classOf[Or], Scalar, Set(Boolean), "or", "") { case o: Or =>
      Some(Call(Boolean, "or", Seq(Value(o.left), Value(o.right))))
    },
    Row(classOf[Not], Scalar, Set(Boolean), "not", "") { case n: Not =>
      Some(Call(Boolean, "not", Seq(Value(n.child))))
    },

    // LIKE, and the forms the optimizer simplifies LIKE patterns into (LikeSimplification).
    Row(classOf[Like], Scalar, Set(Strings), "like", "only with the escape character \\ (the reader's default)") {
      case l: Like if l.escapeChar == '\\' =>
        Some(Call(Strings, "like", Seq(Value(l.left), Value(l.right)),
            Seq("case_sensitivity" -> "CASE_SENSITIVE")))
      case _ => None
    },
    stringTest(classOf[StartsWith], "starts_with"),
    stringTest(classOf[EndsWith], "ends_with"),
    stringTest(classOf[Contains], "contains"),
    // Spark's substring counts a start of 0 as 1; Substrait's from 1: written for starts of 1 or more.
    Row(classOf[Substring], Scalar, Set(Strings), "substring",
      "only with a literal start of 1 or more and a literal length") {
      case s @ Substring(str, pos @ Literal(p: Int, IntegerType), len @ Literal(n: Int, IntegerType))
          if p >= 1 && n >= 0 && str.dataType.isInstanceOf[StringType] =>
        Some(Call(Strings, "substring", Seq(Value(str), Value(pos), Value(len)),
            Seq("negative_start" -> "WRAP_FROM_END")))
      case _ => None
    },
    Row(classOf[Upper], Scalar, Set(Strings), "upper", "") { case u: Upper =>
      Some(Call(Strings, "upper", Seq(Value(u.child)), Seq("char_set" -> "UTF8")))
    },
    Row(classOf[Lower], Scalar, Set(Strings), "lower", "") { case l: Lower =>
      Some(Call(Strings, "lower", Seq(Value(l.child)), Seq("char_set" -> "UTF8")))
    },
    Row(classOf[Length], Scalar, Set(Strings), "char_length", "only of strings") {
      case l: Length if l.child.dataType.isInstanceOf[StringType] =>
        Some(Call(Strings, "char_length", Seq(Value(l.child)), result = Some(LongType)))
      case _ => None
    },
    Row(classOf[Concat], Scalar, Set(Strings), "concat", "only of strings") {
      case c: Concat if c.children.nonEmpty && c.dataType.isInstanceOf[StringType] =>
        Some(Call(Strings, "concat", c.children.map(Value), Seq("null_handling" -> "ACCEPT_NULLS")))
      case _ => None
    },

    // Bitwise AND and the signed shift right: how Spark reads one bit of the grouping id
    // (grouping(k) is (id >> n) & 1). Spark's shift takes the amount modulo the width; the YAML
    // says nothing of amounts beyond it, so only a literal amount within the width is written.
    Row(classOf[BitwiseAnd], Scalar, Set(Arithmetic), "bitwise_and", "only of integers") {
      case b: BitwiseAnd if integral(b.dataType) =>
        Some(Call(Arithmetic, "bitwise_and", Seq(Value(b.left), Value(b.right))))
      case _ => None
    },
    Row(classOf[ShiftRight], Scalar, Set(Arithmetic), "shift_right",
      "only of an int or long by a literal amount below its width") {
      case s: ShiftRight => (s.left.dataType, s.right) match {
          case (IntegerType, Literal(n: Int, IntegerType)) if n >= 0 && n < 32 =>
            Some(Call(Arithmetic, "shift_right", Seq(Value(s.left), Value(s.right))))
          case (LongType, Literal(n: Int, IntegerType)) if n >= 0 && n < 64 =>
            Some(Call(Arithmetic, "shift_right", Seq(Value(s.left), Value(s.right))))
          case _ => None
        }
    },

    datePart(classOf[Year], "YEAR"),
    datePart(classOf[Month], "MONTH"),
    datePart(classOf[DayOfMonth], "DAY"),
    datePart(classOf[Quarter], "QUARTER"),
    dateShift(classOf[DateAdd], 1),
    dateShift(classOf[DateSub], -1),
    decimalRound(classOf[Round], HalfUp),
    decimalRound(classOf[BRound], "TIE_TO_EVEN"),

    // Aggregates. A count is a long whatever the overflow choice; sum and avg keep Spark's mode.
    Row(classOf[Sum], Aggregate, Set(Arithmetic, Decimal), "sum", "try_sum has no Substrait form") {
      case s: Sum =>
        summed(s.child.dataType, SparkShim.sumMode(s))
          .map(o => Call(arithmeticOf(s), "sum", Seq(Value(s.child)), Seq("overflow" -> o)))
    },
    Row(classOf[Average], Aggregate, Set(Arithmetic, Decimal), "avg", "try_avg has no Substrait form") {
      // Spark averages integers and floats as doubles; the YAML's avg of i32 is an i32 (it
      // truncates): the argument is written as the double Spark averages.
      case a: Average =>
        val arg = a.child.dataType match {
          case _: DecimalType | DoubleType => a.child
          case _ => Cast(a.child, DoubleType)
        }
        summed(arg.dataType, a.evalMode).map(o => Call(arithmeticOf(a), "avg", Seq(Value(arg)), Seq("overflow" -> o)))
    },
    Row(classOf[Min], Aggregate, Set(Arithmetic, Decimal, Datetime), "min", "only of numbers, dates and timestamps") {
      case m: Min => orderedOf(m.child.dataType).map(ext => Call(ext, "min", Seq(Value(m.child))))
    },
    Row(classOf[Max], Aggregate, Set(Arithmetic, Decimal, Datetime), "max", "only of numbers, dates and timestamps") {
      case m: Max => orderedOf(m.child.dataType).map(ext => Call(ext, "max", Seq(Value(m.child))))
    },
    moment(classOf[StddevSamp], "std_dev", "SAMPLE"),
    moment(classOf[StddevPop], "std_dev", "POPULATION"),
    moment(classOf[VarianceSamp], "variance", "SAMPLE"),
    moment(classOf[VariancePop], "variance", "POPULATION"),
    // count(*) is Spark's count(1): Substrait's count of no argument.
    Row(classOf[Count], Aggregate, Set(Generic), "count", "only of one argument") {
      case Count(Seq(Literal(v, _))) if v != null => Some(Call(Generic, "count", Nil))
      case Count(Seq(x)) => Some(Call(Generic, "count", Seq(Value(x))))
      case _ => None
    }
  )

  /** A window function of no argument: it takes its order from the window. */
  private def ranking[T <: Expression](cls: Class[T], name: String): Row =
    Row(cls, Window, Set(Arithmetic), name, "") { case _ => Some(Call(Arithmetic, name, Nil)) }

  /** lead / lag (value, offset, default); Spark's IGNORE NULLS has no Substrait form. */
  private def offsetFunction[T <: FrameLessOffsetWindowFunction](cls: Class[T], name: String): Row =
    Row(cls, Window, Set(Arithmetic), name, "not with IGNORE NULLS") {
      case f: FrameLessOffsetWindowFunction if !f.ignoreNulls =>
        val Seq(value, offset, default) = f.children
        // No default is a NULL one (of the value's type; Spark's may be typeless).
        val written = default match {
          case Literal(null, _) => Seq(value, offset)
          case d => Seq(value, offset, d)
        }
        Some(Call(Arithmetic, name, written.map(Value)))
      case _ => None
    }

  val windowRows: Seq[Row] = Seq(
    ranking(classOf[RowNumber], "row_number"),
    ranking(classOf[Rank], "rank"),
    ranking(classOf[DenseRank], "dense_rank"),
    ranking(classOf[PercentRank], "percent_rank"),
    ranking(classOf[CumeDist], "cume_dist"),
    Row(classOf[NTile], Window, Set(Arithmetic), "ntile", "") { case n: NTile =>
      Some(Call(Arithmetic, "ntile", Seq(Value(n.buckets))))
    },
    offsetFunction(classOf[Lead], "lead"),
    offsetFunction(classOf[Lag], "lag"))

  private val byClass: Map[Class[_], Row] = (rows ++ windowRows).map(r => r.catalyst -> r).toMap

  def row(e: Expression): Option[Row] = byClass.get(e.getClass)
  def aggregateRow(f: AggregateFunction): Option[Row] = byClass.get(f.getClass).filter(_.kind == Aggregate)
  def windowRow(f: Expression): Option[Row] = byClass.get(f.getClass).filter(_.kind == Window)
  def allRows: Seq[Row] = rows ++ windowRows
}
