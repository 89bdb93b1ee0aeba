package io.sparksubstrait
package extending

import java.math.BigDecimal

import com.google.protobuf.{Any => ProtoAny, StringValue}
import org.apache.spark.sql.Row

import io.sparksubstrait.extending.examples.{MoneyType, WrongValueMoney}
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * User-defined types held by the session's handlers (docs/extending.md): `money` of
 * `examples/MoneyType` in literals (a payload, the struct form, NULL) and in a table's column,
 * rows checked against Spark SQL; the built-in unsigned integers unchanged; and the errors of
 * an unregistered type, a handler that fails and a setting that names no handler.
 */
class UserDefinedTypesSuite extends SparkSuite with SubstraitAssertions {
  private val Key = UserDefinedTypes.Key
  private val Money = MoneyType.getClass.getName.stripSuffix("$")

  private def money(text: String) = ProtoAny.pack(StringValue.of(text))

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("CREATE OR REPLACE TEMP VIEW accounts AS SELECT id, CAST(balance AS DECIMAL(18, 2)) AS balance " +
      "FROM VALUES (1, 10.00), (2, 25.50), (3, 25.50), (4, NULL), (5, 3.05), (6, -7.25) AS t(id, balance)")
  }

  /** A one-row plan projecting `literals` (after the input's column, which the emit drops). */
  private def literals(b: PlanBuilder, values: io.sparksubstrait.proto.Expression*) = {
    val one = readVirtual(schema("x" -> i32()), Seq(Seq(litI32(1))))
    b.plan(emit(project(one, values: _*), values.indices.map(_ + 1): _*), values.indices.map(i => s"m$i"): _*)
  }

  test("literals of a registered type: from a payload, in the struct form, and NULL of the type") {
    withConf(Key, Money) {
      val b = new PlanBuilder()
      val t = b.userType(MoneyType.Urn, "money")
      val plan = literals(b, litUserDefined(t, money("12.34")), litUserDefined(t, money("-0.5")),
        litUserDefinedStruct(t, litI64(3), litI32(5)), litNull(userDefined(t)))
      val df = run(plan)
      assert(df.schema.map(_.dataType.simpleString) == Seq.fill(4)("decimal(18,2)"), df.schema)
      assertRows(df, Seq(Row(new BigDecimal("12.34"), new BigDecimal("-0.50"), new BigDecimal("3.05"), null)))
    }
  }

  test("a column of a registered type: a table's column read as it, NULLs and duplicates, compared with a literal") {
    withConf(Key, Money) {
      val b = new PlanBuilder()
      val t = b.userType(MoneyType.Urn, "money")
      val accounts = readNamed(schema("id" -> i32(), "balance" -> userDefined(t)), "accounts")
      val rich = filter(accounts,
        b.call(b.fn("functions_comparison", "gte:any_any"), field(1),
          litUserDefined(t, money("10.00"))))
      assertSameRows(run(b.plan(rich, "id", "balance")), spark.sql("SELECT * FROM accounts WHERE balance >= 10.00"))
      assertSameRows(run(b.plan(accounts, "id", "balance")), spark.sql("SELECT * FROM accounts"))
      // A virtual table of the type: its values are the type's literals.
      val inline = readVirtual(schema("balance" -> userDefined(t)),
        Seq(Seq(litUserDefined(t, money("1.10"))), Seq(litUserDefined(t, money("1.10"))), Seq(litNull(userDefined(t)))))
      assertRows(run(b.plan(inline, "balance")),
        Seq(Row(new BigDecimal("1.10")), Row(new BigDecimal("1.10")), Row(null)))
    }
  }

  test("the spec's unsigned integers stay built in whatever the setting") {
    withConf(Key, Money) {
      val b = new PlanBuilder()
      val u8 = b.userType("extension:io.substrait:unsigned_integers", "u8")
      assertRows(run(literals(b, litUserDefinedStruct(u8, litString("255")))), Seq(Row(255.toShort)))
    }
  }

  test("an unregistered type is refused naming how to register a handler; a failing handler is its error") {
    val at = "relations[0].root.input.project.expressions[0].literal.user_defined"
    def plan(value: ProtoAny) = {
      val b = new PlanBuilder()
      literals(b, litUserDefined(b.userType(MoneyType.Urn, "money"), value))
    }
    val unregistered = assertPlanError("SUBSTRAIT_UNSUPPORTED_FEATURE", at)(run(plan(money("1"))))
    Seq("money of extension:org.example:finance", Key, "docs/extending.md", "none is registered").foreach(s =>
      assert(unregistered.getMessage.contains(s), unregistered.getMessage))
    withConf(Key, Money) {
      val notNumber = assertPlanError("SUBSTRAIT_EXTENSION_FAILED", at)(run(plan(money("twelve"))))
      assert(notNumber.getMessage.contains(s"$Money failed reading a literal of money: NumberFormatException"),
        notNumber.getMessage)
      val moreDigits = assertPlanError("SUBSTRAIT_EXTENSION_FAILED", at)(run(plan(money("1.005"))))
      assert(moreDigits.getMessage.contains("ArithmeticException"), moreDigits.getMessage)
      val otherUrl = assertPlanError("SUBSTRAIT_EXTENSION_FAILED", at)(run(plan(ProtoAny.pack(
              com.google.protobuf.Int64Value.of(1)))))
      assert(otherUrl.getMessage.contains("a money literal is a"), otherUrl.getMessage)
    }
    withConf(Key, WrongValueMoney.getClass.getName) {
      val wrong = assertPlanError("SUBSTRAIT_EXTENSION_FAILED", at)(run(plan(money("1"))))
      assert(wrong.getMessage.contains("examples.WrongValueMoney"), wrong.getMessage)
    }
    withConf(Key, s"$Money,${WrongValueMoney.getClass.getName}") {
      val twice = assertPlanError("SUBSTRAIT_INVALID_SETTING", at)(run(plan(money("1"))))
      assert(twice.getMessage.contains("money of extension:org.example:finance is held by"), twice.getMessage)
    }
    withConf(Key, "java.lang.Object") {
      val notHandler = assertPlanError("SUBSTRAIT_INVALID_SETTING", at)(run(plan(money("1"))))
      assert(notHandler.getMessage.contains("not a UserDefinedTypeHandler"), notHandler.getMessage)
    }
  }
}
