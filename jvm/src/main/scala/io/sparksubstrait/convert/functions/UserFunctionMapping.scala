package io.sparksubstrait.convert.functions

/**
 * One user function mapping: a function of a user's extension (URN and name, optionally one
 * signature) and what Spark calls for it. Mappings live in the session's SQL configuration
 * (`spark.substrait.function.<alias>.*`) or in mapping files it names; [[UserFunctions]]
 * reads them.
 *
 * @param alias     the configuration key's middle part (a mapping file's entries get
 *                  `file<N>_<name>`): how explain and errors name the mapping
 * @param urn       the extension's URN as the plan declares it (`extension:org.example:my_functions`)
 * @param name      the function's base name (`my_add`)
 * @param signature the compound name's argument part (`i64_i64` of `my_add:i64_i64`) when the
 *                  mapping is for that signature only
 */
private[sparksubstrait] final case class UserFunctionMapping(alias: String, urn: String, name: String,
  signature: Option[String], target: UserFunctionMapping.Target, source: String) {

  /** The compound name a plan must declare: the base name, with the signature when one is given. */
  def compoundName: String = signature.fold(name)(s => s"$name:$s")

  /** One line, as explain and `registeredFunctions` show it. */
  def describe: String = s"$urn#$compoundName -> ${target.describe} ($source)"
}

private[sparksubstrait] object UserFunctionMapping {
  sealed trait Target { def describe: String }

  /** A Spark function by name: a built-in, a session UDF, or a catalog function. */
  final case class SparkFunction(name: String) extends Target {
    def describe: String = s"spark function $name"
  }

  /** A SQL expression over the call's value arguments, `$1` … `$n`. */
  final case class SqlTemplate(sql: String) extends Target {
    def describe: String = s"sql `$sql`"
  }
}
