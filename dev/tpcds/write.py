"""Writes every TPC-DS query from spark.sql as Substrait (spark_substrait.to_substrait, the
optimized and the analyzed plan), reads each written plan back with spark.read.substrait and
compares the rows with Spark SQL's own answer to the query (issue 34).

Each (plan, query) is one of: right (Spark SQL's rows as a multiset, compared as main.py's
same_rows compares), differs (other rows: a bug to trace), refused (SUBSTRAIT_UNWRITABLE_PLAN
or another of the project's SUBSTRAIT_ errors: its condition and reason), failed (any other
error: a bug). Prints a summary per plan kind and writes every outcome to
<corpus>/write-outcomes.tsv.

Two more kinds run the written plans on other engines, each against Spark SQL's rows: `duckdb`
(the optimized plan for target duckdb-1.1, read by DuckDB 1.1.3's from_substrait) and
`datafusion` (the analyzed plan for target datafusion-55, read by DataFusion 55's consumer
over the same Parquet files). There `refused` is the engine's own error (it cannot read the
plan), and `differs` is a wrong answer of the engine or of our plan: each is traced in
docs/tpcds.md.

    dev/tpcds-write [--sf 0.01] [--only q01,q17] [--plans optimized,analyzed,duckdb,datafusion]
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from main import REPO, classified, comparable, first_line, report, same_rows  # noqa: E402


def on_duckdb(plan: bytes):
    import duckdb

    sys.path.insert(0, str(REPO / "bench"))
    from prepare import substrait_extension

    # A fresh database per plan: an internal error of the extension invalidates its database.
    con = duckdb.connect()
    try:
        con.execute(f"LOAD '{substrait_extension()}'")
        return con.from_substrait(proto=plan).fetchall()
    finally:
        con.close()


def on_datafusion(plan: bytes, parquet: Path):
    from datafusion import SessionContext
    from datafusion.substrait import Consumer, Serde

    ctx = SessionContext()
    for path in sorted(parquet.glob("*.parquet")):
        ctx.register_parquet(path.stem, str(path))
    logical = Consumer.from_substrait_plan(ctx, Serde.deserialize_bytes(plan))
    return [tuple(r.values()) for r in ctx.create_dataframe_from_logical_plan(logical).to_pylist()]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sf", default="0.01")
    parser.add_argument("--only", default="", help="comma-separated query names (q01, q17, ...)")
    parser.add_argument("--plans", default="optimized,analyzed,duckdb,datafusion")
    args = parser.parse_args()
    corpus = REPO / "build" / "cache" / f"tpcds-sf{args.sf}"
    subprocess.run([sys.executable, str(REPO / "bench" / "prepare.py"), "--benchmark", "tpcds", "--sf", args.sf,
                    "--out", str(corpus)], check=True)

    # The real folder (build/cache may be a link): the local-files policy compares resolved paths.
    parquet = (corpus / "parquet").resolve()
    from pyspark.sql import SparkSession

    import spark_substrait

    builder = (SparkSession.builder.master("local[2]").appName("dev-tpcds-write")
               .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               # Some TPC-DS texts quote column aliases in double quotes ("order count" in q16).
               .config("spark.sql.ansi.doubleQuotedIdentifiers", "true")
               # Optimized plans read the corpus's Parquet files (LocalFiles).
               .config("spark.substrait.localFiles.allowedPrefixes", str(parquet)))
    spark = spark_substrait.configure(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    for path in sorted(parquet.glob("*.parquet")):
        spark.read.parquet(str(path)).createOrReplaceTempView(path.stem)

    only = {q.strip() for q in args.only.split(",") if q.strip()}
    kinds = [k.strip() for k in args.plans.split(",") if k.strip()]
    outcomes = []
    for query in sorted((corpus / "queries").glob("q*.sql")):
        if only and query.stem not in only:
            continue
        expected = None
        for kind in kinds:
            started = time.monotonic()
            try:
                df = spark.sql(query.read_text())
                if expected is None:
                    expected = [tuple(map(comparable, r)) for r in df.collect()]
                if kind == "duckdb":
                    plan = spark_substrait.to_substrait(df, target="duckdb-1.1")
                elif kind == "datafusion":
                    plan = spark_substrait.to_substrait(df, optimized=False, target="datafusion-55")
                else:
                    plan = spark_substrait.to_substrait(df, optimized=kind == "optimized")
            except Exception as e:  # noqa: BLE001 - classified, never hidden
                outcome, detail = classified(e)
            else:
                if kind in ("duckdb", "datafusion"):
                    try:
                        rows = on_duckdb(plan) if kind == "duckdb" else on_datafusion(plan, parquet)
                        actual = [tuple(map(comparable, r)) for r in rows]
                        outcome, detail = (("right", f"{len(actual)} rows") if same_rows(actual, expected)
                                           else ("differs", f"{len(actual)} rows, Spark SQL gives {len(expected)}"))
                    except Exception as e:  # noqa: BLE001 - the engine cannot read the plan: recorded
                        outcome, detail = "refused", f"{kind}: {first_line(e)}"
                    outcomes.append((kind, query.stem, outcome, f"{time.monotonic() - started:.1f}s", detail))
                    print("\t".join(outcomes[-1]), flush=True)
                    continue
                try:
                    actual = [tuple(map(comparable, r)) for r in spark.read.substrait(plan).collect()]
                    if same_rows(actual, expected):
                        outcome, detail = "right", f"{len(actual)} rows"
                    else:
                        outcome, detail = "differs", f"{len(actual)} rows, Spark SQL gives {len(expected)}"
                except Exception as e:  # noqa: BLE001 - the written plan does not read back: a bug
                    outcome, detail = classified(e)
                    detail = "reading back: " + detail
            outcomes.append((kind, query.stem, outcome, f"{time.monotonic() - started:.1f}s", detail))
            print("\t".join(outcomes[-1]), flush=True)
    spark.stop()
    report(outcomes, corpus / "write-outcomes.tsv", kinds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
