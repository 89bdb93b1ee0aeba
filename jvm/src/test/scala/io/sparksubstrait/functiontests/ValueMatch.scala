package io.sparksubstrait.functiontests

import java.math.{BigDecimal => JBigDecimal}
import java.time.{Duration, Instant, LocalDate, LocalDateTime, LocalTime, OffsetDateTime, Period, ZoneOffset}

import org.apache.spark.sql.Row

/** Whether a value Spark returned is a test file's value of a type, and both as text for reports. */
object ValueMatch {
  def same(actual: Any, want: RawValue, t: TestType): Boolean = (actual, want) match {
    case (null, NullValue) => true
    case (null, _) | (_, NullValue) => false
    case (a, Token(x)) => t.name match {
        case "i8" | "i16" | "i32" | "i64" => integral(a).contains(new JBigDecimal(x).longValueExact())
        case "fp32" => floating(a).exists(d => close(d, TestValues.float(x), 1e-6))
        case "fp64" => floating(a).exists(d => close(d, TestValues.float(x), 1e-12))
        case "dec" => a match {
            case d: JBigDecimal => d.compareTo(new JBigDecimal(x)) == 0
            case d: scala.math.BigDecimal => d.bigDecimal.compareTo(new JBigDecimal(x)) == 0
            case _ => false
          }
        case "bool" => a == x.toBoolean
        case "date" => a == LocalDate.parse(x)
        case "pts" => a == LocalDateTime.parse(x.takeWhile(_ != 'Z'))
        case "ptstz" => a match {
            case i: Instant => i ==
                (if (x.length > 19 && !x.endsWith("Z") && x.lastIndexOf('-') < 10 && x.lastIndexOf('+') < 0)
                   LocalDateTime.parse(x).toInstant(ZoneOffset.UTC)
                 else if (x.length == 19) LocalDateTime.parse(x).toInstant(ZoneOffset.UTC)
                 else OffsetDateTime.parse(x).toInstant)
            case _ => false
          }
        case "pt" => a == LocalTime.parse(x)
        case "iyear" => a match {
            case p: Period => val (y, m) = Durations.yearMonth(x); p.toTotalMonths == y * 12L + m
            case _ => false
          }
        case "iday" => a match {
            case d: Duration =>
              val (days, s, n) = Durations.daySecond(x); d == Duration.ofDays(days).plusSeconds(s).plusNanos(n)
            case _ => false
          }
        case _ => false
      }
    case (a, StructValue(Seq(QuotedString(s)))) if t.name.startsWith("u!") => unsignedValue(a).contains(BigInt(s))
    case (a, QuotedString(s)) if t.name.startsWith("u!") => unsignedValue(a).contains(BigInt(s))
    case (a: String, QuotedString(s)) => a == s
    case (a: Array[Byte], QuotedString(s)) => a.sameElements(s.getBytes("UTF-8"))
    case (a: scala.collection.Seq[_], ListValue(items)) =>
      val elem = t.params.collectFirst { case TypeParam(e) => e }
      elem.exists(e => a.size == items.size && a.zip(items).forall { case (x, y) => same(x, y, e) })
    case (a: Row, StructValue(items)) =>
      val types = t.params.collect { case TypeParam(e) => e }
      a.size == items.size && types.size == items.size && items.indices.forall(i => same(a.get(i), items(i), types(i)))
    case (a: scala.collection.Map[_, _], MapValue(entries)) =>
      val types = t.params.collect { case TypeParam(e) => e }
      types.size == 2 && a.size == entries.size && entries.forall { case (k, v) =>
        a.exists { case (ak, av) => same(ak, k, types(0)) && same(av, v, types(1)) }
      }
    case _ => false
  }

  /** Unsigned integers come back in the wider signed type that holds them. */
  private def unsignedValue(a: Any): Option[BigInt] = a match {
    case d: JBigDecimal => scala.util.Try(BigInt(d.toBigIntegerExact)).toOption
    case other => integral(other).map(BigInt(_))
  }

  private def integral(a: Any): Option[Long] = a match {
    case b: java.lang.Byte => Some(b.longValue)
    case s: java.lang.Short => Some(s.longValue)
    case i: java.lang.Integer => Some(i.longValue)
    case l: java.lang.Long => Some(l.longValue)
    case _ => None
  }

  private def floating(a: Any): Option[Double] = a match {
    case f: java.lang.Float => Some(f.doubleValue)
    case d: java.lang.Double => Some(d.doubleValue)
    case _ => None
  }

  /**
   * Floating results match to a relative 1e-12 (fp64) or 1e-6 (fp32): the expected values
   * are decimal renderings, and libm implementations differ in the last bits.
   */
  private def close(actual: Double, want: Double, relative: Double): Boolean =
    if (want.isNaN) actual.isNaN
    else if (want.isInfinite || actual.isInfinite) actual == want
    else actual == want || math.abs(actual - want) <= relative * math.max(math.abs(want), math.abs(actual))

  def render(v: Any): String = v match {
    case null | NullValue => "null"
    case Token(x) => x
    case QuotedString(s) => s"'$s'"
    case ListValue(items) => items.map(render).mkString("[", ", ", "]")
    case StructValue(items) => items.map(render).mkString("(", ", ", ")")
    case MapValue(es) => es.map { case (k, x) => s"${render(k)}: ${render(x)}" }.mkString("{", ", ", "}")
    case s: String => s"'$s'"
    case b: Array[Byte] => b.map("%02x".format(_)).mkString("0x", "", "")
    case s: scala.collection.Seq[_] => s.map(render).mkString("[", ", ", "]")
    case other => other.toString
  }
}
