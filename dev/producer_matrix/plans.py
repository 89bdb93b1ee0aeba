"""Runs each installed release's writer in its own virtualenv (or JVM, for isthmus and substrait-java's Spark module) once:
build/producers/<id>/plans/ holds its plans, its engine's rows and its failures;
plans/done.txt marks it complete. A writer that cannot start (say, a wheel built without
its substrait module) leaves writer-failed.txt with its error."""

import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import isthmus
import substrait_spark
from install import installed, venv_python
from queries import SPARK_DIALECT_FEATURES, all_queries, tables
from releases import Release

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 1800


def calcite_spelling(qid: str, sql: str) -> str:
    """The same query as Calcite parses it: it reserves VALUE (Q11's alias) and groups by no
    select alias (Q15's supplier_no); as the Scala tests spell them (TpchSchema)."""
    if qid == "q11":
        return sql.replace("AS value", "AS part_value").replace("value DESC", "part_value DESC")
    if qid == "q15":
        import re
        return re.sub(r"GROUP BY\s+supplier_no", "GROUP BY l_suppkey", sql)
    return sql


def _isthmus_queries(cache: Path) -> Path:
    folder = cache / "data" / "queries-calcite"
    folder.mkdir(parents=True, exist_ok=True)
    for qid, sql in all_queries().items():
        (folder / f"{qid}.sql").write_text(calcite_spelling(qid, sql) + "\n", encoding="utf-8")
    return folder


def _spark_queries(cache: Path) -> Path:
    """The queries as Spark SQL runs them: the texts themselves (Spark parses DuckDB's TPC-H)."""
    folder = cache / "data" / "queries-spark"
    folder.mkdir(parents=True, exist_ok=True)
    for qid, sql in {**all_queries(), **SPARK_DIALECT_FEATURES}.items():
        (folder / f"{qid}.sql").write_text(sql + "\n", encoding="utf-8")
    return folder


def write_plans(release: Release, cache: Path, retry: bool = False) -> str:
    home = cache / release.id
    out = home / "plans"
    if not installed(home):
        return "not installed"
    if (out / "done.txt").exists() and not retry:
        return "plans written (cached)"
    if (out / "writer-failed.txt").exists() and not retry:
        return "writer failed (cached)"
    out.mkdir(parents=True, exist_ok=True)
    for f in out.iterdir():
        f.unlink()
    data = cache / "data"
    if release.producer == "isthmus":
        queries = _isthmus_queries(cache)
        cmd = isthmus.command(home) + [str(data / "ddl.sql"), str(queries), str(out)]
    elif release.producer == "substrait-java-spark":
        queries = _spark_queries(cache)
        cmd = substrait_spark.command(home) + [str(data / "parquet"), ",".join(tables()), str(queries), str(out)]
    else:
        cmd = [str(venv_python(home)), str(HERE / "writers" / f"write_{release.writer}.py"), str(data), str(out)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        (out / "writer-failed.txt").write_text(f"the writer took more than {TIMEOUT_S} s\n")
        return "writer timed out"
    if done.returncode != 0:
        tail = [l for l in done.stderr.splitlines() if l.strip()][-1:] or ["(no message)"]
        (out / "writer-failed.txt").write_text(tail[0] + "\n" + done.stderr[-3000:], encoding="utf-8")
        return "writer failed: " + tail[0]
    if release.producer in ("isthmus", "substrait-java-spark"):
        for sql in queries.glob("*.sql"):
            (out / sql.name).write_text(sql.read_text(encoding="utf-8"), encoding="utf-8")
    plans = len(list(out.glob("*.bin")))
    failed = len(list(out.glob("*.failed")))
    (out / "done.txt").write_text(f"{plans} plans, {failed} queries without a plan\n")
    return f"{plans} plans, {failed} queries without a plan"


def write_all(releases: list[Release], cache: Path, retry: bool = False, workers: int = 2) -> None:
    def one(r: Release) -> None:
        print(f"  {r.id}: {write_plans(r, cache, retry)}", flush=True)
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, releases))
