"""CI's pinned subset of the TPC-DS corpus (issue 34; the full run is `dev/tpcds-read`,
docs/tpcds.md): TPC-DS at scale 0.01 from DuckDB's dsdgen into tests/.data/, plans of the
99 queries from DuckDB 1.1.3 and DataFusion 55, and for the pinned queries (each one a shape
TPC-DS has and TPC-H has not: GROUPING(), ROLLUP, a simple CASE, stddev, a date plus days,
two aggregates on one key, windows, INTERSECT / EXCEPT, DuckDB's constant_or_null) the rows
Spark reads from the plan against DuckDB's SQL answer to the query on the same files.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# dev/tpcds/main.py's row comparison (by its path: dev/producer_matrix has a main.py too).
_spec = importlib.util.spec_from_file_location("tpcds_main", REPO / "dev" / "tpcds" / "main.py")
tpcds_main = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tpcds_main)
comparable, same_rows = tpcds_main.comparable, tpcds_main.same_rows
DATA = REPO / "tests" / ".data" / "tpcds-sf0.01"

PINNED = {
    "datafusion": ("q05", "q14", "q17", "q36", "q39", "q47", "q70", "q72", "q83", "q86"),
    "duckdb": ("q03", "q13", "q17", "q39", "q42", "q48", "q72", "q07", "q27"),
}


@pytest.fixture(scope="module")
def tpcds(spark):
    subprocess.run([sys.executable, str(REPO / "bench" / "prepare.py"), "--benchmark", "tpcds", "--sf", "0.01",
                    "--out", str(DATA)], check=True, timeout=1200)
    import duckdb

    con = duckdb.connect()
    tables = sorted(p.stem for p in (DATA / "parquet").glob("*.parquet"))
    for t in tables:
        path = DATA / "parquet" / f"{t}.parquet"
        con.execute(f"CREATE VIEW {t} AS SELECT * FROM '{path}'")
        spark.read.parquet(str(path)).createOrReplaceTempView(t)
    yield con
    con.close()
    for t in tables:
        spark.catalog.dropTempView(t)


@pytest.mark.parametrize("producer,query", [(p, q) for p, qs in PINNED.items() for q in qs])
def test_tpcds_plan_gives_the_sql_rows(spark, tpcds, producer, query):
    plan = DATA / "plans" / producer / f"{query}.bin"
    assert plan.exists(), f"{producer} wrote no plan for {query} (bench/prepare.py's failures.tsv says why)"
    expected = [tuple(map(comparable, r)) for r in tpcds.execute((DATA / "queries" / f"{query}.sql").read_text()).fetchall()]
    actual = [tuple(map(comparable, r)) for r in spark.read.substrait(plan.read_bytes()).collect()]
    assert same_rows(actual, expected), f"{producer} {query}: {len(actual)} rows, DuckDB's SQL gives {len(expected)}"
