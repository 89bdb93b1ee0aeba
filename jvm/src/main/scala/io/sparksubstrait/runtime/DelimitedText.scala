package io.sparksubstrait.runtime

import org.apache.spark.sql.catalyst.util.{ArrayData, GenericArrayData}
import org.apache.spark.unsafe.types.UTF8String

/** Holds the static forwarders of [[DelimitedText$]] that generated code calls. */
final class DelimitedText private ()

/**
 * The fields of one line of delimiter-separated text as the spec reads it, called from
 * generated code through StaticInvoke (NULL lines never reach it). The escape makes the
 * character after it literal anywhere in the line, inside quotes or not (Spark's CSV reader
 * honours it inside quotes only); inside quotes the delimiter is literal and a doubled quote
 * is one quote; quotes themselves are not part of the value.
 */
object DelimitedText {
  def split(line: UTF8String, delimiter: UTF8String, quote: UTF8String, escape: UTF8String, fields: Int): ArrayData = {
    val s = line.toString
    val (d, q, e) = (delimiter.toString, quote.toString, escape.toString)
    val out = new Array[UTF8String](fields)
    var count = 0
    val current = new java.lang.StringBuilder
    def endField(): Unit = {
      if (count == fields) throw malformed(s, s"more than $fields fields", fields)
      out(count) = UTF8String.fromString(current.toString)
      count += 1
      current.setLength(0)
    }
    var i = 0
    var quoted = false
    while (i < s.length) {
      if (e.nonEmpty && e != q && s.startsWith(e, i)) {
        if (i + e.length >= s.length) throw malformed(s, "an escape at its end", fields)
        val cp = s.codePointAt(i + e.length)
        current.appendCodePoint(cp)
        i += e.length + Character.charCount(cp)
      } else if (q.nonEmpty && s.startsWith(q, i)) {
        if (quoted && s.startsWith(q, i + q.length)) { current.append(q); i += 2 * q.length }
        else { quoted = !quoted; i += q.length }
      } else if (!quoted && s.startsWith(d, i)) {
        endField()
        i += d.length
      } else {
        current.append(s.charAt(i))
        i += 1
      }
    }
    if (quoted) throw malformed(s, "a quote that is not closed", fields)
    endField()
    if (count != fields) throw malformed(s, s"$count fields", fields)
    new GenericArrayData(out.asInstanceOf[Array[Any]])
  }

  private def malformed(line: String, found: String, fields: Int): IllegalArgumentException =
    new IllegalArgumentException(s"delimiter-separated text: a line with $found, where the plan's base_schema has " +
      s"$fields columns: '${line.take(200)}'")
}
