package io.sparksubstrait
package convert.expr

import io.sparksubstrait.proto.Expression.Cast.FailureBehavior._

import org.apache.spark.sql.Row

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/** Literals of every supported type, typed NULLs, and casts, against the same values written in Spark SQL. */
class LiteralsSuite extends SparkSuite with SubstraitAssertions {
  private def one(exprs: io.sparksubstrait.proto.Expression*) = {
    val vt = readVirtual(schema("z" -> i32()), Seq(Seq(litI32(0))))
    new PlanBuilder().plan(emit(project(vt, exprs: _*), exprs.indices.map(_ + 1): _*),
      exprs.indices.map(i => s"c$i"): _*)
  }

  /** Same values and same Spark types as the SQL expressions. */
  private def assertLike(sql: String, exprs: io.sparksubstrait.proto.Expression*): Unit = {
    val expected = spark.sql(s"SELECT $sql")
    val actual = run(one(exprs: _*))
    assert(actual.schema.map(_.dataType) == expected.schema.map(_.dataType), s"${actual.schema} vs ${expected.schema}")
    assertSameRows(actual, expected)
  }

  test("boolean, integers and floating point") {
    assertLike(
      "true, CAST(-5 AS TINYINT), CAST(300 AS SMALLINT), -70000, 9000000000L, CAST(1.5 AS FLOAT), CAST(-0.25 AS DOUBLE)",
      litBool(true), litI8(-5), litI16(300), litI32(-70000), litI64(9000000000L), litFp32(1.5f), litFp64(-0.25))
    assertLike("CAST('NaN' AS DOUBLE), CAST('Infinity' AS DOUBLE)", litFp64(Double.NaN),
      litFp64(Double.PositiveInfinity))
  }

  test("decimals: positive, negative, zero scale, 38 digits") {
    assertLike(
      "CAST(12345.67 AS DECIMAL(7,2)), CAST(-0.05 AS DECIMAL(15,2)), CAST(42 AS DECIMAL(20,0)), " +
        "CAST('-12345678901234567890123456789012345.678' AS DECIMAL(38,3))",
      litDecimal(new java.math.BigDecimal("12345.67"), 7, 2), litDecimal(new java.math.BigDecimal("-0.05"), 15, 2),
      litDecimal(new java.math.BigDecimal("42"), 20, 0),
      litDecimal(new java.math.BigDecimal("-12345678901234567890123456789012345.678"), 38, 3))
  }

  test("decimals of up to 18 digits are held as unscaled longs, as a column read from a file is") {
    // Spark's Decimal compares two long-held values as longs and otherwise as BigDecimals, an
    // allocation per row: a filter on a literal of the BigDecimal form ran 60% more CPU.
    val values = Seq(("999999999999999999", 18, 0), ("-0.000000000000000001", 18, 18), ("12345.67", 7, 2),
      ("-9999999999999999999", 19, 0), ("0.5", 38, 1))
    val literals = values.map { case (v, p, s) => litDecimal(new java.math.BigDecimal(v), p, s) }
    val plan = one(literals: _*)
    val held = run(plan).queryExecution.analyzed.collect {
      case p: org.apache.spark.sql.catalyst.plans.logical.Project =>
        p.expressions.flatMap(_.collect {
          case org.apache.spark.sql.catalyst.expressions.Literal(d: org.apache.spark.sql.types.Decimal, _) =>
            d.toDebugString.takeWhile(_ != ',')
        })
    }.flatten
    assert(held == Seq("Decimal(compact", "Decimal(compact", "Decimal(compact", "Decimal(expanded", "Decimal(expanded"))
    assertLike(
      "CAST(999999999999999999 AS DECIMAL(18,0)), CAST(-0.000000000000000001 AS DECIMAL(18,18)), " +
        "CAST(12345.67 AS DECIMAL(7,2)), CAST(-9999999999999999999 AS DECIMAL(19,0)), CAST(0.5 AS DECIMAL(38,1))",
      literals: _*)
  }

  test("strings, varchar, fixedchar, binary") {
    assertLike("'héllo ☃', 'ab', 'xyz ', X'00FF10', ''",
      litString("héllo ☃"), litVarchar("ab", 10), litFixedChar("xyz "), litBinary(Array[Byte](0, -1, 16)),
      litString(""))
  }

