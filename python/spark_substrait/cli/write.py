"""``spark-substrait write "SELECT …"``: a Spark SQL query's plan written as Substrait.

::

    spark-substrait write "SELECT * FROM t WHERE x > 1" --table t=t.parquet -o plan.bin
    spark-substrait write "SELECT …" --table t=t.parquet --target duckdb-1.1 -o plan.json
    spark-substrait write "SELECT …" --table t=t.parquet --explain   # the written plan's tree

The plan is the query's optimized Catalyst plan (``--analyzed``: the analyzed one, views by
name), written by ``spark_substrait.to_substrait`` (docs/writing.md). ``-o`` writes binary, or
JSON for a ``.json`` path or ``--json``; without ``-o`` the JSON is printed. ``--explain``
prints the plan explorer's text for the written plan: its relation tree and what Spark
reads it back as.

By default the plan is written in the pinned spec's encoding, which our reader reads but
DuckDB 1.1 and DataFusion 55 do not (files as ``file:`` URIs, which DataFusion takes for
table names; URNs, which DuckDB 1.1 does not know): a note on stderr names the ``--target``
for each. Over ``--remote`` the server's plugin writes the plan (docs/connect.md).
"""

import argparse
import sys

from spark_substrait.cli import run as cli_run, session as cli_session
from spark_substrait.cli.output import UsageError
from spark_substrait.cli.status import Status

# Said when no --target is given: which plan each consumer reads (docs/writing.md, "Targets").
DEFAULT_TARGET_NOTE = (
    "this plan is in the pinned spec's encoding, for spark-substrait and current consumers; "
    "DuckDB 1.1 reads --target duckdb-1.1, DataFusion 55 reads --analyzed --target datafusion-55 "
    "(tables by name: it reads no files) (docs/writing.md)")


def add_parser(commands) -> None:
    write = commands.add_parser(
        "write", help="write a Spark SQL query's plan as a Substrait plan",
        description="Write the plan Spark makes for a SQL query as a Substrait plan (docs/writing.md).")
    write.add_argument("sql", metavar="SQL", help="the query (one statement)")
    write.add_argument("--table", metavar="NAME=PATH[:FORMAT]", action="append", type=cli_run.table_arg, default=[],
                       help="a table the query reads, as for run (repeatable)")
    write.add_argument("-o", "--output", metavar="PATH",
                       help="write the plan there: binary, or JSON for a .json path or --json (default: JSON to stdout)")
    write.add_argument("--json", action="store_true", help="write JSON to --output")
    write.add_argument("--analyzed", action="store_true",
                       help="write the analyzed plan (views and tables by name, subqueries as written) "
                            "instead of the optimized one")
    write.add_argument("--target", metavar="CONSUMER", choices=("duckdb-1.1", "datafusion-55"),
                       help="the encoding a consumer release reads: duckdb-1.1 or datafusion-55 (with --analyzed) "
                            "(default: the pinned spec, which neither reads)")
    write.add_argument("--explain", action="store_true",
                       help="print the written plan's tree (the plan explorer's text) instead of the plan")
    cli_session.add_session_options(write)


def run(args: argparse.Namespace) -> int:
    import spark_substrait

    if args.remote and args.explain:
        raise UsageError("--explain shows the written plan with the plan explorer, which runs in a classic Spark "
                         "driver, not over --remote: write the plan with --remote, then explain it locally")
    cli_run.table_sources(args.table)
    as_json = args.json or not args.output or args.output.lower().endswith(".json")
    status = Status(quiet=args.quiet)
    if args.target is None:
        status.note(DEFAULT_TARGET_NOTE)
    spark = cli_session.open_session(args, status)
    try:
        cli_run.register_tables(spark, args.table, status)
        with status.step("writing the plan"):
            df = spark.sql(args.sql)
            plan = spark_substrait.to_substrait(df, format="json" if as_json else "binary",
                                                optimized=not args.analyzed, target=args.target)
        if args.explain:
            sys.stdout.write(spark_substrait.explain(plan, spark=spark).to_text())
        if args.output:
            if as_json:
                with open(args.output, "w", encoding="utf-8") as f:
                    f.write(plan)
            else:
                with open(args.output, "wb") as f:
                    f.write(plan)
            print(f"wrote {args.output}", file=sys.stderr if args.explain else sys.stdout)
        elif not args.explain:
            sys.stdout.write(plan if plan.endswith("\n") else plan + "\n")
    finally:
        spark.stop()
    return 0
