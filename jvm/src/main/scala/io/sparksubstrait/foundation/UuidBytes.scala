package io.sparksubstrait.foundation

import java.nio.ByteBuffer
import java.util.UUID

/**
 * Substrait's uuid as the 16 bytes Spark holds it in (convert/types/UuidType), read and
 * written by the type and by runtime/UuidText's casts alike.
 */
private[sparksubstrait] object UuidBytes {

  /** The uuid's 16 bytes, big-endian. */
  def of(u: UUID): Array[Byte] =
    ByteBuffer.allocate(16).putLong(u.getMostSignificantBits).putLong(u.getLeastSignificantBits).array()

  /** Big-endian: the first byte is the most significant, as the text form writes it. */
  def uuid(b: Array[Byte]): UUID = {
    require(b.length == 16, s"a uuid is 16 bytes, not ${b.length}")
    val buffer = ByteBuffer.wrap(b)
    new UUID(buffer.getLong, buffer.getLong)
  }
}
