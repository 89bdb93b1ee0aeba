"""Writes every TPC-DS query from spark.sql as Substrait (spark_substrait.to_substrait, the
optimized and the analyzed plan), reads each written plan back with spark.read.substrait and
compares the rows with Spark SQL's own answer to the query (issue 34).

Each (plan, query) is one of: right (Spark SQL's rows as a multiset, compared as main.py's
same_rows compares), differs (other rows: a bug to trace), refused (SUBSTRAIT_UNWRITABLE_PLAN
or another of the project's SUBSTRAIT_ errors: its condition and reason), failed (any other
error: a bug). Prints a summary per plan kind and writes every outcome to
<corpus>/write-outcomes.tsv.

    dev/tpcds-write [--sf 0.01] [--only q01,q17] [--plans optimized,analyzed]
"""

import argparse
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from main import REPO, comparable, first_line, same_rows  # noqa: E402


def classified(e: BaseException):
    """refused for the project's own errors (SUBSTRAIT_...), failed for anything else."""
    condition = getattr(e, "condition", None) or getattr(e, "getCondition", lambda: None)()
    if condition and str(condition).startswith("SUBSTRAIT_"):
        return "refused", f"{condition}: {first_line(e)}"
    return "failed", f"{type(e).__name__}: {first_line(e)}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sf", default="0.01")
    parser.add_argument("--only", default="", help="comma-separated query names (q01, q17, ...)")
    parser.add_argument("--plans", default="optimized,analyzed")
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
                plan = spark_substrait.to_substrait(df, optimized=kind == "optimized")
            except Exception as e:  # noqa: BLE001 - classified, never hidden
                outcome, detail = classified(e)
            else:
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
    (corpus / "write-outcomes.tsv").write_text("".join("\t".join(o) + "\n" for o in outcomes), encoding="utf-8")
    for kind in kinds:
        counts = Counter(o[2] for o in outcomes if o[0] == kind)
        print(f"{kind}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
