"""Runs every plan the releases wrote on Spark (spark.read.substrait, the jar of this
checkout) and compares the rows with the reference: the producer engine's own rows
(DataFusion, DuckDB, ibis on DuckDB, DuckDB for the substrait builders) or, for isthmus and
substrait-java's Spark module, Spark SQL on the same views. Outcomes per plan, in <id>/results.json:

  equal            ran, the same rows
  refused          a SUBSTRAIT_ error (condition and message kept)
  wrong            ran, other rows
  error            ran into an error that is not ours (a defect: never expected)
  producer-failed  the producer wrote no plan (its error kept)
  no-reference     the producer's engine could not answer its own query (and no SQL could)

Where the producer's engine and Spark differ, or the engine cannot answer, DuckDB's SQL on
the same data decides (an independent answer): Spark's rows equal to it count as equal
("the producer's engine differs", kept in the entry). Where a producer reading for a known
bug applied (the plan asks another question than its query), the plan's own question is
asked of Spark SQL (known_bugs.py) and the outcome is "as-written" when the rows match it.
Results are kept per release and redone when the jar or the plans change."""

import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path

from compare import decoded_rows, difference, normal_rows
from data import parquet
from known_bugs import meant_sql, normal, plan_bug
from queries import tables
from releases import Release

REPO = Path(__file__).resolve().parents[2]


def jar() -> Path:
    if os.environ.get("SPARK_SUBSTRAIT_JAR"):
        return Path(os.environ["SPARK_SUBSTRAIT_JAR"])
    found = sorted((REPO / "jvm" / "target" / "jars").glob("spark-substrait-spark4*_2.13-*.jar"))
    if not found:
        raise SystemExit("no jar: build it first (build/sbt jvm/assembly)")
    return found[-1]


