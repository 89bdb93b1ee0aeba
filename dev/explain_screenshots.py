"""dev/explain-screenshots: the plan explorer's pictures in docs/, made by the command a user runs.

- docs/explain-q06.svg (the README's picture): ``spark-substrait explain examples/q06.json
  --table lineitem=… --format svg``. tests/test_explain_browser.py runs the same command
  (``q06_svg_command``) and fails when the committed picture is not what it prints.
- docs/explain-duckdb-q03.png and docs/explain-datafusion-q03.png: TPC-H Q3 as DuckDB 1.1.3 and
  DataFusion 55 write it, rendered with ``spark-substrait explain … --format html`` and
  photographed by headless Chromium (Debian's ``chromium`` package).

The tables are TPC-H at scale factor 0.01 from DuckDB's dbgen (its lineitem has the types
examples/q06.json declares), written to build/explain-screenshots/. Run from dev/explain-screenshots,
which installs the package first.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
WORK = ROOT / "build" / "explain-screenshots"
Q3_TABLES = ("customer", "orders", "lineitem")
BROWSERS = ("chromium", "chromium-headless-shell", "chromium-browser", "google-chrome")


def browser() -> str | None:
    """Headless Chromium's command, or None when none is installed."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    headless_shell = Path("/usr/lib/chromium/chromium-headless-shell")
    return str(headless_shell) if headless_shell.exists() else None


def chromium(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs headless Chromium (as root it needs --no-sandbox) with a profile of its own."""
    command = browser()
    if command is None:
        raise RuntimeError("no Chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory(prefix="explain-chromium-") as profile:
        return subprocess.run([command, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                               "--no-first-run", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                               "--force-device-scale-factor=1", *args],
                              capture_output=True, text=True, timeout=timeout)


def dump_dom(page: Path) -> str:
    """The page's DOM after Chromium has loaded it."""
    result = chromium(["--dump-dom", page.resolve().as_uri()])
    if result.returncode != 0 or "<svg" not in result.stdout:
        raise RuntimeError(f"chromium --dump-dom failed ({result.returncode}): {result.stderr[-2000:]}")
    return result.stdout


def screenshot(page: Path, png: Path, width: int, height: int) -> None:
    result = chromium([f"--screenshot={png.resolve()}", f"--window-size={width},{height}", page.resolve().as_uri()])
    if result.returncode != 0 or not png.is_file():
        raise RuntimeError(f"chromium --screenshot failed ({result.returncode}): {result.stderr[-2000:]}")


def svg_size(markup: str) -> list[int]:
    m = re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', markup)
    return [int(m.group(1)), int(m.group(2))]


def tpch(folder: Path) -> dict[str, object]:
    """TPC-H sf=0.01 as parquet files, and Q3's plans from DuckDB 1.1.3 and DataFusion 55."""
    import duckdb
    from datafusion import SessionContext
    from datafusion.substrait import Serde

    sys.path.insert(0, str(ROOT / "tests"))
    from helpers import duckdb_substrait_extension

    folder.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    con.execute(f"LOAD '{duckdb_substrait_extension()}'")
    con.execute("CALL dbgen(sf=0.01)")
    tables = {}
    for name in sorted(set(Q3_TABLES) | {"lineitem"}):
        tables[name] = folder / f"{name}.parquet"
        con.execute(f"COPY {name} TO '{tables[name]}' (FORMAT PARQUET)")
    q3 = con.execute("SELECT query FROM tpch_queries() WHERE query_nr = 3").fetchone()[0]
    duck = folder / "duckdb-q03.json"
    duck.write_text(con.execute("CALL get_substrait_json(?)", [q3]).fetchone()[0], encoding="utf-8")
    con.close()
    ctx = SessionContext()
    for name in Q3_TABLES:
        ctx.register_parquet(name, str(tables[name]))
    fusion = folder / "datafusion-q03.bin"
    fusion.write_bytes(Serde.serialize_to_plan(q3.strip().rstrip(";"), ctx).encode())
    return {"tables": tables, "duckdb": duck, "datafusion": fusion}


def cli(args: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``spark-substrait ARGS`` (as ``python -m spark_substrait``, the same program)."""
    return subprocess.run([sys.executable, "-m", "spark_substrait", *args], capture_output=True, text=True,
                          cwd=str(cwd), timeout=600)


def q06_svg_command(lineitem: Path) -> list[str]:
    """The README picture's command (run in the repository's root)."""
    return ["explain", "examples/q06.json", "--table", f"lineitem={lineitem}", "--format", "svg", "--quiet"]


def explain_html(plan: Path, tables: dict[str, Path], html: Path) -> None:
    tables_args = [a for name in Q3_TABLES for a in ("--table", f"{name}={tables[name]}")]
    result = cli(["explain", str(plan), *tables_args, "--format", "html", "--output", str(html), "--quiet"])
    if result.returncode != 0:
        raise RuntimeError(f"spark-substrait explain {plan.name} failed: {result.stderr[-3000:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--svg-only", action="store_true", help="only docs/explain-q06.svg (no Chromium needed)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    data = tpch(WORK)
    tables = data["tables"]

    result = cli(q06_svg_command(tables["lineitem"]))
    if result.returncode != 0:
        print(result.stderr[-3000:], file=sys.stderr)
        return 1
    (DOCS / "explain-q06.svg").write_text(result.stdout, encoding="utf-8")
    print(f"wrote docs/explain-q06.svg ({svg_size(result.stdout)[0]}x{svg_size(result.stdout)[1]})")
    if args.svg_only:
        return 0
    if browser() is None:
        print("no Chromium for the screenshots: apt-get install chromium", file=sys.stderr)
        return 1
    for producer in ("duckdb", "datafusion"):
        html = WORK / f"explain-{producer}-q03.html"
        explain_html(data[producer], tables, html)
        markup = html.read_text(encoding="utf-8")
        width, height = svg_size(markup)
        png = DOCS / f"explain-{producer}-q03.png"
        # The page: a heading above the graph; the folded text below it stays out of the picture.
        screenshot(html, png, min(width + 32, 4000), min(height + 70, 6000))
        relations = len(set(re.findall(r">\[(\d+)\] ", markup)))
        print(f"wrote docs/{png.name} ({width}x{height}, {relations} relations)")
    print(f"done in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
