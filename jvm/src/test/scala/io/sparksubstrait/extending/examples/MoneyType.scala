package io.sparksubstrait.extending.examples

import com.google.protobuf.StringValue
import org.apache.spark.sql.types.{DataType, DecimalType}

import io.sparksubstrait.extending.UserDefinedTypeHandler

/**
 * docs/extending.md's worked example of a user-defined type: `money` of
 * `extension:org.example:finance`, held as DECIMAL(18, 2). A literal is its decimal text in a
 * `google.protobuf.StringValue` (`12.34`), or in the struct form its whole units (i64) and
 * cents (i32). A value needing more than two decimals is refused, not rounded.
 */
object MoneyType extends UserDefinedTypeHandler {
  val Urn = "extension:org.example:finance"
  val StringValueUrl = "type.googleapis.com/google.protobuf.StringValue"

  override def urn: String = Urn
  override def name: String = "money"
  override def sparkType: DataType = DecimalType(18, 2)

  override def literal(typeUrl: String, payload: Array[Byte]): Any = {
    require(typeUrl == StringValueUrl, s"a money literal is a $StringValueUrl, not a $typeUrl")
    new java.math.BigDecimal(StringValue.parseFrom(payload).getValue).setScale(2)
  }

  override def structLiteral(fields: Seq[Any]): Option[Any] = fields match {
    case Seq(units: java.lang.Long, cents: java.lang.Integer) =>
      Some(java.math.BigDecimal.valueOf(units).add(java.math.BigDecimal.valueOf(cents.longValue, 2)))
    case other => throw new IllegalArgumentException(s"money's struct form is (units i64, cents i32), not $other")
  }
}
