package com.google.protobuf.util

/**
 * JsonFormat's parser stops at 100 nested messages and its setter for that limit is
 * package-private; this object lives in protobuf's package to reach it (relocated with
 * protobuf in the jar), so JSON plans get the same depth limit as binary ones.
 */
object JsonParsers {
  def withRecursionLimit(limit: Int): JsonFormat.Parser = JsonFormat.parser().usingRecursionLimit(limit)
}
