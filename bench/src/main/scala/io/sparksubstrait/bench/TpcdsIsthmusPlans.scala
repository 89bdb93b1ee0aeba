package io.sparksubstrait.bench

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.types._

/**
 * isthmus 0.89.1's plans of the 99 TPC-DS queries (issue 34), written beside the other
 * producers' plans of a corpus bench/prepare.py --benchmark tpcds made:
 *
 *   plans/isthmus/qNN.bin         the plan
 *   plans/isthmus/failures.tsv    query, why isthmus made no plan (the error's first line)
 *
 * Calcite plans against a catalog, so the tables are declared from the corpus' parquet files
 * (their column types and nullability, as Spark reads their footers). Each query is planned as
 * DuckDB's text spells it after [[TpcdsIsthmusPlans.calciteSpelling]]'s mechanical dialect
 * changes, nothing else. Nothing is redone if failures.tsv exists.
 *
 * Arguments: --data DIR (the corpus: parquet/, queries/).
 */
object TpcdsIsthmusPlans {
  def main(args: Array[String]): Unit = {
    val data = Paths.get(Options(args)("data"))
    val out = data.resolve("plans").resolve("isthmus")
    val done = out.resolve("failures.tsv")
    if (Files.exists(done)) {
      println(s"TpcdsIsthmusPlans: $out is ready")
      return
    }
    Files.createDirectories(out)
    val spark = Options.session("tpcds-isthmus-plans")
    val ddl =
      try parquetFiles(data).map(p =>
          createTable(p.getFileName.toString.stripSuffix(".parquet"),
            spark.read.parquet(
              p.toString).schema))
      finally spark.stop()
    val queries = Files.list(data.resolve("queries")).iterator().asScala.filter(_.getFileName.toString.matches(
        "q\\d+\\.sql")).toSeq.sortBy(_.getFileName.toString)
    val failures = queries.flatMap { q =>
      val name = q.getFileName.toString.stripSuffix(".sql")
      val text = new String(Files.readAllBytes(q), StandardCharsets.UTF_8).trim.stripSuffix(";")
      val plan = attemptPlan(calciteSpelling(text), ddl)
      plan.foreach(p => Files.write(out.resolve(s"$name.bin"), p.toByteArray))
      println(s"isthmus $name: ${plan.fold(why => s"no plan: $why", _ => "planned")}")
      plan.left.toOption.map(why => s"${name.stripPrefix("q").toInt}\t${why.replace('\t', ' ')}\n")
    }
    Files.write(done, failures.mkString.getBytes(StandardCharsets.UTF_8))
    println(s"TpcdsIsthmusPlans: ${queries.size - failures.size} plans of ${queries.size}; failures in $done")
  }

  private def parquetFiles(data: Path): Seq[Path] =
    Files.list(data.resolve("parquet")).iterator().asScala.filter(_.toString.endsWith(".parquet")).toSeq.sorted

  /** A CREATE TABLE in Calcite's spelling (upper case: Calcite folds unquoted names so). */
  def createTable(table: String, schema: StructType): String = {
    val columns = schema.fields.map { f =>
      s"${f.name.toUpperCase} ${calciteType(f.dataType)}${if (f.nullable) "" else " NOT NULL"}"
    }
    s"CREATE TABLE ${table.toUpperCase} (${columns.mkString(", ")})"
  }

  private def calciteType(t: DataType): String = t match {
    case IntegerType => "INTEGER"
    case LongType => "BIGINT"
    case ShortType => "SMALLINT"
    case ByteType => "TINYINT"
    case DoubleType => "DOUBLE"
    case FloatType => "REAL"
    case d: DecimalType => s"DECIMAL(${d.precision},${d.scale})"
    case StringType => "VARCHAR"
    case DateType => "DATE"
    case TimestampType | TimestampNTZType => "TIMESTAMP"
    case BooleanType => "BOOLEAN"
    case other => sys.error(s"no Calcite type for the parquet column type $other")
  }

  /**
   * A query's text as Calcite accepts it; the same query, only spelled in Calcite's dialect:
   *  - q72 adds days to a date as DuckDB does, `d1.d_date + 5`: Calcite adds a DATE and an
   *    INTERVAL only, so `d1.d_date + INTERVAL '5' DAY`;
   *  - q90 names a derived table `AT`, a word Calcite reserves: quoted, `"AT"` (nothing
   *    refers to that name).
   */
  def calciteSpelling(text: String): String =
    text.replaceAll("""(\w+\.d_date) \+ (\d+)\b""", "$1 + INTERVAL '$2' DAY").replaceAll("""\) AT,""", """) "AT",""")

  private def attemptPlan(sql: String, ddl: Seq[String]): Either[String, io.sparksubstrait.proto.Plan] =
    try Right(io.sparksubstrait.testing.Isthmus.plan(sql, ddl: _*))
    catch {
      // Calcite reports some failures as errors (a StackOverflowError of a deep query): all are results.
      case e: Throwable if !e.isInstanceOf[InterruptedException] =>
        Left(s"${e.getClass.getSimpleName}: ${Option(e.getMessage).flatMap(_.linesIterator.nextOption()).getOrElse("")}"
            .take(300))
    }
}
