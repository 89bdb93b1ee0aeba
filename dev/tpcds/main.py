"""Reads every TPC-DS plan a producer writes (bench/prepare.py --benchmark tpcds: DuckDB 1.1.3
and DataFusion 55 over dsdgen's tables; bench/run tpcds-plans: isthmus 0.89.1 and ibis-substrait)
with spark.read.substrait and compares the rows with DuckDB's SQL answer to the same query text
on the same Parquet files (issue 34).

Each (producer, query) is one of: right (the same rows as a multiset: decimals equal to the
cent, floats within 1e-6 relative), as-written (a DuckDB plan of a ROLLUP, which DuckDB 1.1.3
writes as one grouping of all keys, a known bug: the rows of that GROUP BY), differs (other rows: to trace — a LIMIT over ties, a
producer's bug or ours), refused (the project's SUBSTRAIT_ error: its condition and first
line), failed (any other error: a bug), or no plan (the producer wrote none). Prints a table
per producer and writes every outcome to <corpus>/read-outcomes.tsv.

    dev/tpcds-read [--sf 0.01] [--only q01,q17] [--producers duckdb,datafusion,isthmus,ibis]
"""

import argparse
import decimal
import math
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The producers whose plans bench/run tpcds-plans makes (a JVM, another virtualenv); DuckDB's and
# DataFusion's come with the corpus (bench/prepare.py).
SEPARATE_PRODUCERS = ("isthmus", "ibis")


def comparable(value):
    """A value as both engines' rows can agree on it: numbers as floats, the rest as text."""
    if isinstance(value, (decimal.Decimal, float, int)) and not isinstance(value, bool):
        return float(value)
    return None if value is None else str(value)


def same_value(a, e) -> bool:
    if a is None or e is None:
        return a is None and e is None
    if isinstance(a, float) and isinstance(e, float):
        if math.isnan(a) or math.isnan(e):
            return math.isnan(a) and math.isnan(e)
        return math.isclose(a, e, rel_tol=1e-6, abs_tol=0.005)
    return a == e


def same_rows(actual, expected) -> bool:
    """As multisets: both sides sorted by a rounded text key, then compared value by value."""
    if len(actual) != len(expected):
        return False
    key = lambda row: tuple("" if v is None else (f"{v:.2f}" if isinstance(v, float) else v) for v in row)  # noqa: E731
    pairs = zip(sorted(actual, key=key), sorted(expected, key=key), strict=True)
    return all(len(a) == len(e) and all(same_value(x, y) for x, y in zip(a, e, strict=True)) for a, e in pairs)


def rollup_as_one_grouping(con, sql: str, actual) -> bool:
    """Whether `actual` is the answer to `sql` with its ROLLUP (k1, ...) a plain GROUP BY k1, ...:
    the question DuckDB 1.1.3's plans of a ROLLUP ask (a known bug of its Substrait extension)."""
    import re

    meant, n = re.subn(r"(?i)group by\s+rollup\s*\(([^)]*)\)", r"GROUP BY \1", sql)
    if n == 0:
        return False
    return same_rows(actual, [tuple(map(comparable, r)) for r in con.execute(meant).fetchall()])


def classified(e: BaseException):
    """refused for the project's own errors (SUBSTRAIT_...), failed for anything else."""
    condition = getattr(e, "condition", None) or getattr(e, "getCondition", lambda: None)()
    if condition and str(condition).startswith("SUBSTRAIT_"):
        return "refused", f"{condition}: {first_line(e)}"
    return "failed", f"{type(e).__name__}: {first_line(e)}"


