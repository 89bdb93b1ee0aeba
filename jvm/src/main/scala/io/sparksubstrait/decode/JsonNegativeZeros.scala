package io.sparksubstrait.decode

import scala.jdk.CollectionConverters._

import com.google.gson.{JsonElement, JsonParser}
import com.google.protobuf.Descriptors.FieldDescriptor
import com.google.protobuf.Descriptors.FieldDescriptor.JavaType
import com.google.protobuf.Message

/**
 * protobuf's JsonFormat reads a double through `BigDecimal`, which has no negative zero, so a
 * JSON `-0.0` (an fp64 literal, a bound) would arrive as `0.0` and change results
 * (`coalesce(-0.0, …)`, `1 / -0.0`). The binary encoding keeps the sign; this puts it back for
 * JSON plans: the JSON text is searched for negative zeros and, only when it holds one, walked
 * beside the parsed message to set those fields to -0.0 again. (floats are read through
 * `Double.parseDouble`, which keeps the sign.)
 */
private[sparksubstrait] object JsonNegativeZeros {

  /** A JSON number that is zero with a minus sign: -0, -0.0, -0e5, -0.000E-2. */
  private val NegativeZero = """-0(?:\.0*)?(?:[eE][+-]?\d+)?""".r
  private val Candidate = """(?<![\w.])-0(?:\.0*)?(?:[eE][+-]?\d+)?(?![\w.])""".r

  def restore(text: String, builder: Message.Builder): Unit =
    if (text.indexOf("-0") >= 0 && Candidate.findFirstIn(text).isDefined) walk(JsonParser.parseString(text), builder)

  private def isNegativeZero(e: JsonElement): Boolean =
    e.isJsonPrimitive && e.getAsJsonPrimitive.isNumber && NegativeZero.pattern.matcher(e.getAsString).matches()

  private def walk(json: JsonElement, builder: Message.Builder): Unit = if (json.isJsonObject) {
    val descriptor = builder.getDescriptorForType
    // Any and the other well-known types have JSON forms of their own: no literal lives there.
    if (descriptor.getFullName.startsWith("google.protobuf.")) return
    for (entry <- json.getAsJsonObject.entrySet().asScala) {
      val field = Option(descriptor.findFieldByName(entry.getKey))
        .orElse(descriptor.getFields.asScala.find(_.getJsonName == entry.getKey))
      field.filterNot(_.isMapField).foreach(f => visit(f, entry.getValue, builder))
    }
  }

  private def visit(field: FieldDescriptor, value: JsonElement, builder: Message.Builder): Unit =
    (field.getJavaType, field.isRepeated) match {
      case (JavaType.MESSAGE, false) => walk(value, builder.getFieldBuilder(field))
      case (JavaType.MESSAGE, true) if value.isJsonArray =>
        value.getAsJsonArray.asScala.zipWithIndex.foreach { case (v, i) =>
          walk(v, builder.getRepeatedFieldBuilder(field, i))
        }
      case (JavaType.DOUBLE, false) if isNegativeZero(value) => builder.setField(field, -0.0d)
      case (JavaType.DOUBLE, true) if value.isJsonArray =>
        value.getAsJsonArray.asScala.zipWithIndex.foreach { case (v, i) =>
          if (isNegativeZero(v)) builder.setRepeatedField(field, i, -0.0d)
        }
      case _ =>
    }
}
