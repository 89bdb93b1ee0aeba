"""``spark-substrait run PLAN``: run a Substrait plan on a local Spark session;
``spark-substrait explain PLAN``: show what it becomes in Catalyst (see _explain_cli).

::

    spark-substrait run examples/q06.json --table lineitem=examples/data/lineitem
    spark-substrait explain examples/q06.json --table lineitem=examples/data/lineitem
    python -m spark_substrait run plan.bin --table t=t.parquet --output out.parquet

Exit status: 0 on success, 2 when the plan cannot be run (the message goes to stderr),
1 on other failures.
"""

import argparse
import os
import sys
from typing import Callable, List, Optional, Tuple

from spark_substrait import _explain_cli

EXIT_PLAN_ERROR = 2

_READERS = {".parquet": "parquet", ".csv": "csv", ".orc": "orc", ".json": "json"}
_WRITERS = {".parquet": "parquet", ".csv": "csv", ".json": "json", ".orc": "orc"}


def _table_arg(text: str) -> Tuple[str, str]:
    name, sep, path = text.partition("=")
    if not sep or not name.strip() or not path.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, got {text!r}")
    return name.strip(), path.strip()


def _positive(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spark-substrait", description="Run Substrait plans on Apache Spark.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = commands.add_parser(
        "run", help="run a plan on a local Spark session",
        description="Run a Substrait plan (.bin or .json) on a local[2] Spark session.")
    run.add_argument("plan", metavar="PLAN", help="the plan file: .json (protobuf JSON) or binary")
    run.add_argument(
        "--table", metavar="NAME=PATH", action="append", type=_table_arg, default=[],
        help="register a table for the plan's named tables: a .parquet/.csv/.orc/.json file "
             "or a folder of parquet files (repeatable)")
    run.add_argument("--show", metavar="N", type=_positive, default=20,
                     help="print the first N rows (default 20)")
    run.add_argument("--output", metavar="PATH",
                     help="write the result instead of printing it; the format comes from the "
                          "extension: .parquet, .csv, .json or .orc")
    run.add_argument("--explain", action="store_true",
                     help="print the logical and physical plans (extended explain)")
    _explain_cli.add_parser(commands, _table_arg)
    return parser


def _register_table(spark, name: str, path: str) -> None:
    if not os.path.exists(path):
        raise FileNotFoundError(f"--table {name}={path}: no such file or folder")
    ext = os.path.splitext(path.rstrip("/"))[1].lower()
    fmt = _READERS.get(ext, "parquet" if os.path.isdir(path) else None)
    if fmt is None:
        raise ValueError(
            f"--table {name}={path}: cannot tell the format; use a .parquet, .csv, .orc or "
            ".json file, or a folder of parquet files")
    reader = spark.read.format(fmt)
    if fmt == "csv":
        reader = reader.option("header", "true").option("inferSchema", "true")
    reader.load(path).createOrReplaceTempView(name)


def _write(df, path: str) -> None:
    ext = os.path.splitext(path.rstrip("/"))[1].lower()
    fmt = _WRITERS.get(ext)
    if fmt is None:
        raise ValueError(f"--output {path}: use a .parquet, .csv, .json or .orc path")
    writer = df.write.mode("overwrite").format(fmt)
    if fmt == "csv":
        writer = writer.option("header", "true")
    writer.save(path)


def _session():
    from pyspark.sql import SparkSession

    import spark_substrait

    builder = (SparkSession.builder.master("local[2]").appName("spark-substrait")
               .config("spark.ui.showConsoleProgress", "true"))
    return spark_substrait.configure(builder).getOrCreate()


def with_plan_session(args: argparse.Namespace, body: Callable[[object], None]) -> int:
    """Checks the plan file, opens the local session with ``--table`` registered and runs
    ``body(spark)``; a plan that cannot run gives its message and EXIT_PLAN_ERROR."""
    import spark_substrait

    if not os.path.isfile(args.plan):
        print(f"spark-substrait: no plan file at {args.plan}", file=sys.stderr)
        return EXIT_PLAN_ERROR
    spark = _session()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        for name, path in args.table:
            _register_table(spark, name, path)
        body(spark)
    except spark_substrait.SubstraitPlanError as e:
        print(e.message, file=sys.stderr)
        return EXIT_PLAN_ERROR
    except (FileNotFoundError, ValueError) as e:
        print(f"spark-substrait: {e}", file=sys.stderr)
        return EXIT_PLAN_ERROR
    finally:
        spark.stop()
    return 0


def run(args: argparse.Namespace) -> int:
    def body(spark) -> None:
        df = spark.read.substrait(args.plan)
        if args.explain:
            df.explain(extended=True)
        if args.output:
            _write(df, args.output)
            print(f"wrote {args.output}")
        else:
            df.show(args.show, truncate=False)

    return with_plan_session(args, body)


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "run":
        return run(args)
    if args.command == "explain":
        return _explain_cli.run(args, with_plan_session)
    return 1  # unreachable: argparse requires a command


if __name__ == "__main__":
    sys.exit(main())
