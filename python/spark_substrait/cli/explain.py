"""``spark-substrait explain PLAN``: the plan explorer on the command line.

Prints the text form by default; ``--format json|svg|html`` prints another form, and
``--output PATH`` writes the form the path's extension names (``.svg``, ``.html``,
``.json``, else text) instead. Nothing runs: the plan is only converted, analysed and
optimized (named tables must still be registered, with ``--table``, to resolve). The
explorer runs in the driver JVM, so not over ``--remote``: explain a plan locally, over the
same tables.
"""

import argparse
import sys

from spark_substrait.cli import run as cli_run, session as cli_session
from spark_substrait.cli.output import UsageError
from spark_substrait.cli.status import Status

FORMATS = ("text", "json", "svg", "html")


def add_parser(commands) -> None:
    explain = commands.add_parser(
        "explain", help="show the Substrait plan beside the Catalyst plan it became",
        description="Show which relation became which Catalyst operator(s), which functions were "
                    "mapped to what, where a producer's spelling was read, and Spark's analyzed "
                    "and optimized plans. Nothing runs.")
    cli_run.add_plan_options(explain)
    explain.add_argument("--format", choices=FORMATS, default=None,
                         help="what to print: text (default), json, svg or html")
    explain.add_argument("--output", metavar="PATH",
                         help="write to PATH instead of printing; the form comes from --format or "
                              "else the extension: .svg, .html, .json, anything else text")
    cli_session.add_session_options(explain)


def run(args: argparse.Namespace) -> int:
    import spark_substrait

    if args.remote:
        raise UsageError("explain runs in a classic Spark driver (the plan explorer is in its JVM), not over "
                         "--remote: explain the plan locally, with --table for the tables it reads")
    plan = cli_run.read_plan(args.plan)
    cli_run.table_sources(args.table)
    values = cli_run.params(args)
    status = Status(quiet=args.quiet)
    spark = cli_session.open_session(args, status)
    try:
        cli_run.register_tables(spark, args.table, status)
        with status.step("converting the plan"):
            explanation = spark_substrait.explain(plan, spark=spark, root=args.root, params=values)
        render = {"json": explanation.to_json, "svg": explanation.to_svg, "html": explanation.to_html,
                  "text": explanation.to_text}
        if args.output and args.format is None:
            print(f"wrote {explanation.save(args.output)}")
        elif args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(render[args.format]())
            print(f"wrote {args.output}")
        else:
            sys.stdout.write(render[args.format or "text"]())
    finally:
        spark.stop()
    return 0
