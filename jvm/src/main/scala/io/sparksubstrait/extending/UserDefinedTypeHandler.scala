package io.sparksubstrait.extending

import org.apache.spark.sql.types.DataType

/**
 * Public API (docs/extending.md): a user-defined type of a plan, held in a Spark type.
 * Registered by class name in the session setting `spark.substrait.userDefinedTypes` (a
 * comma list; a class with a no-argument constructor, or a Scala object); one instance
 * serves every session and thread.
 *
 * A plan declares a user-defined type by its extension's URN and its name
 * (`SimpleExtensionDeclaration.ExtensionType`); columns and literals of that type are then
 * read as [[sparkType]]. The spec's unsigned integers (`extension:io.substrait:unsigned_integers`)
 * are built in and cannot be replaced.
 */
trait UserDefinedTypeHandler {

  /** The URN of the extension declaring the type, e.g. `extension:org.example:finance`. */
  def urn: String

  /** The type's name in that extension, e.g. `money`. */
  def name: String

  /** The Spark type holding its values: any Spark type, a `UserDefinedType` of your own too. */
  def sparkType: DataType

  /**
   * A literal of the type, given as a `google.protobuf.Any` (`Literal.UserDefined.value`):
   * its value as a `Row` of [[sparkType]] would hold it (a `String`, a `java.math.BigDecimal`,
   * a `Row` for a struct, your class for a `UserDefinedType`, …), or null for NULL.
   *
   * @throws Exception any, to refuse the literal: the reader raises the project's error
   *                   SUBSTRAIT_EXTENSION_FAILED naming this handler and the literal's place
   */
  def literal(typeUrl: String, payload: Array[Byte]): Any

  /**
   * A literal given in the struct form (`Literal.UserDefined.struct`): its fields' values as a
   * `Row` holds them (`String`, `java.lang.Long`, …, null for NULL), in order; the value as
   * for [[literal]]. None (the default): the type has no struct form, and such a literal is
   * refused.
   */
  def structLiteral(fields: Seq[Any]): Option[Any] = None
}
