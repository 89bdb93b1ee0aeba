package io.sparksubstrait.bench

import java.io.PrintWriter
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, Row, SparkSession}

import io.sparksubstrait.SubstraitPlans
import io.sparksubstrait.decode.{PlanDecoder, PlanLimits}
import io.sparksubstrait.testing.{PlanIdentity, TpchSchema}

/**
 * TPC-H or TPC-DS (--benchmark): Substrait plans from each producer against the same query
 * text in Spark SQL, in one Spark process. Per query, first a check (does the plan convert, do its rows match
 * the SQL's, is its optimized plan the SQL's), then timings, interleaved so that drift
 * (JIT, GC, other load on the machine) hits both sides alike:
 *   convert     plan bytes -> analyzed DataFrame (decode + conversion + analysis)
 *   sql         spark.sql(text) -> analyzed DataFrame (parse + analysis)
 *   exec        collect() of each (optimization, planning, execution)
 * With --anchor P1,P2,..: the anchor ([[Anchor]], substrait-java's Spark module) converts those
 * producers' plans too, as sides `anchor-<producer>`, checked and timed as ours; and the
 * anchor is a producer too (substrait-java: Spark's optimized plan of the SQL, which it writes
 * with LocalFiles scans of the parquet files, so those are allowed to our side here).
 * TPC-DS (issue 34) reads every producer's plans from the corpus' files (isthmus' too:
 * [[TpcdsIsthmusPlans]]), its texts with double-quoted identifiers (DuckDB's spelling of its
 * aliases), and has one producer more, `written`: our writer's plan of the SQL's DataFrame
 * (SubstraitPlans.write, Spark's optimized plan, its scans LocalFiles of the parquet files).
 *
 * Arguments: --data DIR (from bench/prepare.py) --out DIR [--benchmark tpch|tpcds] [--reps N] [--iters K] [--warmup W]
 * [--round-ms M] [--queries 1,2,..] [--anchor isthmus,duckdb,datafusion,substrait-java] [--control true]
 * (--control: the SQL once more as side `sql-again`, an A/A measure of the noise in a ratio)
 * [--settle-rounds S] (query by query instead of passes over all queries: each query's warm-up rounds, then S
 * unrecorded rounds without conversions, then its repetitions and its second stage)
 * [--confirm-reps R] [--confirm-above X] (the second stage: R more repetitions of the executions of
 * every side whose execution ratio after the whole pass is above X, default 1.05; listed in
 * DIR/confirmed.tsv, their rows in timings.tsv with repetitions from --reps on)
 * Writes DIR/timings.tsv (side, query, phase, rep, nanos) and DIR/status.tsv (producer: a
 * producer, or anchor-<producer>).
 */
object QueryBench {

  /** The TPC-DS producer that is our own writer (SubstraitPlans.write of spark.sql's DataFrame). */
  val Written = "written"

  /** With --control: the SQL's text timed as one more side, so its ratio to `sql` is noise alone. */
  val SqlAgain = "sql-again"

