package io.sparksubstrait.runtime

import java.util.regex.Pattern

import org.apache.spark.unsafe.types.UTF8String

import io.sparksubstrait.foundation.UuidBytes

/** Holds the static forwarders of [[UuidText$]] that generated code calls. */
final class UuidText private ()

/**
 * Casts between uuid and string, called from generated code through StaticInvoke (NULLs never
 * reach them). The text is the canonical 8-4-4-4-12 hexadecimal form, written in lower case
 * and read in either case; nothing else is a uuid (no braces, no missing hyphens).
 */
object UuidText {
  private val Canonical = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")

  /** Takes Object: StaticInvoke looks a uuid argument up by its user-defined type's class, Object (the value is its bytes). */
  def toText(bytes: AnyRef): UTF8String =
    UTF8String.fromString(UuidBytes.uuid(bytes.asInstanceOf[Array[Byte]]).toString)

  /** The uuid's 16 bytes; text of another form is NULL when `orNull`, else an error. */
  def parse(text: UTF8String, orNull: Boolean): Array[Byte] = {
    val s = text.toString
    if (Canonical.matcher(s).matches()) UuidBytes.of(java.util.UUID.fromString(s))
    else if (orNull) null
    else throw new IllegalArgumentException(
      s"cannot cast '$s' to uuid: expected the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hexadecimal digits)")
  }
}