  test("date and timestamps at every precision Spark holds") {
    assertLike(
      "DATE '1994-01-01', DATE '1969-12-31', TIMESTAMP_NTZ '2020-02-29 12:34:56.789', TIMESTAMP_NTZ '1960-01-01 00:00:00.000001'",
      litDate(8766), litDate(-1), litPrecisionTimestamp(1582979696789L, 3), litPrecisionTimestamp(-315619199999999L, 6))
    assertLike("TIMESTAMP_NTZ '2020-02-29 12:34:56'", litPrecisionTimestamp(1582979696L, 0))
    // Nanoseconds that are whole microseconds are exact; others cannot be held.
    assertLike("TIMESTAMP_NTZ '2020-02-29 12:34:56.000001'", litPrecisionTimestamp(1582979696000001000L, 9))
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.project.expressions[0].literal.precision_timestamp") {
      run(one(litPrecisionTimestamp(1582979696000000001L, 9)))
    }
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    assertLike("TIMESTAMP '2020-02-29 12:34:56.5 UTC'", litPrecisionTimestampTz(15829796965L, 1))
  }

  test("intervals") {
    assertLike("INTERVAL '1-2' YEAR TO MONTH, INTERVAL '3 04:05:06.5' DAY TO SECOND",
      litIntervalYear(1, 2), litIntervalDay(3, 4 * 3600 + 5 * 60 + 6, 500, 3))
  }

  test("typed NULLs") {
    assertLike(
      "CAST(NULL AS BOOLEAN), CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(9,3)), " +
        "CAST(NULL AS STRING), CAST(NULL AS DATE), CAST(NULL AS BINARY)",
      litNull(bool()), litNull(i32()), litNull(i64()), litNull(fp64()), litNull(decimal(9, 3)), litNull(string()),
      litNull(date()), litNull(binary()))
  }

  test("cast: widening, parsing, failure behaviours") {
    assertLike(
      "CAST(7 AS BIGINT), CAST('12' AS INT), CAST(CAST(2.5 AS DECIMAL(3,1)) AS DOUBLE), CAST(DATE '1994-01-01' AS STRING)",
      cast(litI32(7), i64()), cast(litString("12"), i32()),
      cast(litDecimal(new java.math.BigDecimal("2.5"), 3, 1), fp64()),
      cast(litDate(8766), string()))
    assertLike("TRY_CAST('abc' AS INT)", cast(litString("abc"), i32(), FAILURE_BEHAVIOR_RETURN_NULL))
    val thrown =
      intercept[Exception](run(one(cast(litString("abc"), i32(), FAILURE_BEHAVIOR_THROW_EXCEPTION))).collect())
    assert(thrown.getMessage.contains("CAST_INVALID_INPUT"), thrown.getMessage)
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", "relations[0].root.input.project.expressions[0].cast") {
      run(one(cast(litDate(1), bool())))
    }
  }

  test("type variations and out-of-range values are refused") {
    val i8 = io.sparksubstrait.proto.Expression.newBuilder().setLiteral(
      io.sparksubstrait.proto.Expression.Literal.newBuilder().setI8(300)).build()
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].literal.i8") {
      run(one(i8))
    }
    val variation = io.sparksubstrait.proto.Expression.newBuilder().setLiteral(
      io.sparksubstrait.proto.Expression.Literal.newBuilder().setI32(1).setTypeVariationReference(7)).build()
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.project.expressions[0].literal.type_variation_reference") {
      run(one(variation))
    }
  }

  /** A plan declaring user-defined type anchor 1 as `name` of `urn`, projecting `literal`. */
  private def withUserType(urn: String, name: String, literal: io.sparksubstrait.proto.Expression) = {
    val p = one(literal).toBuilder
    p.addExtensionUrns(io.sparksubstrait.proto.SimpleExtensionURN.newBuilder().setUrn(urn).setExtensionUrnAnchor(9))
    p.addExtensions(io.sparksubstrait.proto.SimpleExtensionDeclaration.newBuilder().setExtensionType(
        io.sparksubstrait.proto.SimpleExtensionDeclaration.ExtensionType.newBuilder().setExtensionUrnReference(
          9).setTypeAnchor(1).setName(name)))
    p.build()
  }
  private def userLiteral(digits: String) = io.sparksubstrait.proto.Expression.newBuilder().setLiteral(
    io.sparksubstrait.proto.Expression.Literal.newBuilder().setUserDefined(
      io.sparksubstrait.proto.Expression.Literal.UserDefined.newBuilder()
        .setTypeReference(1).setStruct(io.sparksubstrait.proto.Expression.Literal.Struct.newBuilder()
            .addFields(io.sparksubstrait.proto.Expression.Literal.newBuilder().setString(digits))))).build()

  test("unsigned integer literals are exact in the wider type; out of range and other user-defined types are errors") {
    val unsigned = "extension:io.substrait:unsigned_integers"
    assertRows(run(withUserType(unsigned, "u8", userLiteral("255"))), Seq(Row(255.toShort)))
    assertRows(run(withUserType(unsigned, "u64", userLiteral("18446744073709551615"))),
      Seq(Row(new java.math.BigDecimal("18446744073709551615"))))
    assertPlanError("SUBSTRAIT_INVALID_PLAN", "relations[0].root.input.project.expressions[0].literal.user_defined") {
      run(withUserType(unsigned, "u8", userLiteral("256")))
    }
    assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE",
      "relations[0].root.input.project.expressions[0].literal.user_defined") {
      run(withUserType("extension:example:geo", "point", userLiteral("1")))
    }
  }
}