  def main(args: Array[String]): Unit = {
    val opts = Options(args)
    val data = Paths.get(opts("data"))
    val out = Paths.get(opts("out"))
    val reps = opts.int("reps", 5)
    val iters = opts.int("iters", 10)
    // Unrecorded rounds first: the JIT still compiles through the first (its times ran 20-50 % over the later ones).
    val warmups = opts.int("warmup", 2)
    val tpcds = opts.get("benchmark").getOrElse("tpch") match {
      case "tpch" => false
      case "tpcds" => true
      case other => sys.error(s"--benchmark: tpch or tpcds, not $other")
    }
    val parquet = data.resolve("parquet")
    // TPC-DS: every table and query the corpus has (bench/prepare.py --benchmark tpcds).
    val tables =
      if (tpcds) Files.list(parquet).iterator().asScala.map(_.getFileName.toString).filter(_.endsWith(".parquet")).map(
        _.stripSuffix(".parquet")).toSeq.sorted
      else TpchSchema.Tables.map(_._1)
    val queries = opts.get("queries").map(_.split(",").map(_.trim.stripPrefix("q").stripPrefix("Q").toInt).toSeq)
      .getOrElse(
        if (tpcds) Files.list(data.resolve("queries")).iterator().asScala.map(_.getFileName.toString).collect {
          case QueryFile(n) => n.toInt
        }.toSeq.sorted
        else TpchSchema.QueryNumbers)
    Files.createDirectories(out)
    val anchored = opts.get("anchor").map(_.split(",").map(_.trim).filter(_.nonEmpty).toSeq).getOrElse(Nil)
    val anchor = Option.when(anchored.nonEmpty)(Anchor.load())

    val spark = Options.session(if (tpcds) "tpcds-bench" else "tpch-bench")
    // DuckDB's TPC-DS texts quote their aliases ("order count"): identifiers, as in DuckDB.
    if (tpcds) spark.conf.set("spark.sql.ansi.doubleQuotedIdentifiers", "true")
    tables.foreach(t => spark.read.parquet(parquet.resolve(s"$t.parquet").toString).createOrReplaceTempView(t))
    val texts = queries.map(n => n -> read(data.resolve("queries").resolve(f"q$n%02d.sql")).trim.stripSuffix(";")).toMap

    // Every producer's plan bytes, or why there are none.
    val producers = Seq("isthmus", "duckdb", "datafusion", "ibis") ++ Option.when(tpcds)(Written) ++
      anchor.map(_ => Anchor.Producer)
    // The anchor's own plans and ours written read the parquet files (LocalFiles): our side may read them.
    // Under their real path too: the reader resolves symbolic links (bench/data may be one).
    if (anchor.nonEmpty || tpcds)
      spark.conf.set("spark.substrait.localFiles.allowedPrefixes",
        Seq(parquet.toAbsolutePath, parquet.toRealPath()).map(_.toString).distinct.mkString(","))
    // ibis' failures have a file of their own (bench/prepare_ibis.py runs in another virtualenv), as
    // isthmus' TPC-DS failures (TpcdsIsthmusPlans).
    val failures = readFailures(data.resolve("plans").resolve("failures.tsv")) ++
      Seq("ibis", "isthmus").flatMap(p =>
        readFailures(data.resolve("plans").resolve(p).resolve("failures.tsv"), Some(p)))
    val plans: Map[(String, Int), Either[String, Array[Byte]]] = (for (p <- producers; n <- queries) yield (p, n) -> {
      // isthmus compiles the same query spelled as Calcite accepts it (Q11, Q15).
      if (p == "isthmus" && !tpcds) TpchSchema.isthmus(TpchSchema.calciteSpelling(n, texts(n))).map(_.toByteArray)
      else if (p == Written) attempt(SubstraitPlans.write(spark.sql(texts(n)))).left.map(firstLine)
      else if (p == Anchor.Producer)
        attempt(anchor.get.produce(spark, texts(n))).left.map(e => s"${e.getClass.getSimpleName}: ${firstLine(e)}")
      else {
        val file = data.resolve("plans").resolve(p).resolve(f"q$n%02d.bin")
        if (Files.exists(file)) Right(Files.readAllBytes(file)) else Left(failures.getOrElse((p, n), "no plan"))
      }
    }).toMap
    anchored.filterNot(producers.contains).foreach(p =>
      sys.error(s"--anchor: no producer $p (${producers.mkString(", ")})"))
    anchor.foreach(a => println(s"anchor: ${a.name} on the plans of ${anchored.mkString(", ")}"))
    val anchorSides = anchored.map(p => s"anchor-$p")

    // A side's analyzed DataFrame: the SQL's, ours of a producer's plan, or the anchor's of it.
    def frame(side: String, n: Int): DataFrame =
      if (side == "sql" || side == SqlAgain) spark.sql(texts(n))
      else if (side.startsWith("anchor-")) anchor.get.read(spark, plans((side.stripPrefix("anchor-"), n)).toOption.get)
      else SubstraitPlans.read(spark, plans((side, n)).toOption.get)

    // Check: conversion, rows, plan identity. Only converting plans with matching rows are timed.
    val status = new PrintWriter(out.resolve("status.tsv").toFile, "UTF-8")
    status.println("producer\tquery\tstatus\trows\tidentity\tdetail")
    val sqlRows = queries.map(n => n -> spark.sql(texts(n)).collect().toSeq).toMap
    val timed = (for (p <- producers ++ anchorSides; n <- queries) yield {
      // The anchor's errors are its own: any throwable is a result (its class says what kind).
      def described(e: Throwable) =
        if (p.startsWith("anchor-")) s"${e.getClass.getSimpleName}: ${firstLine(e)}" else firstLine(e)
      val line = plans((p.stripPrefix("anchor-"), n)) match {
        case Left(why) => Left(s"no plan\t\t\t$why")
        case Right(_) => attempt(frame(p, n)) match {
            case Left(e) => Left(s"conversion failed\t\t\t${described(e)}")
            case Right(df) =>
              val rows = attempt(df.collect().toSeq)
              val identity = attempt(PlanIdentity.compare(df, spark.sql(texts(n))).verdict).getOrElse("?")
              rows match {
                case Left(e) => Left(s"execution failed\t\t$identity\t${described(e)}")
                case Right(r) if RowsMatch(r, sqlRows(n)) => Right(s"ok\tmatch\t$identity\t")
                case Right(r) =>
                  // A plan our reader runs as written with a known producer bug's warning asks another
                  // question than the SQL: named so, never timed against it.
                  val bugs = if (p.startsWith("anchor-")) Nil
                  else knownBugs(plans((p, n)).toOption.get) ++ rollupAsOneGrouping(spark, p, texts(n), r)
                  val status = if (bugs.isEmpty) "rows differ" else s"as written: ${bugs.mkString(", ")}"
                  Left(s"$status\tMISMATCH\t$identity\t${r.size} rows, SQL has ${sqlRows(n).size}")
              }
          }
      }
      status.println(s"$p\t$n\t${line.merge}")
      status.flush()
      println(s"check $p Q$n: ${line.merge.replace('\t', ' ')}")
      Option.when(line.isRight)((p, n))
    }).flatten
    status.close()

    val timings = new PrintWriter(out.resolve("timings.tsv").toFile, "UTF-8")
    timings.println("side\tquery\tphase\trep\tnanos")

    /** Times `f`, recorded unless `rep` is a warm-up round's (negative); the nanoseconds it took. */
    def time(side: String, n: Int, phase: String, rep: Int)(f: => Any): Long = {
      val t0 = System.nanoTime(); f; val t = System.nanoTime() - t0
      if (rep >= 0) timings.println(s"$side\t$n\t$phase\t$rep\t$t")
      t
    }
    // A short query's single execution swings by a third from round to round on this 2-core
    // machine (Q2's SQL: 225-369 ms in one run), so a query whose SQL's fastest execution so far
    // (warm-up rounds included; the first is cold) is under --round-ms executes ceil(round-ms /
    // that time) rounds per repetition (at most 4), each recorded: its median then stands on
    // about as many milliseconds as a longer query's.
    val roundMs = opts.int("round-ms", 600)
    val fastestSqlMs = scala.collection.mutable.Map.empty[Int, Double]
    def rounds(n: Int): Int = fastestSqlMs.get(n).fold(1)(ms => math.min(4, math.max(1, math.ceil(roundMs / ms).toInt)))
    // Every recorded execution, for the second stage's choice.
    val executed = scala.collection.mutable.Map.empty[(String, Int), Vector[Long]].withDefaultValue(Vector.empty)
    // Repetition `rep` of query `n` over `sides`: `iters` conversions each (unless `convert` is
    // false) and the query's executions. A side's position in the round changes its time (the
    // JIT's profile of the code the sides share, the previous side's garbage), so the order
    // rotates by repetition (and round) and every other one runs it backwards: over 2 x sides of
    // them each side runs once in each position, after each neighbour.
    def repetition(rep: Int, n: Int, sides: Seq[String], convert: Boolean): Int = {
      val executions = if (rep < 0) 1 else rounds(n)
      if (convert) for (_ <- 0 until iters; side <- SideOrder(sides, rep)) time(side, n, "convert", rep)(frame(side, n))
      for (round <- 0 until executions; side <- SideOrder(sides, rep * executions + round)) {
        val df = frame(side, n)
        // A collection first, so that no side pays for garbage the other left (the timed
        // conversions just before allocate a lot); measured apart, that shift alone moved
        // single-query ratios by 5-10 %.
        System.gc()
        val nanos = time(side, n, "exec", rep)(df.collect())
        if (side == "sql") fastestSqlMs(n) = math.min(fastestSqlMs.getOrElse(n, Double.MaxValue), nanos / 1e6)
        if (rep >= 0) executed((side, n)) :+= nanos
      }
      timings.flush()
      executions
    }
    val control = Option.when(opts.get("control").contains("true"))(SqlAgain)
    // The sides timed against the SQL on query `n`: the SQL again (--control), then the producers.
    def against(n: Int): Seq[String] = control.toSeq ++ timed.filter(_._2 == n).map(_._1)
    // The JIT's compilation time so far: while it grows, the compiler threads share the 2 cores
    // with the executions being timed.
    def jitMs = java.lang.management.ManagementFactory.getCompilationMXBean.getTotalCompilationTime
    // Negative reps warm up and are not recorded.
    def pass(rep: Int, n: Int): Unit = {
      val executions = repetition(rep, n, "sql" +: against(n), convert = true)
      println(
        s"rep $rep Q$n done${if (executions > 1) s" ($executions executions)" else ""}; JIT compilation so far $jitMs ms")
    }

    // The second stage, fixed before the run: a side whose median execution after the whole pass
    // is above --confirm-above times the SQL's gets --confirm-reps more repetitions of its
    // executions, alternating with the SQL's in the same rounds, and its ratio is the medians'
    // over all of them. The SQL against itself (--control) is chosen by the same rule, so its
    // count above 1.10 afterwards is still the noise of the whole procedure. On this 2-core machine
    // a pass of 2-3 repetitions put 3-16 of 99 A/A pairs above 1.10: a few more executions where a
    // ratio is close to the line, rather than many more everywhere.
    val confirmReps = opts.int("confirm-reps", 0)
    val above = opts.get("confirm-above").map(_.toDouble).getOrElse(1.05)
    def median(xs: Vector[Long]) = {
      val s = xs.sorted; if (s.size % 2 == 1) s(s.size / 2).toDouble else (s(s.size / 2 - 1) + s(s.size / 2)) / 2.0
    }
    def passRatio(side: String, n: Int) = median(executed((side, n))) / median(executed(("sql", n)))
    // The sides of query `n` above the line after its repetitions, with that ratio.
    def aboveTheLine(n: Int): Seq[(String, Double)] = if (confirmReps <= 0) Nil
    else against(n).filter(side => executed((side, n)).nonEmpty && executed(("sql", n)).nonEmpty)
      .map(side => side -> passRatio(side, n)).filter(_._2 > above)
    def secondStage(rep: Int, n: Int, sides: Seq[(String, Double)]): Unit = {
      val executions = repetition(rep, n, "sql" +: sides.map(_._1), convert = false)
      println(s"second stage rep $rep Q$n done (${sides.map(_._1).mkString(", ")}; $executions executions)")
    }

    // --settle-rounds S: query by query, each whole before the next (its warm-up rounds, S more
    // unrecorded rounds without conversions, its repetitions, its second stage), so that the code
    // timed is the code that just ran. In passes, every other query runs between two repetitions of
    // one (19 minutes in a whole TPC-DS run, whose JIT compiled 190, 97 and about 30 s of CPU in its
    // three timed passes), and in short runs producers' plans, whose generated classes are their
    // own, came out slower and noisier: DuckDB's per-repetition geomeans 0.98-1.44 on six queries,
    // 1.06-1.09 query by query (docs/tpcds.md, Speed).
    val settleRounds = opts.int("settle-rounds", 0)
    def settle(n: Int): Unit = {
      val before = jitMs
      for (_ <- 1 to settleRounds) repetition(-1, n, "sql" +: against(n), convert = false)
      println(s"settle Q$n: $settleRounds rounds; the JIT compiled ${jitMs - before} ms during them")
    }
    val chosen: Map[Int, Seq[(String, Double)]] =
      if (settleRounds > 0) queries.flatMap { n =>
        for (rep <- -warmups until 0) pass(rep, n)
        settle(n)
        for (rep <- 0 until reps) pass(rep, n)
        val sides = aboveTheLine(n)
        for (rep <- reps until reps + confirmReps if sides.nonEmpty) secondStage(rep, n, sides)
        Option.when(sides.nonEmpty)(n -> sides)
      }.toMap
      else {
        for (rep <- -warmups until reps; n <- queries) pass(rep, n)
        val chosen = queries.map(n => n -> aboveTheLine(n)).filter(_._2.nonEmpty).toMap
        if (chosen.nonEmpty) println(
          s"second stage: ${chosen.values.map(_.size).sum} pairs of ${chosen.size} queries, $confirmReps repetitions")
        for (rep <- reps until reps + confirmReps; n <- queries if chosen.contains(n)) secondStage(rep, n, chosen(n))
        chosen
      }
    val confirmed = new PrintWriter(out.resolve("confirmed.tsv").toFile, "UTF-8")
    confirmed.println("side\tquery\tfirst_pass_ratio\tconfirm_reps")
    for ((n, sides) <- chosen.toSeq.sortBy(_._1); (side, ratio) <- sides)
      confirmed.println(f"$side\t$n\t$ratio%.4f\t$confirmReps")
    confirmed.close()
    timings.close()
    spark.stop()
  }