def session(jar_path: Path):
    sys.path.insert(0, str(REPO / "python"))
    os.environ["SPARK_SUBSTRAIT_JAR"] = str(jar_path)
    from pyspark.sql import SparkSession

    import spark_substrait

    builder = (SparkSession.builder.master("local[2]").appName("producer-matrix")
               .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false")
               .config("spark.driver.memory", "2g").config("spark.ui.showConsoleProgress", "false"))
    spark = spark_substrait.configure(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def register(spark, data: Path) -> None:
    for t in tables():
        spark.read.parquet(str(parquet(data, t))).createOrReplaceTempView(t)
        # substrait-java's Spark module names its catalog tables in full
        # (spark_catalog.default.<table>), which no temp view answers.
        spark.sql(f"CREATE TABLE IF NOT EXISTS spark_catalog.default.{t} USING parquet LOCATION '{parquet(data, t)}'")


ERROR_CLASS = re.compile(r"\[(SUBSTRAIT_[A-Z_]+)\]\s*(.*)", re.S)
ANY_CLASS = re.compile(r"\[([A-Z][A-Z_.]+)\]\s*(.*)", re.S)


def _message(e: BaseException) -> str:
    text = str(getattr(e, "desc", None) or e)
    return text.strip().split("\n\nJVM stacktrace")[0].strip()


READINGS = re.compile(r"readings=\[([^\]]*)\]")


def readings_of(df) -> list[str]:
    """The producer readings the plan was read with, from the DataFrame's plan string."""
    m = READINGS.search(df._jdf.queryExecution().logical().toString())
    return [r.strip() for r in m.group(1).split(",")] if m else []


def run_plan(spark, plan: bytes):
    """(outcome, detail, rows): rows are Spark's when it ran."""
    try:
        df = spark.read.substrait(plan)
        readings = readings_of(df)
        return "ran", ({"readings": readings} if readings else None), [tuple(r) for r in df.collect()]
    except Exception as e:  # noqa: BLE001 - the outcome is what we record
        text = _message(e)
        m = ERROR_CLASS.search(text)
        if m:
            return "refused", {"condition": m.group(1), "message": m.group(2).splitlines()[0][:600]}, None
        m = ANY_CLASS.search(text)
        return "error", {"condition": m.group(1) if m else type(e).__name__,
                         "message": (m.group(2) if m else text).splitlines()[0][:600]}, None


def reference(spark, release: Release, qid: str, folder: Path):
    """(rows, None) or (None, why there is none)."""
    rows_file = folder / f"{qid}.rows.json"
    if release.producer in ("isthmus", "substrait-java-spark"):
        sql = (folder / f"{qid}.sql").read_text(encoding="utf-8")
        try:
            return normal_rows(tuple(r) for r in spark.sql(sql).collect()), None
        except Exception as e:  # noqa: BLE001
            return None, "Spark SQL cannot run the query: " + _message(e).splitlines()[0][:300]
    payload = json.loads(rows_file.read_text(encoding="utf-8"))
    if "engine_failed" in payload:
        return None, "the producer's engine cannot run its own query: " + payload["engine_failed"]
    rows = decoded_rows(payload["rows"])
    if release.producer == "ibis":
        rows = [tuple(pandas_date(v) for v in r) for r in rows]
    return rows, None


def pandas_date(value):
    """ibis' DuckDB backend returns a date column through pandas as a midnight timestamp."""
    kind, text = value
    if kind == "timestamp" and text.endswith("T00:00:00"):
        return ("date", text[:10])
    return value


def duckdb_rows(sql: str, data: Path):
    """DuckDB's SQL answer on the same parquet (the independent referee), or None."""
    import duckdb
    con = duckdb.connect()
    try:
        for t in tables():
            con.execute(f"CREATE VIEW {t} AS SELECT * FROM '{parquet(data, t)}'")
        return normal_rows(con.execute(sql).fetchall())
    except Exception:  # noqa: BLE001 - DuckDB's dialect may not have the query
        return None
    finally:
        con.close()


def judge(spark, release: Release, qid: str, folder: Path, actual, readings: list[str]) -> dict:
    sql = (folder / f"{qid}.sql").read_text(encoding="utf-8")
    expected, why = reference(spark, release, qid, folder)
    diff = difference(actual, expected) if expected is not None else why
    if expected is not None and diff is None:
        return {"outcome": "equal"}
    for reading in readings:
        meant = meant_sql(reading, sql)
        if meant is not None:
            as_written = normal(reading, normal_rows(tuple(r) for r in spark.sql(meant).collect()))
            if difference(normal(reading, actual), as_written) is None:
                return {"outcome": "as-written", "known_bug": reading, "difference": diff}
    bug = plan_bug(release.id, release.producer, qid)
    if bug is not None:
        as_written = normal_rows(tuple(r) for r in spark.sql(bug[1](sql)).collect())
        if difference(actual, as_written) is None:
            return {"outcome": "as-written", "known_bug": bug[0], "difference": diff}
    if not sql.startswith("--"):
        referee = duckdb_rows(sql, folder.parents[1] / "data")
        if referee is not None and difference(actual, referee) is None:
            return {"outcome": "equal", "engine_differs": diff}
    if expected is None:
        return {"outcome": "no-reference", "why": why}
    return {"outcome": "wrong", "difference": diff}


def fingerprint(jar_path: Path, folder: Path) -> str:
    h = hashlib.sha256(jar_path.read_bytes())
    for f in sorted(folder.glob("*.bin")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def rejudge(spark, release: Release, folder: Path, doc: dict, result_file: Path) -> dict:
    """Cached results with wrong rows are judged again (the known bugs and the comparison may have grown since)."""
    changed = False
    for qid, entry in doc["results"].items():
        if entry["outcome"] == "wrong":
            outcome, detail, rows = run_plan(spark, (folder / f"{qid}.bin").read_bytes())
            if outcome == "ran":
                entry.update(judge(spark, release, qid, folder, normal_rows(rows), (detail or {}).get("readings", [])))
                changed = True
    if changed:
        result_file.write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
    return doc


def run_release(spark, release: Release, cache: Path, jar_path: Path) -> dict:
    folder = cache / release.id / "plans"
    result_file = cache / release.id / "results.json"
    key = fingerprint(jar_path, folder)
    if result_file.exists():
        old = json.loads(result_file.read_text(encoding="utf-8"))
        if old.get("fingerprint") == key:
            return rejudge(spark, release, folder, old, result_file)
    results = {}
    for sql in sorted(folder.glob("*.sql")):
        qid = sql.stem
        failed = folder / f"{qid}.failed"
        if failed.exists():
            results[qid] = {"outcome": "producer-failed", "why": failed.read_text(encoding="utf-8").strip()}
            continue
        plan = (folder / f"{qid}.bin").read_bytes()
        started = time.time()
        outcome, detail, rows = run_plan(spark, plan)
        entry = {"outcome": outcome, "seconds": round(time.time() - started, 2)}
        if detail:
            entry.update(detail)
        if outcome == "ran":
            entry.update(judge(spark, release, qid, folder, normal_rows(rows), entry.get("readings", [])))
        results[qid] = entry
    doc = {"release": release.id, "fingerprint": key, "results": results}
    result_file.write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
    return doc


def run_all(releases: list[Release], cache: Path) -> None:
    jar_path = jar()
    print(f"  jar: {jar_path.name}", flush=True)
    spark = session(jar_path)
    register(spark, cache / "data")
    for r in releases:
        if not (cache / r.id / "plans" / "done.txt").exists():
            continue
        started = time.time()
        doc = run_release(spark, r, cache, jar_path)
        counts: dict[str, int] = {}
        for entry in doc["results"].values():
            counts[entry["outcome"]] = counts.get(entry["outcome"], 0) + 1
        print(f"  {r.id}: {counts} ({time.time() - started:.0f} s)", flush=True)
    spark.stop()
