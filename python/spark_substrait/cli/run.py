"""``spark-substrait run PLAN|-``: run a Substrait plan and print or write its rows.

::

    spark-substrait run q06.json --table lineitem=lineitem.parquet
    cat plan.bin | spark-substrait run - --table t=/data/t:orc --format csv > out.csv
    spark-substrait run plan.bin --master yarn --conf spark.executor.memory=4g --output s3a://b/out.parquet
    spark-substrait run plan.bin --remote sc://host:15002 --param 1=42 --param 2=2024-01-31
    spark-substrait run duckdb_plan.bin --allow-path /data/exports   # a plan that reads files itself

What can be checked without Spark is checked before the driver starts (cli/check.py).
"""

import argparse
import os
import re
import sys
from typing import Optional, Union

from spark_substrait.cli import check as cli_check, output as cli_output, session as cli_session
from spark_substrait.cli.output import UsageError
from spark_substrait.cli.status import Status

TABLE_FORMATS = ("parquet", "orc", "csv", "json", "text", "avro", "delta")
_BY_EXTENSION = {".parquet": "parquet", ".orc": "orc", ".csv": "csv", ".json": "json", ".jsonl": "json",
                 ".avro": "avro"}


def table_arg(text: str) -> tuple[str, str, Optional[str]]:
    """NAME=PATH or NAME=PATH:FORMAT (a trailing :FORMAT only when it names a format, so
    that URLs and Windows paths keep their colons)."""
    name, sep, rest = text.partition("=")
    if not sep or not name.strip() or not rest.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=PATH or NAME=PATH:FORMAT, got {text!r}")
    path, fmt = rest.strip(), None
    head, colon, tail = path.rpartition(":")
    if colon and tail.lower() in TABLE_FORMATS and head:
        path, fmt = head, tail.lower()
    return name.strip(), path, fmt


def _param_arg(text: str) -> tuple[int, str]:
    anchor, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"\d+", anchor.strip()):
        raise argparse.ArgumentTypeError(f"expected ANCHOR=VALUE with a whole-number anchor, got {text!r}")
    return int(anchor), value


def _count(text: str) -> int:
    if not re.fullmatch(r"\d+", text.strip()):
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return int(text)


def add_plan_options(parser: argparse.ArgumentParser) -> None:
    """The plan and what it needs: tables, the root, parameter values (run and explain)."""
    parser.add_argument("plan", metavar="PLAN", help="the plan file (binary protobuf or its JSON), or - for standard input")
    parser.add_argument("--table", metavar="NAME=PATH[:FORMAT]", action="append", type=table_arg, default=[],
                        help="a table for the plan's named tables; the format from :FORMAT ("
                             + ", ".join(TABLE_FORMATS) + "), else the extension, a folder being parquet (repeatable)")
    parser.add_argument("--root", metavar="N", type=_count, help="which root of a plan with several (0-based)")
    parser.add_argument("--param", metavar="ANCHOR=VALUE", action="append", type=_param_arg, default=[],
                        help="a value for a dynamic parameter, as text cast to the parameter's type (repeatable)")
    parser.add_argument("--null-param", metavar="ANCHOR", action="append", type=_count, default=[],
                        help="a NULL for a dynamic parameter (repeatable)")
    parser.add_argument("--allow-path", metavar="PREFIX", action="append", default=[],
                        help="let the plan read files (ReadRel local_files, e.g. DuckDB's read_parquet) under "
                             "PREFIX, a folder or a URI like s3a://bucket/dir (repeatable; the setting "
                             f"{cli_session.ALLOWED_PREFIXES}, docs/security.md)")


def add_parser(commands) -> None:
    run = commands.add_parser(
        "run", help="run a plan and print or write its rows",
        description="Run a Substrait plan on Spark and print or write its rows.")
    add_plan_options(run)
    run.add_argument("--format", choices=cli_output.FORMATS,
                     help="table (default), json (one object a line), csv (with a header) or parquet")
    run.add_argument("--output", metavar="PATH", help="write there instead of standard output (Spark writes "
                                                      "json, csv and parquet as a folder)")
    run.add_argument("--limit", metavar="N", type=_count, help="at most N rows")
    run.add_argument("--show", metavar="N", type=_count, help="the rows a table shows (default 20)")
    run.add_argument("--explain", action="store_true",
                     help="print Spark's plans (extended explain) first; to stderr when the rows are json, csv or parquet")
    cli_session.add_session_options(run)