  /** Any throwable as a result but an interrupt: a converter's stack overflow or linkage error is one of its outcomes. */
  private def attempt[T](f: => T): Either[Throwable, T] =
    try Right(f)
    catch { case e: InterruptedException => throw e; case e: Throwable => Left(e) }

  /** The known producer bugs (readings run as written, with a warning) our reader finds in a plan. */
  private def knownBugs(bytes: Array[Byte]): Seq[String] =
    attempt(PlanDecoder.fromBytes(bytes, PlanLimits.default).readings.filter(_.isWarning).map(_.name)).getOrElse(Nil)

  /**
   * DuckDB 1.0-1.1.3 write ROLLUP (k1, ...) as one grouping of all its keys (docs/producers.md,
   * a bug no plan shows: it is a plain GROUP BY): rows that answer the text with its ROLLUP a
   * GROUP BY of those keys are that question's, as dev/tpcds-read labels them.
   */
  private def rollupAsOneGrouping(spark: SparkSession, producer: String, text: String, rows: Seq[Row]): Seq[String] = {
    val meant = RollupKeys.replaceAllIn(text, m => java.util.regex.Matcher.quoteReplacement(s"GROUP BY ${m.group(1)}"))
    if (producer != "duckdb" || meant == text) Nil
    else attempt(spark.sql(meant).collect().toSeq).toOption.filter(RowsMatch(rows, _))
      .map(_ => "duckdb-rollup-as-one-grouping").toSeq
  }
  private val RollupKeys = "(?i)group by\\s+rollup\\s*\\(([^)]*)\\)".r