def report(outcomes, path: Path, groups) -> None:
    """Every outcome (group, query, outcome, time, detail) to `path`, and the counts per group printed."""
    path.write_text("".join("\t".join(o) + "\n" for o in outcomes), encoding="utf-8")
    for group in groups:
        counts = Counter(o[2] for o in outcomes if o[0] == group)
        print(f"{group}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


def first_line(e: BaseException) -> str:
    """The message's first line; from "found" on when it has one (the location is long)."""
    line = (str(e).strip().splitlines() or [type(e).__name__])[0]
    return line[line.find(": found ") + 2:][:240] if ": found " in line else line[:240]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sf", default="0.01")
    parser.add_argument("--only", default="", help="comma-separated query names (q01, q17, ...)")
    parser.add_argument("--producers", default="duckdb,datafusion")
    parser.add_argument("--outcomes", default="", help="the outcomes file (default <corpus>/read-outcomes.tsv)")
    args = parser.parse_args()
    corpus = REPO / "build" / "cache" / f"tpcds-sf{args.sf}"
    subprocess.run([sys.executable, str(REPO / "bench" / "prepare.py"), "--benchmark", "tpcds", "--sf", args.sf,
                    "--out", str(corpus)], check=True)
    producers = args.producers.split(",")
    if any(not (corpus / "plans" / p / "failures.tsv").exists() for p in SEPARATE_PRODUCERS if p in producers):
        subprocess.run([str(REPO / "bench" / "run"), "tpcds-plans", "--sf", args.sf, "--out", str(corpus)], check=True)

    import duckdb
    from pyspark.sql import SparkSession

    import spark_substrait

    tables = sorted(p.stem for p in (corpus / "parquet").glob("*.parquet"))
    con = duckdb.connect()
    builder = (SparkSession.builder.master("local[2]").appName("dev-tpcds")
               .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    spark = spark_substrait.configure(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    for t in tables:
        path = corpus / "parquet" / f"{t}.parquet"
        con.execute(f"CREATE VIEW {t} AS SELECT * FROM '{path}'")
        spark.read.parquet(str(path)).createOrReplaceTempView(t)

    wrote_none = {}
    for line in (corpus / "plans" / "failures.tsv").read_text().splitlines():
        producer, n, why = line.split("\t", 2)
        wrote_none[(producer, int(n))] = why
    # isthmus' and ibis' failures have a file each, without the producer column.
    for producer in SEPARATE_PRODUCERS:
        own = corpus / "plans" / producer / "failures.tsv"
        for line in own.read_text().splitlines() if own.exists() else ():
            n, why = line.split("\t", 1)
            wrote_none[(producer, int(n))] = why
    only = {q.strip() for q in args.only.split(",") if q.strip()}
    outcomes = []
    for query in sorted((corpus / "queries").glob("q*.sql")):
        if only and query.stem not in only:
            continue
        n = int(query.stem[1:])
        expected = None
        for producer in producers:
            plan = corpus / "plans" / producer / f"{query.stem}.bin"
            started = time.monotonic()
            if (producer, n) in wrote_none or not plan.exists():
                outcome, detail = "no plan", wrote_none.get((producer, n), "")
            else:
                if expected is None:
                    expected = [tuple(map(comparable, r)) for r in con.execute(query.read_text()).fetchall()]
                try:
                    rows = spark.read.substrait(plan.read_bytes()).collect()
                    actual = [tuple(map(comparable, r)) for r in rows]
                    if same_rows(actual, expected):
                        outcome, detail = "right", f"{len(actual)} rows"
                    elif producer == "duckdb" and rollup_as_one_grouping(con, query.read_text(), actual):
                        outcome, detail = "as-written", ("DuckDB 1.0-1.1.3 write ROLLUP as one grouping of all its keys "
                                                         "(docs/producers.md): the rows of GROUP BY those keys")
                    else:
                        outcome, detail = "differs", f"{len(actual)} rows, DuckDB's SQL gives {len(expected)}"
                except Exception as e:  # noqa: BLE001 - classified: ours is refused, anything else is a bug
                    outcome, detail = classified(e)
            outcomes.append((producer, query.stem, outcome, f"{time.monotonic() - started:.1f}s", detail))
            print("\t".join(outcomes[-1]), flush=True)
    spark.stop()
    report(outcomes, Path(args.outcomes) if args.outcomes else corpus / "read-outcomes.tsv", producers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
