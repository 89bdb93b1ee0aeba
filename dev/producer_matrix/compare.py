"""Row comparison for the matrix and the fixture tests: as multisets (a plan's ORDER BY is
not compared; a LIMIT's rows are), numbers of any kind by value within a small tolerance
(DataFusion truncates decimal averages where Spark rounds: 1e-6 absolute), dates and
timestamps by their ISO text, NULL only equal to NULL."""

import base64
import datetime
import decimal
import math
from collections.abc import Sequence

ABS_TOL = 1.01e-6
REL_TOL = 1e-9


def decode(value):
    """The JSON form written by writers/common.py back to a comparable value."""
    if isinstance(value, dict):
        (kind, text), = value.items()
        if kind in ("list", "struct"):
            return (kind, tuple(decode(v) for v in text))
        if kind == "float":
            return ("n", float(text))
        if kind == "decimal":
            return ("n", float(decimal.Decimal(text)))
        if kind in ("date", "timestamp"):
            return (kind, text.replace(" ", "T"))
        if kind == "binary":
            return ("x", base64.b64decode(text))
        return (kind, str(text))
    return normal(value)


def normal(value):
    """A Python value (Spark Row field, DuckDB or pyarrow value) as a tagged comparable."""
    if value is None:
        return ("null", None)
    if isinstance(value, bool):
        return ("b", value)
    # A struct: a Spark Row (a tuple with fields), a DuckDB or pyarrow dict; by field order.
    if hasattr(value, "asDict") or isinstance(value, dict):
        return ("struct", tuple(normal(v) for v in (value.values() if isinstance(value, dict) else value)))
    if isinstance(value, (list, tuple)):
        return ("list", tuple(normal(v) for v in value))
    if isinstance(value, decimal.Decimal) and value.is_finite() and value.as_tuple().exponent < 0:
        # A decimal's declared scale is the plan's contract (isthmus declares AVG of a
        # DECIMAL(15,2) as DECIMAL(15,2)): equal when the reference rounds to it.
        return ("d", (float(value), 0.5 * 10.0 ** value.as_tuple().exponent))
    if isinstance(value, (int, float, decimal.Decimal)):
        return ("n", float(value))
    if isinstance(value, datetime.datetime):
        return ("timestamp", value.replace(tzinfo=None).isoformat())
    if isinstance(value, datetime.date):
        return ("date", value.isoformat())
    if isinstance(value, (bytes, bytearray)):
        return ("x", bytes(value))
    if isinstance(value, datetime.timedelta):
        return ("interval_s", str(value.total_seconds()))
    return ("s", str(value))


def _key(v):
    kind, x = v
    if kind in ("list", "struct"):
        return (kind, tuple(_key(e) for e in x))
    if kind == "d":
        kind, x = "n", x[0]
    if kind == "n":
        return (kind, "nan" if math.isnan(x) else f"{x:.4e}")
    return (kind, repr(x))


def _same(a, b) -> bool:
    if a[0] in ("list", "struct") or b[0] in ("list", "struct"):
        return a[0] == b[0] and len(a[1]) == len(b[1]) and all(_same(x, y) for x, y in zip(a[1], b[1], strict=True))
    if "d" in (a[0], b[0]) and {a[0], b[0]} <= {"d", "n"}:
        x, tol = a[1] if a[0] == "d" else (a[1], 0.0)
        y, tol2 = b[1] if b[0] == "d" else (b[1], 0.0)
        return abs(x - y) <= max(tol, tol2) + ABS_TOL + REL_TOL * abs(y)
    if a[0] == b[0] == "n":
        x, y = a[1], b[1]
        if x == y:  # infinities too (their difference is NaN)
            return True
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        return abs(x - y) <= ABS_TOL + REL_TOL * abs(y)
    return a == b


def difference(actual: Sequence[Sequence], expected: Sequence[Sequence]) -> str | None:
    """None when the rows are the same multiset, else what differs (first few)."""
    if len(actual) != len(expected):
        return f"{len(actual)} rows, the producer's engine gives {len(expected)}"
    a = sorted((tuple(r) for r in actual), key=lambda r: [_key(v) for v in r])
    e = sorted((tuple(r) for r in expected), key=lambda r: [_key(v) for v in r])
    for ra, re_ in zip(a, e, strict=True):
        if len(ra) != len(re_):
            return f"{len(ra)} columns, the producer's engine gives {len(re_)}"
        if not all(_same(x, y) for x, y in zip(ra, re_, strict=True)):
            return f"row {_show(ra)}, the producer's engine gives {_show(re_)}"
    return None


def _show(row) -> str:
    return "(" + ", ".join("NULL" if k == "null" else repr(v[0] if k == "d" else v) for k, v in row) + ")"


def normal_rows(rows) -> list[tuple]:
    return [tuple(normal(v) for v in r) for r in rows]


def decoded_rows(rows) -> list[tuple]:
    return [tuple(decode(v) for v in r) for r in rows]