def read_plan(source: str) -> Union[bytes, str]:
    """The plan's bytes, or its JSON text (told by a leading brace), from a file or stdin;
    ``SUBSTRAIT_MALFORMED_PLAN`` when it cannot be decoded at all (cli/check.py)."""
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        if not os.path.isfile(source):
            raise UsageError(f"no plan file at {source}")
        with open(source, "rb") as f:
            data = f.read()
    if not data.strip():
        raise UsageError("the plan is empty" if source == "-" else f"the plan file {source} is empty")
    if data.lstrip()[:1] == b"{":
        try:
            plan: Union[bytes, str] = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UsageError(f"the plan {source} starts like JSON but is not UTF-8 text ({e.reason} "
                             f"at byte {e.start})") from None
    else:
        plan = data
    cli_check.check_plan(plan, source)
    return plan


def table_sources(tables: list[tuple[str, str, Optional[str]]]) -> list[tuple[str, str, str]]:
    """``(name, path, format)`` of each ``--table``, its format told; a local path that does
    not exist is an error here, before Spark starts."""
    sources = []
    for name, path, fmt in tables:
        local = "://" not in path
        if local and not os.path.exists(path):
            raise UsageError(f"--table {name}={path}: no such file or folder")
        if fmt is None:
            ext = os.path.splitext(path.rstrip("/"))[1].lower()
            fmt = _BY_EXTENSION.get(ext)
            if fmt is None and (not local or os.path.isdir(path)):
                fmt = "delta" if local and os.path.isdir(os.path.join(path, "_delta_log")) else "parquet"
            if fmt is None:
                raise UsageError(f"--table {name}={path}: cannot tell the format; add :FORMAT ({', '.join(TABLE_FORMATS)})")
        sources.append((name, path, fmt))
    return sources


def register_tables(spark, tables: list[tuple[str, str, Optional[str]]], status: Optional[Status] = None) -> None:
    """Each ``--table`` as a temp view of the session (reading a file's schema is a job)."""
    sources = table_sources(tables)
    if not sources:
        return
    with (status or Status(quiet=True)).step(f"reading {', '.join(name for name, _, _ in sources)}"):
        for name, path, fmt in sources:
            _register(spark, name, path, fmt)


def _register(spark, name: str, path: str, fmt: str) -> None:
    reader = spark.read.format(fmt)
    if fmt == "csv":
        reader = reader.option("header", "true").option("inferSchema", "true")
    reader.load(path).createOrReplaceTempView(name)


def params(args: argparse.Namespace) -> Optional[dict[int, Optional[str]]]:
    values: dict[int, Optional[str]] = {}
    for anchor, value in args.param:
        values[anchor] = value
    for anchor in args.null_param:
        if anchor in values:
            raise UsageError(f"parameter {anchor} given both a value and --null-param")
        values[anchor] = None
    return values or None


def run(args: argparse.Namespace) -> int:
    # Everything that can be wrong without Spark is found before it starts.
    plan = read_plan(args.plan)
    table_sources(args.table)
    fmt = cli_output.output_format(args.format, args.output)
    values = params(args)
    status = Status(quiet=args.quiet)
    spark = cli_session.open_session(args, status)
    try:
        register_tables(spark, args.table, status)
        with status.step("converting the plan"):
            df = spark.read.substrait(plan, root=args.root, params=values)
        if args.limit is not None:
            df = df.limit(args.limit)
        if args.explain:
            _explain(df, to_stderr=fmt != "table" and not args.output)
        cli_output.emit(df, fmt, args.output, args.show if args.show is not None else (args.limit or 20))
    finally:
        spark.stop()
    return 0


def _explain(df, to_stderr: bool) -> None:
    """Spark's plans; on stderr when stdout carries machine-readable rows."""
    import contextlib

    with contextlib.redirect_stdout(sys.stderr if to_stderr else sys.stdout):
        df.explain(extended=True)
