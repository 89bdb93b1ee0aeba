"""Runs every plan the releases wrote on Spark (spark.read.substrait, the jar of this
checkout) and compares the rows with the reference: the producer engine's own rows
(DataFusion, DuckDB, ibis on DuckDB, DuckDB for the substrait builders) or, for isthmus,
Spark SQL on the same views. Outcomes per plan, in <id>/results.json:

  equal            ran, the same rows
  refused          a SUBSTRAIT_ error (condition and message kept)
  wrong            ran, other rows
  error            ran into an error that is not ours (a defect: never expected)
  producer-failed  the producer wrote no plan (its error kept)
  no-reference     the producer's engine could not answer its own query (and no SQL could)

Results are kept per release and redone when the jar or the plans change."""

import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Dict, List

from compare import decoded_rows, difference, normal_rows
from data import parquet
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


ERROR_CLASS = re.compile(r"\[(SUBSTRAIT_[A-Z_]+)\]\s*(.*)", re.S)
ANY_CLASS = re.compile(r"\[([A-Z][A-Z_.]+)\]\s*(.*)", re.S)


def _message(e: BaseException) -> str:
    text = str(getattr(e, "desc", None) or e)
    return text.strip().split("\n\nJVM stacktrace")[0].strip()


def run_plan(spark, plan: bytes):
    """(outcome, detail, rows): rows are Spark's when it ran."""
    try:
        df = spark.read.substrait(plan)
        return "ran", None, [tuple(r) for r in df.collect()]
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
    if release.producer == "isthmus":
        sql = (folder / f"{qid}.sql").read_text(encoding="utf-8")
        try:
            return normal_rows(tuple(r) for r in spark.sql(sql).collect()), None
        except Exception as e:  # noqa: BLE001
            return None, "Spark SQL cannot run the query: " + _message(e).splitlines()[0][:300]
    payload = json.loads(rows_file.read_text(encoding="utf-8"))
    if "engine_failed" in payload:
        return None, "the producer's engine cannot run its own query: " + payload["engine_failed"]
    return decoded_rows(payload["rows"]), None


def fingerprint(jar_path: Path, folder: Path) -> str:
    h = hashlib.sha256(jar_path.read_bytes())
    for f in sorted(folder.glob("*.bin")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def run_release(spark, release: Release, cache: Path, jar_path: Path) -> Dict:
    folder = cache / release.id / "plans"
    result_file = cache / release.id / "results.json"
    key = fingerprint(jar_path, folder)
    if result_file.exists():
        old = json.loads(result_file.read_text(encoding="utf-8"))
        if old.get("fingerprint") == key:
            return old
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
            expected, why = reference(spark, release, qid, folder)
            if expected is None:
                entry.update(outcome="no-reference", why=why)
            else:
                diff = difference(normal_rows(rows), expected)
                entry.update(outcome="equal" if diff is None else "wrong", **({"difference": diff} if diff else {}))
        results[qid] = entry
    doc = {"release": release.id, "fingerprint": key, "results": results}
    result_file.write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
    return doc


def run_all(releases: List[Release], cache: Path) -> None:
    jar_path = jar()
    print(f"  jar: {jar_path.name}", flush=True)
    spark = session(jar_path)
    register(spark, cache / "data")
    for r in releases:
        if not (cache / r.id / "plans" / "done.txt").exists():
            continue
        started = time.time()
        doc = run_release(spark, r, cache, jar_path)
        counts: Dict[str, int] = {}
        for entry in doc["results"].values():
            counts[entry["outcome"]] = counts.get(entry["outcome"], 0) + 1
        print(f"  {r.id}: {counts} ({time.time() - started:.0f} s)", flush=True)
    spark.stop()
