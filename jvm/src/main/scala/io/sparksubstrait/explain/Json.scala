package io.sparksubstrait.explain

/**
 * The few JSON values the explain output needs, written by hand: the output is small, and
 * a writer of our own keeps the explain format free of the JSON library versions that
 * differ between Spark builds.
 */
private[explain] object Json {
  sealed trait Value
  final case class Str(s: String) extends Value
  final case class Num(n: Long) extends Value
  final case class Bool(b: Boolean) extends Value
  case object Null extends Value
  final case class Arr(items: Seq[Value]) extends Value

  /** Fields in the order given (readers see them as written). */
  final case class Obj(fields: Seq[(String, Value)]) extends Value

  def str(s: Option[String]): Value = s.map(Str(_)).getOrElse(Null)
  def strs(ss: Seq[String]): Value = Arr(ss.map(Str(_)))
  def nums(ns: Seq[Int]): Value = Arr(ns.map(n => Num(n.toLong)))

  def write(v: Value): String = {
    val out = new java.lang.StringBuilder
    writeTo(v, out)
    out.toString
  }

  private def writeTo(v: Value, out: java.lang.StringBuilder): Unit = v match {
    case Str(s) => quote(s, out)
    case Num(n) => out.append(n)
    case Bool(b) => out.append(b)
    case Null => out.append("null")
    case Arr(items) =>
      out.append('[')
      items.zipWithIndex.foreach { case (item, i) => if (i > 0) out.append(','); writeTo(item, out) }
      out.append(']')
    case Obj(fields) =>
      out.append('{')
      fields.zipWithIndex.foreach { case ((k, item), i) =>
        if (i > 0) out.append(',')
        quote(k, out)
        out.append(':')
        writeTo(item, out)
      }
      out.append('}')
  }

  private def quote(s: String, out: java.lang.StringBuilder): Unit = {
    out.append('"')
    s.foreach {
      case '"' => out.append("\\\"")
      case '\\' => out.append("\\\\")
      case '\n' => out.append("\\n")
      case '\r' => out.append("\\r")
      case '\t' => out.append("\\t")
      case c if c < ' ' || c == '\u2028' || c == '\u2029' => out.append(f"\\u${c.toInt}%04x")
      case c => out.append(c)
    }
    out.append('"')
  }
}