  private def read(p: Path) = new String(Files.readAllBytes(p), StandardCharsets.UTF_8)

  /** (producer, query) -> why no plan; a file of one producer has no producer column. */
  private def readFailures(p: Path, producer: Option[String] = None): Map[(String, Int), String] =
    if (!Files.exists(p)) Map.empty
    else read(p).linesIterator.filter(_.nonEmpty).map { line =>
      producer match {
        case Some(name) => val a = line.split("\t", 2); (name, a(0).toInt) -> a(1)
        case None => val a = line.split("\t", 3); (a(0), a(1).toInt) -> a(2)
      }
    }.toMap

  private def firstLine(e: Throwable): String =
    Option(e.getMessage).flatMap(_.linesIterator.nextOption()).getOrElse(e.getClass.getSimpleName).take(1000)
}

/** A query text's file name, qNN.sql, and its number. */
private object QueryFile {
  private val Pattern = "q(\\d+)\\.sql".r
  def unapply(name: String): Option[String] = name match {
    case Pattern(n) => Some(n)
    case _ => None
  }
}

/** The order of the sides in repetition `rep`: rotated by rep / 2, backwards in odd repetitions. */
object SideOrder {
  def apply[T](sides: Seq[T], rep: Int): Seq[T] = {
    if (rep < 0 || sides.isEmpty) sides
    else {
      val k = (rep / 2) % sides.size
      val rotated = sides.drop(k) ++ sides.take(k)
      if (rep % 2 == 0) rotated else rotated.reverse
    }
  }
}

