"""The README's quick start, run as written: its shell lines and Python blocks, taken from
README.md itself, in a fresh interpreter, in a folder laid out like the checkout's.

A snippet that opens a file the checkout does not have, or reads a table nobody registered,
fails here, not in a new user's first minutes. ``pip install .`` is the one line not run:
the test's virtualenv has the package installed already (dev/test installs it).
"""

import re
import shlex
import shutil
from decimal import Decimal

import duckdb

from helpers import EXAMPLES, REPO, run_python

README = REPO / "README.md"


def quick_start_blocks(text: str, language: str):
    """The ```language blocks of the sections whose heading starts with "Quick start"."""
    blocks = []
    for section in re.split(r"^## ", text, flags=re.M):
        if section.startswith("Quick start"):
            blocks += re.findall(rf"^```{language}\n(.*?)^```", section, flags=re.M | re.S)
    return blocks


def test_the_quick_start_has_python_and_shell_blocks():
    text = README.read_text(encoding="utf-8")
    assert quick_start_blocks(text, "python"), "no ```python block in a Quick start section"
    assert quick_start_blocks(text, "bash"), "no ```bash block in a Quick start section"
    # The extractor is the test's own: a block outside the quick starts is not taken.
    assert quick_start_blocks("## Other\n```python\nx\n```\n## Quick start: y\n```python\nz\n```\n", "python") == ["z\n"]


def test_the_readme_quick_start_runs_as_written(tmp_path):
    # The checkout's examples/, without the generated data a developer may already have.
    (tmp_path / "examples").mkdir()
    for name in ("q06.json", "generate_data.py"):
        shutil.copy(EXAMPLES / name, tmp_path / "examples" / name)
    text = README.read_text(encoding="utf-8")

    for block in quick_start_blocks(text, "bash"):
        for line in block.splitlines():
            command = shlex.split(line, comments=True)
            if not command or command[:2] == ["pip", "install"]:
                continue
            assert command[0] == "python", f"a quick-start command this test does not know how to run: {line}"
            result = run_python(command[1:], cwd=tmp_path)
            assert result.returncode == 0, f"{line}\n{result.stderr[-3000:]}"

    outputs = []
    for block in quick_start_blocks(text, "python"):
        result = run_python(["-c", block], cwd=tmp_path)
        assert result.returncode == 0, f"{block}\n{result.stderr[-3000:]}"
        outputs.append(result.stdout)

    # The snippet shows TPC-H Q6's revenue over the table the README's own line generated:
    # DuckDB's answer over the same files.
    con = duckdb.connect()
    q6 = con.execute("SELECT query FROM tpch_queries() WHERE query_nr = 6").fetchone()[0]
    files = tmp_path / "examples" / "data" / "lineitem" / "*.parquet"
    con.execute(f"CREATE VIEW lineitem AS SELECT * FROM read_parquet('{files}')")
    (expected,), = con.execute(q6).fetchall()
    shown = re.findall(r"^\|\s*(-?[\d.]+)\s*\|$", "".join(outputs), flags=re.M)
    assert "revenue" in "".join(outputs), outputs
    assert [Decimal(v) for v in shown] == [Decimal(expected)], (outputs, expected)
