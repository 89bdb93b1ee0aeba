package io.sparksubstrait
package convert.functions

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.catalyst.expressions.CaseWhen
import org.apache.spark.sql.types.{DoubleType, FloatType, StructField, StructType}

import io.sparksubstrait.errors.SubstraitFunctionException
import io.sparksubstrait.runtime.FloatingQuotient
import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * fp32 and fp64 divide under on_domain_error NAN (the default) and IEEE rounding, one
 * expression per quotient (FloatingQuotient): every pair of edge values (NULL, ±0, NaN, ±∞,
 * subnormal, the largest value, ordinary values) under each on_division_by_zero, in generated
 * code over Parquet and interpreted, against the answers the YAML's words give.
 */
class FloatingQuotientSuite extends SparkSuite with SubstraitAssertions {
  private val Edges: Seq[java.lang.Double] = Seq[java.lang.Double](null, 0.0, -0.0, Double.NaN,
    Double.PositiveInfinity, Double.NegativeInfinity, Double.MinPositiveValue, Double.MaxValue, -1.5, 3.0, 7.25)
  private val FloatEdges: Seq[java.lang.Float] = Seq[java.lang.Float](null, 0f, -0f, Float.NaN, Float.PositiveInfinity,
    Float.NegativeInfinity, Float.MinPositiveValue, Float.MaxValue, -1.5f, 3f, 7.25f)

  /** Every pair of edge values as (x, y) doubles and (fx, fy) floats, in Parquet. */
  private lazy val table: String = {
    val rows = for (i <- Edges.indices; j <- Edges.indices) yield Row(Edges(i), Edges(j), FloatEdges(i), FloatEdges(j))
    val schema = StructType(Seq("x" -> DoubleType, "y" -> DoubleType, "fx" -> FloatType, "fy" -> FloatType).map {
      case (n, t) => StructField(n, t)
    })
    val dir = tempDir("floating").toString + "/t"
    spark.createDataFrame(rows.asJava, schema).write.parquet(dir)
    spark.read.parquet(dir).createOrReplaceTempView("edges")
    "edges"
  }

  /** x / y of each pair (fx / fy when `single`), output columns x, y, q. */
  private def quotients(byZero: String, single: Boolean, domain: String = "NAN"): DataFrame = {
    val pb = new PlanBuilder()
    val (t, sig) = if (single) (fp32(), "divide:fp32_fp32") else (fp64(), "divide:fp64_fp64")
    val (a, b) = if (single) (2, 3) else (0, 1)
    val call = pb.callWith(pb.fn("functions_arithmetic", sig),
      Seq("on_division_by_zero" -> Seq(byZero), "on_domain_error" -> Seq(domain)), None,
      field(a), field(b))
    val read = readNamed(schema("x" -> fp64(), "y" -> fp64(), "fx" -> fp32(), "fy" -> fp32()), table)
    run(pb.plan(emit(project(read, call), a, b, 4), "x", "y", "q"))
  }

  /** The YAML's answer: NULL for a NULL operand; a zero divisor under a dividend that is not NaN takes the option's. */
  private def expected(x: Any, y: Any, byZero: String): Any = {
    def zero(ieee: Any, limit: Any): Any = Map("IEEE" -> ieee, "LIMIT" -> limit, "NULL" -> null)(byZero)
    (x, y) match {
      case (null, _) | (_, null) => null
      case (a: Double, b: Double) =>
        if (b != 0.0 || a.isNaN) a / b
        else zero(a / b, Math.copySign(Double.PositiveInfinity, a) * Math.copySign(1.0, b))
      case (a: Float, b: Float) =>
        if (b != 0f || a.isNaN) a / b else zero(a / b, Math.copySign(Float.PositiveInfinity, a) * Math.copySign(1f, b))
    }
  }

  /** Equal as the bits say: NaN equals NaN, -0.0 differs from 0.0. */
  private def same(a: Any, b: Any): Boolean = (a, b) match {
    case (x: Double, y: Double) => java.lang.Double.doubleToLongBits(x) == java.lang.Double.doubleToLongBits(y)
    case (x: Float, y: Float) => java.lang.Float.floatToIntBits(x) == java.lang.Float.floatToIntBits(y)
    case _ => a == b
  }

  private def check(byZero: String, single: Boolean): Unit = {
    val df = quotients(byZero, single)
    assert(df.queryExecution.executedPlan.toString.contains("*("), df.queryExecution.executedPlan)
    val rows = df.collect()
    assert(rows.length == Edges.size * Edges.size)
    rows.foreach(r => assert(same(r.get(2), expected(r.get(0), r.get(1), byZero)), s"$byZero single=$single: $r"))
  }

  for (byZero <- Seq("IEEE", "LIMIT", "NULL"); single <- Seq(false, true))
    test(s"${if (single) "fp32" else "fp64"} divide, on_division_by_zero $byZero: every pair of edge values, " +
      "generated code and interpreted") {
      check(byZero, single)
      withConf("spark.sql.codegen.wholeStage", "false") {
        withConf("spark.sql.codegen.factoryMode", "NO_CODEGEN") {
          val rows = quotients(byZero, single).collect()
          rows.foreach(r => assert(same(r.get(2), expected(r.get(0), r.get(1), byZero)), s"interpreted: $r"))
        }
      }
    }

  test(
    "on_division_by_zero ERROR: our error for a zero divisor, generated and interpreted; NaN / 0 and NULL / 0 none") {
    for (single <- Seq(false, true); codegen <- Seq("CODEGEN_ONLY", "NO_CODEGEN")) {
      withConf("spark.sql.codegen.factoryMode", codegen) {
        val e = intercept[Exception](quotients("ERROR", single).collect())
        assert(causes(e).exists {
            case f: SubstraitFunctionException => f.getCondition == "SUBSTRAIT_DIVISION_BY_ZERO"
            case _ => false
          }, e)
        // The same rows filtered before the quotient (the filter goes below the projection).
        val quiet = quotients("ERROR", single).where("y IS NULL OR y <> 0 OR isnan(x) OR x IS NULL").collect()
        val (x, y) = if (single) ("fx", "fy") else ("x", "y")
        assert(quiet.length == spark.table(table).where(s"$y IS NULL OR $y <> 0 OR isnan($x) OR $x IS NULL").count())
        quiet.foreach(r => assert(same(r.get(2), expected(r.get(0), r.get(1), "IEEE")), r))
      }
    }
  }

  test("one expression: no CASE around the quotient under NAN options; a CASE under on_domain_error NULL") {
    def expressions(df: DataFrame) = df.queryExecution.analyzed.flatMap(_.expressions.flatMap(_.collect { case e =>
      e
    }))
    val plain = expressions(quotients("NULL", single = false))
    assert(plain.exists(_.isInstanceOf[FloatingQuotient]) && !plain.exists(_.isInstanceOf[CaseWhen]), plain)
    val withDomain = expressions(quotients("NULL", single = false, domain = "NULL"))
    assert(!withDomain.exists(_.isInstanceOf[FloatingQuotient]) && withDomain.exists(_.isInstanceOf[CaseWhen]))
  }
}
