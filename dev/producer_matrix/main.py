"""dev/producer-matrix: see the command's header. Subcommands run in order by `all`."""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from releases import select  # noqa: E402

REPO = HERE.parents[1]
# Our own folder, not build/cache (which worktrees may share): ignored by .gitignore.
CACHE = REPO / "build" / "producers"


def main() -> int:
    ap = argparse.ArgumentParser(prog="dev/producer-matrix")
    ap.add_argument("step", choices=["install", "data", "plans", "run", "duckdb-reads", "report", "fixtures", "all"])
    ap.add_argument("releases", nargs="*", help="release ids (datafusion-40.1.0) or producers (ibis); all when none")
    ap.add_argument("--pinned", action="store_true", help="only CI's pinned subset")
    ap.add_argument("--retry", action="store_true", help="try again releases that did not install or plan")
    args = ap.parse_args()
    releases = select(args.releases, args.pinned)
    CACHE.mkdir(parents=True, exist_ok=True)
    steps = ["install", "data", "plans", "run", "duckdb-reads", "report"] if args.step == "all" else [args.step]
    for step in steps:
        print(f"\n==> producer-matrix: {step}", flush=True)
        if step == "install":
            from install import install_all
            install_all(releases, CACHE, args.retry)
        elif step == "data":
            from data import ensure_data
            ensure_data(CACHE / "data")
        elif step == "plans":
            from plans import write_all
            write_all(releases, CACHE, args.retry)
        elif step == "run":
            from spark_run import run_all
            run_all(releases, CACHE)
        elif step == "duckdb-reads":
            from consumer import read_all
            read_all(releases, CACHE)
        elif step == "fixtures":
            from fixtures import export
            export(CACHE, REPO / "tests" / "fixtures" / "producers", [r.id for r in releases] if args.releases else None)
        elif step == "report":
            from report import write_report
            write_report(CACHE, REPO / "docs" / "producers.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
