"""Where ``spark-substrait run`` puts the rows: standard output or ``--output``, as a table,
JSON lines, CSV or Parquet.

To standard output rows stream from the executors partition by partition
(``toLocalIterator``), so a large result is never held whole in the driver; to ``--output``
Spark writes the folder itself (CSV with a header line), except ``table``, a text file.
"""

import csv
import glob
import os
import shutil
import sys
import tempfile
from typing import Optional

FORMATS = ("table", "json", "csv", "parquet")
_BY_EXTENSION = {".json": "json", ".jsonl": "json", ".csv": "csv", ".parquet": "parquet", ".txt": "table"}


class UsageError(Exception):
    """A command line that cannot be carried out (exit status 2)."""


def output_format(fmt: Optional[str], output: Optional[str]) -> str:
    """--format, else the --output path's extension, else a table."""
    if fmt:
        return fmt
    if output:
        ext = os.path.splitext(output.rstrip("/"))[1].lower()
        if ext not in _BY_EXTENSION:
            raise UsageError(f"--output {output}: say --format {'|'.join(FORMATS)}, or use a path ending in "
                             f"{', '.join(sorted(_BY_EXTENSION))}")
        return _BY_EXTENSION[ext]
    return "table"


def emit(df, fmt: str, output: Optional[str], table_rows: int) -> None:
    if output:
        _to_path(df, fmt, output, table_rows)
        print(f"wrote {output}")
    elif fmt == "table":
        df.show(table_rows, truncate=False)
    elif fmt == "json":
        for line in df.toJSON().toLocalIterator():
            sys.stdout.write(line + "\n")
    elif fmt == "csv":
        _csv(df, sys.stdout)
    else:
        _parquet_to_stdout(df)
    sys.stdout.flush()


def _to_path(df, fmt: str, path: str, table_rows: int) -> None:
    if fmt == "table":
        with open(path, "w", encoding="utf-8") as f:
            f.write(df._show_string(table_rows, truncate=False))
        return
    writer = df.write.mode("overwrite").format(fmt)
    if fmt == "csv":
        writer = writer.option("header", "true")
    writer.save(path)


def _csv(df, out) -> None:
    """RFC 4180 with a header; NULL is an empty field, as Spark's CSV writer writes it."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(df.columns)
    for row in df.toLocalIterator():
        writer.writerow(["" if v is None else _text(v) for v in row])


def _text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (bytes, bytearray)):
        return v.hex()
    if hasattr(v, "isoformat"):
        return v.isoformat(sep=" ") if hasattr(v, "hour") else v.isoformat()
    return str(v)


def _parquet_to_stdout(df) -> None:
    """One Parquet file, written by Spark to a temporary folder, then copied to stdout."""
    if sys.stdout.isatty():
        raise UsageError("Parquet is binary: write it with --output PATH, or pipe standard output into a file")
    folder = tempfile.mkdtemp(prefix="spark-substrait-out-")
    try:
        df.coalesce(1).write.mode("overwrite").parquet(os.path.join(folder, "out"))
        parts = glob.glob(os.path.join(folder, "out", "*.parquet"))
        with open(parts[0], "rb") as f:
            shutil.copyfileobj(f, sys.stdout.buffer)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
