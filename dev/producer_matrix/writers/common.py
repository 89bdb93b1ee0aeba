"""Shared by the writers (each runs in its release's own virtualenv, with only that
release's packages): the query set, the output layout and the row encoding.

out/<id>.bin         the plan the release wrote
out/<id>.rows.json   the producer engine's own rows for the same query on the same data
out/<id>.failed      why the producer wrote no plan (its own error)
out/<id>.sql         the query text
"""

import base64
import datetime
import decimal
import json
import math
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from queries import all_queries, tables  # noqa: E402,F401


def encode(value):
    """A JSON form of one value that keeps its kind (decimal, date, float) for the comparison."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return {"float": "nan" if math.isnan(value) else repr(value)}
    if isinstance(value, decimal.Decimal):
        return {"decimal": str(value)}
    if isinstance(value, datetime.datetime):
        return {"timestamp": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"date": value.isoformat()}
    if isinstance(value, datetime.timedelta):
        return {"interval_s": value.total_seconds()}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"binary": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, (list, tuple)):
        return {"list": [encode(v) for v in value]}
    if isinstance(value, dict):  # a struct (DuckDB, pyarrow): its fields in order
        return {"struct": [encode(v) for v in value.values()]}
    if hasattr(value, "item"):  # numpy scalars
        return encode(value.item())
    return {"repr": repr(value)}


def first_line(e: BaseException) -> str:
    text = str(e).strip()
    return (text.splitlines()[0] if text else type(e).__name__)[:400]


def write_query(out: Path, qid: str, sql: str, make_plan, engine_rows) -> None:
    """make_plan() -> bytes; engine_rows() -> (columns, rows). A failure of either is recorded."""
    (out / f"{qid}.sql").write_text(sql + "\n", encoding="utf-8")
    try:
        plan = make_plan()
        (out / f"{qid}.bin").write_bytes(plan)
    except Exception as e:  # noqa: BLE001 - the producer's failure is the result
        (out / f"{qid}.failed").write_text(f"{type(e).__name__}: {first_line(e)}\n", encoding="utf-8")
        return
    try:
        columns, rows = engine_rows()
        payload = {"columns": list(columns), "rows": [[encode(v) for v in r] for r in rows]}
    except Exception as e:  # noqa: BLE001
        payload = {"engine_failed": f"{type(e).__name__}: {first_line(e)}",
                   "trace": traceback.format_exc(limit=3)}
    (out / f"{qid}.rows.json").write_text(json.dumps(payload), encoding="utf-8")


def arrow_rows(table):
    """(columns, rows) of a pyarrow Table, by position (names may repeat)."""
    return table.column_names, list(zip(*[c.to_pylist() for c in table.columns], strict=True))


def args():
    data, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    return data, out
