"""The pinned subset of the differential run (dev/function-semantics --ci): every mapped function,
every overload without options and each option value of its YAML once, on edge values and a few
seeded random ones, through spark-substrait (columns and literals), DuckDB 1.1.3 and DataFusion 55
SQL, against a model of the 0.108 YAMLs' words. It fails on any wrong or foreign answer of ours,
any engine difference no note explains and any refusal dev/function_semantics/refusals.py does not
explain (a known wrong answer listed in open_defects.py is reported, not failed). Runs in its own process (its own Spark session, a fixed seed)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_every_mapped_function_is_exact_on_the_pinned_subset():
    # Kept (build/ is ignored): `dev/function_semantics/main.py --doc-from` writes the doc from it.
    out = REPO / "build" / "function-semantics.json"
    out.parent.mkdir(exist_ok=True)
    proc = subprocess.run([sys.executable, str(REPO / "dev" / "function_semantics" / "main.py"), "--ci",
                           "--json", str(out)], capture_output=True, text=True, timeout=3600)
    summary = [line for line in proc.stdout.splitlines() if line.startswith("function-semantics:")]
    problems = [line for line in proc.stdout.splitlines()
                if " wrong: " in line or " foreign: " in line or "unexplained:" in line or "not explained" in line]
    assert proc.returncode == 0, "\n".join(summary + problems[:80]) + "\n" + proc.stderr[-3000:]
    assert summary and " 0 wrong or foreign, " in summary[-1] and \
        " 0 unexplained engine differences, 0 unexplained refusals" in summary[-1], summary