/**
 * Rows of a plan against the SQL's: same count, values equal within what producers' declared
 * types legitimately change (a decimal average rounded to 2 places; doubles), in order or,
 * where ties leave the order open, as multisets.
 */
object RowsMatch {
  def apply(a: Seq[Row], b: Seq[Row]): Boolean =
    a.size == b.size && (pairwise(a, b) || pairwise(a.sortBy(key), b.sortBy(key)))

  private def pairwise(a: Seq[Row], b: Seq[Row]) = a.zip(b).forall { case (x, y) =>
    x.length == y.length && (0 until x.length).forall(i => close(x.get(i), y.get(i)))
  }

  private def key(r: Row): String = r.toSeq.map {
    case n: java.math.BigDecimal => n.setScale(0, java.math.RoundingMode.HALF_UP).toString
    case d: Double => math.round(d).toString
    case other => String.valueOf(other)
  }.mkString("|")

  private def number(v: Any): Option[BigDecimal] = v match {
    case d: java.math.BigDecimal => Some(BigDecimal(d))
    case d: Double => Some(BigDecimal(d))
    case f: Float => Some(BigDecimal(f.toDouble))
    case n: java.lang.Number => Some(BigDecimal(n.longValue))
    case _ => None
  }

  private def close(x: Any, y: Any): Boolean = (number(x), number(y)) match {
    case (Some(p), Some(q)) => (p - q).abs <= BigDecimal("0.01").max(q.abs * BigDecimal("1e-6"))
    case _ => String.valueOf(x).trim == String.valueOf(y).trim
  }
}

