"""The DuckDB consumer column: every release's plans read by duckdb-extension-substrait 1.1.3
(writers/read_duckdb.py in that release's virtualenv). Redone when a release's plans change."""

import subprocess
from pathlib import Path

from install import venv_python
from releases import Release

HERE = Path(__file__).resolve().parent
READER = "duckdb-1.1.3"


def read_all(releases: list[Release], cache: Path) -> None:
    python = venv_python(cache / READER)
    if not python.exists():
        print(f"  {READER} is not installed: no DuckDB consumer column")
        return
    folders = []
    for r in releases:
        plans, out = cache / r.id / "plans", cache / r.id / "duckdb-consumer.json"
        if (plans / "done.txt").exists() and (not out.exists() or out.stat().st_mtime < (plans / "done.txt").stat().st_mtime):
            folders.append(str(plans))
    if folders:
        subprocess.run([str(python), str(HERE / "writers" / "read_duckdb.py"), str(cache / "data"), *folders], check=True)
