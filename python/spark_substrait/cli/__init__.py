"""``spark-substrait``: Substrait plans on Apache Spark from the command line.

::

    spark-substrait run PLAN|- [--table NAME=PATH[:FORMAT]] [--format table|json|csv|parquet] …
    spark-substrait explain PLAN [--table …] [--format text|json|svg|html]
    spark-substrait write "SELECT …" [--table …] [-o plan.bin] [--target duckdb-1.1] [--explain]

All take spark-submit's options (``--master``, ``--conf``, ``--driver-memory``) or
``--remote sc://…`` (cli/session.py); docs/cli.md has the details.

Exit status: 0 success; 2 an invalid plan or a command line that cannot be carried out;
3 a valid plan asking for something this consumer does not support; 1 anything else. The
``SUBSTRAIT_`` message (or the error's) goes to stderr without a traceback; ``--debug``
adds it. Where the command line can fix the error (a table the plan names, a file it
reads), a second line says with which option.
"""

import argparse
import os
import re
import sys
import traceback
from typing import Optional

from spark_substrait.cli import (
    explain as cli_explain,
    run as cli_run,
    session as cli_session,
    version as cli_version,
    write as cli_write,
)
from spark_substrait.cli.output import UsageError

EXIT_OK, EXIT_FAILED, EXIT_INVALID, EXIT_UNSUPPORTED = 0, 1, 2, 3
# Kept for callers of the earlier name: an invalid plan or command line.
EXIT_PLAN_ERROR = EXIT_INVALID

# name -> module with add_parser(commands) and run(args) -> exit status
COMMANDS = {"run": cli_run, "explain": cli_explain, "write": cli_write}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spark-substrait", description="Run Substrait plans on Apache Spark.")
    parser.add_argument("--version", action=cli_version.VersionAction, help="the package's version and the Spark versions of its jars")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS.values():
        module.add_parser(commands)
    return parser


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if hasattr(args, "remote"):
        cli_session.check_session_options(args, parser)
    debug = args.debug
    try:
        return COMMANDS[args.command].run(args)
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 - every failure becomes a message and an exit status
        if debug:
            traceback.print_exc()
        message, status = _describe(e)
        print(message, file=sys.stderr)
        return status


def _describe(e: Exception):
    """The message to print and the exit status for a failure."""
    import spark_substrait

    if isinstance(e, cli_session.SessionStartError):
        return f"spark-substrait: the Spark driver did not start: {e}", EXIT_FAILED
    if isinstance(e, cli_session.ConnectClientMissing):
        return f"spark-substrait: {e}", EXIT_FAILED
    if isinstance(e, UsageError):
        return f"spark-substrait: {e}", EXIT_INVALID
    if isinstance(e, spark_substrait.SubstraitUnsupportedError):
        return e.message + _hint(e), EXIT_UNSUPPORTED
    if isinstance(e, spark_substrait.SubstraitInvalidPlanError):
        return e.message + _hint(e), EXIT_INVALID
    if isinstance(e, spark_substrait.SubstraitPlanError):
        return e.message, EXIT_FAILED
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"spark-substrait: {type(e).__name__}: {first}", EXIT_FAILED


def _hint(e) -> str:
    """The option that fixes a plan's error from the command line, as a second line."""
    if e.condition == "SUBSTRAIT_TABLE_NOT_FOUND":
        table = e.parameters.get("table", "NAME")
        return f"\nspark-substrait: the plan reads the table {table}: add --table {table}=PATH[:FORMAT]"
    if e.condition == "SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED":
        path = e.parameters.get("path", "")
        folder = os.path.dirname(re.sub(r"^file:(//)?", "", path).rstrip("/")) or "FOLDER"
        return (f"\nspark-substrait: the plan reads files itself: let it read them with --allow-path {folder} "
                "(repeatable; docs/security.md)")
    return ""


if __name__ == "__main__":
    sys.exit(main())