/** `--name value` arguments, and the one Spark session shape all benches use. */
final case class Options(values: Map[String, String]) {
  def apply(k: String): String = values.getOrElse(k, sys.error(s"--$k is required"))
  def get(k: String): Option[String] = values.get(k)
  def int(k: String, default: Int): Int = values.get(k).map(_.toInt).getOrElse(default)
}

object Options {
  def apply(args: Array[String]): Options =
    Options(args.grouped(2).collect { case Array(k, v) if k.startsWith("--") => k.stripPrefix("--") -> v }.toMap)

  def session(name: String): SparkSession = {
    val s = SparkSession.builder().master("local[2]").appName(name)
      .config("spark.ui.enabled", "false")
      .config("spark.sql.shuffle.partitions", "8")
      .config("spark.driver.host", "127.0.0.1")
      .config("spark.sql.extensions", "io.sparksubstrait.SubstraitExtensions")
      // Every generated class stays compiled (Spark keeps 100 by default): otherwise each round
      // compiles a query's code anew, the first side to run it pays for the compilation and the
      // JIT's warm-up, and a side sharing its code text with an earlier one runs it hot. That made
      // a side's time depend on its place in the round (first 15-20 % slower, last 5-10 % faster).
      .config("spark.sql.codegen.cache.maxEntries", "100000")
      // ... and is found again: a whole-stage class is named after its codegen stage's number, which
      // adaptive execution assigns in the order query stages finish, so by default a plan whose
      // stages can finish in another order (most producers' bushier plans) got new class text,
      // hence a cache miss and a compilation plus the JIT's warm-up, on most executions (DuckDB's
      // Q31: 41, 14, 10, 2 compilations in four executions against the SQL's 44, 2, 0, 0).
      .config("spark.sql.codegen.useIdInClassName", "false")
      .getOrCreate()
    s.sparkContext.setLogLevel("ERROR")
    s
  }
}
