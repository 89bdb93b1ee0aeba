package io.sparksubstrait.convert.types

import org.apache.spark.sql.types.{DataType, DecimalType, IntegerType, LongType, ShortType}

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.extending.{UserDefinedTypeHandler, UserDefinedTypes}

/**
 * What converting a type or literal needs: the user-defined types the plan declares, and the
 * session's handlers for them (loaded when a plan first needs one; `at` is that place).
 */
private[sparksubstrait] final case class TypeEnv(userTypes: Map[Int, UserType] = Map.empty,
  registered: PlanPath => UserDefinedTypes = UserDefinedTypes.none)

/** A user-defined type declaration: its extension (canonical name, as for functions) and name. */
private[sparksubstrait] final case class UserType(extension: Option[String], name: String)

/** What a declared user-defined type is held as in Spark: a built-in unsigned integer or a handler's type. */
private[sparksubstrait] sealed trait HeldUserType {
  def sparkType: DataType
}

/** A user-defined type a session's handler holds (docs/extending.md). */
private[sparksubstrait] final case class HandledUserType(declared: UserType, handler: UserDefinedTypeHandler,
  sparkType: DataType) extends HeldUserType

/**
 * The unsigned integers of the `unsigned_integers` extension, held in the next wider
 * signed Spark type (u64 in DECIMAL(20,0)), so every value is exact. The functions of that
 * extension keep results within the unsigned range.
 */
private[sparksubstrait] object UnsignedTypes {
  val Extension = "unsigned_integers"

  final case class Unsigned(name: String, bits: Int, sparkType: DataType) extends HeldUserType {
    val max: BigInt = (BigInt(1) << bits) - 1
  }

  private val all = Seq(Unsigned("u8", 8, ShortType), Unsigned("u16", 16, IntegerType),
    Unsigned("u32", 32, LongType), Unsigned("u64", 64, DecimalType(20, 0)))

  def of(t: UserType): Option[Unsigned] =
    if (t.extension.contains(Extension)) all.find(_.name == t.name) else None

  /** The unsigned type a Spark type holds, for arguments of the extension's functions. */
  def holding(dt: DataType): Option[Unsigned] = all.find(_.sparkType == dt)
}
