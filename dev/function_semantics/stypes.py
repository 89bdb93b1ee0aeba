"""Substrait types as the differential run uses them: the plan's JSON type and literal, the
Arrow type the engines read, and the SQL type names of DuckDB and DataFusion.

Python values per type: ints for integers (unsigned ones too), floats (fp32 values are
float32-exact), ``decimal.Decimal`` for decimals, ``str``, ``bool``, dates as days since
1970-01-01, times and timestamps as microseconds (of the day, since the epoch),
interval_year as total months, interval_day as total microseconds, lists as lists.
"""

import base64
import dataclasses
import decimal
import math
import re
from typing import Optional

import pyarrow as pa

INTEGERS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
UNSIGNED = {"u8": 8, "u16": 16, "u32": 32, "u64": 64}
FLOATS = ("fp32", "fp64")
NULLABLE = "NULLABILITY_NULLABLE"

# Python's default decimal context keeps 28 digits: a 38-digit decimal (10**38 - 1, scaled)
# would be rounded by scaleb and arithmetic. Every decimal of the run is exact at 200 digits.
decimal.getcontext().prec = 200


@dataclasses.dataclass(frozen=True)
class SType:
    """A concrete Substrait type: ``kind`` with its parameters (precision/length, scale, element)."""

    kind: str
    p: int | None = None
    s: int | None = None
    elem: Optional["SType"] = None

    # ---- names ----------------------------------------------------------------------
    def __str__(self) -> str:
        if self.kind == "decimal":
            return f"decimal<{self.p},{self.s}>"
        if self.kind in ("varchar", "fixedchar"):
            return f"{self.kind}<{self.p}>"
        if self.kind in ("precision_timestamp", "precision_timestamp_tz", "precision_time", "interval_day"):
            return f"{self.kind}<{self.p}>"
        if self.kind == "list":
            return f"list<{self.elem}>"
        return self.kind

    def short(self) -> str:
        """The type's part of a function signature (``add:i64_i64``)."""
        return {
            "boolean": "bool", "string": "str", "varchar": "vchar", "fixedchar": "fchar", "decimal": "dec",
            "precision_timestamp": "pts", "precision_timestamp_tz": "ptstz", "precision_time": "pt",
            "interval_year": "iyear", "interval_day": "iday", "list": "list",
        }.get(self.kind, self.kind if self.kind not in UNSIGNED else f"u!{self.kind}")

    @property
    def is_integer(self) -> bool:
        return self.kind in INTEGERS

    @property
    def is_float(self) -> bool:
        return self.kind in FLOATS

    @property
    def is_text(self) -> bool:
        return self.kind in ("string", "varchar", "fixedchar")

    def int_range(self):
        if self.kind in INTEGERS:
            bits = INTEGERS[self.kind]
            return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        bits = UNSIGNED[self.kind]
        return 0, (1 << bits) - 1

    # ---- Substrait JSON ----------------------------------------------------------------
    def json(self, nullable: bool = True) -> dict:
        n = {"nullability": NULLABLE if nullable else "NULLABILITY_REQUIRED"}
        k = self.kind
        if k == "boolean":
            return {"bool": n}            # the Type message's field is `bool` (its literal's `boolean`)
        if k in INTEGERS or k in FLOATS or k in ("string", "date"):
            return {k: n}
        if k in UNSIGNED:
            return {"userDefined": dict(n, typeReference=UNSIGNED_ANCHORS[k])}
        if k == "decimal":
            return {"decimal": dict(n, precision=self.p, scale=self.s)}
        if k == "varchar":
            return {"varchar": dict(n, length=self.p)}
        if k == "fixedchar":
            return {"fixedChar": dict(n, length=self.p)}
        if k in ("precision_timestamp", "precision_timestamp_tz", "precision_time"):
            return {_camel(k): dict(n, precision=self.p)}
        if k == "interval_year":
            return {"intervalYear": n}
        if k == "interval_day":
            return {"intervalDay": dict(n, precision=self.p)}
        if k == "list":
            return {"list": dict(n, type=self.elem.json())}
        raise ValueError(f"no JSON type for {self}")

    def literal(self, v) -> dict:
        """The literal expression of ``v`` (``None``: a NULL of this type)."""
        if v is None:
            return {"literal": {"null": self.json(), "nullable": True}}
        return {"literal": dict(self._literal_value(v), nullable=True)}

    def _literal_value(self, v) -> dict:
        k = self.kind
        if k in ("i8", "i16", "i32"):
            return {k: v}
        if k == "i64":
            return {k: str(v)}
        if k in FLOATS:
            return {k: json_float(v)}
        if k == "boolean":
            return {"boolean": v}
        if k == "string":
            return {"string": v}
        if k == "varchar":
            return {"varChar": {"value": v, "length": self.p}}
        if k == "fixedchar":
            return {"fixedChar": v}
        if k == "date":
            return {"date": v}
        if k == "decimal":
            return {"decimal": {"value": decimal_bytes(v, self.s), "precision": self.p, "scale": self.s}}
        if k in ("precision_timestamp", "precision_timestamp_tz"):
            return {_camel(k): {"precision": self.p, "value": str(v)}}
        if k == "precision_time":
            return {"precisionTime": {"precision": self.p, "value": str(v)}}
        if k == "interval_year":
            years, months = divmod(abs(v), 12)
            sign = -1 if v < 0 else 1
            return {"intervalYearToMonth": {"years": sign * years, "months": sign * months}}
        if k == "interval_day":
            sign = -1 if v < 0 else 1
            days, rest = divmod(abs(v), 86_400_000_000)
            seconds, micros = divmod(rest, 1_000_000)
            return {"intervalDayToSecond": {"days": sign * days, "seconds": sign * seconds,
                                            "subseconds": str(sign * micros), "precision": 6}}
        if k == "list":
            if not v:
                return {"emptyList": {"type": self.elem.json()}}
            return {"list": {"values": [self.elem.literal(x)["literal"] for x in v]}}
        if k in UNSIGNED:
            return {"userDefined": {"typeReference": UNSIGNED_ANCHORS[k],
                                    "struct": {"fields": [{"string": str(v)}]}}}
        raise ValueError(f"no literal for {self}")

    # ---- Arrow and SQL -------------------------------------------------------------------
    def arrow(self) -> pa.DataType:
        k = self.kind
        simple = {"i8": pa.int8(), "i16": pa.int16(), "i32": pa.int32(), "i64": pa.int64(),
                  "fp32": pa.float32(), "fp64": pa.float64(), "boolean": pa.bool_(), "date": pa.date32(),
                  "string": pa.string(), "varchar": pa.string(), "fixedchar": pa.string(),
                  "u8": pa.uint8(), "u16": pa.uint16(), "u32": pa.uint32(), "u64": pa.uint64()}
        if k in simple:
            return simple[k]
        if k == "decimal":
            return pa.decimal128(self.p, self.s)
        if k == "precision_timestamp":
            return pa.timestamp("us")
        if k == "precision_timestamp_tz":
            return pa.timestamp("us", tz="UTC")
        if k == "precision_time":
            return pa.time64("us")
        if k == "interval_year" or k == "interval_day":
            return pa.month_day_nano_interval()
        if k == "list":
            return pa.list_(self.elem.arrow())
        raise ValueError(f"no Arrow type for {self}")

    def arrow_array(self, values: list) -> pa.Array:
        k = self.kind
        if k == "date":
            return pa.array(values, pa.int32()).cast(pa.date32())
        if k in ("precision_timestamp", "precision_timestamp_tz"):
            return pa.array(values, pa.int64()).cast(self.arrow())
        if k == "precision_time":
            return pa.array(values, pa.int64()).cast(pa.time64("us"))
        if k == "interval_year":
            return pa.array([None if v is None else (v, 0, 0) for v in values], pa.month_day_nano_interval())
        if k == "interval_day":
            return pa.array([None if v is None else (0, v // 86_400_000_000, (v % 86_400_000_000) * 1000)
                             for v in values], pa.month_day_nano_interval())
        return pa.array(values, self.arrow())

    def sql(self, engine: str) -> str:
        """The type's name in DuckDB's or DataFusion's SQL."""
        k = self.kind
        names = {"i8": "TINYINT", "i16": "SMALLINT", "i32": "INTEGER", "i64": "BIGINT", "fp32": "REAL",
                 "fp64": "DOUBLE", "boolean": "BOOLEAN", "string": "VARCHAR", "varchar": "VARCHAR",
                 "fixedchar": "VARCHAR", "date": "DATE", "precision_timestamp": "TIMESTAMP",
                 "precision_timestamp_tz": "TIMESTAMPTZ" if engine == "duckdb" else "TIMESTAMP",
                 "u8": "UTINYINT", "u16": "USMALLINT", "u32": "UINTEGER", "u64": "UBIGINT"}
        if k == "decimal":
            return f"DECIMAL({self.p},{self.s})"
        if k in names:
            return names[k]
        raise ValueError(f"no SQL type for {self} in {engine}")


UNSIGNED_ANCHORS = {"u8": 101, "u16": 102, "u32": 103, "u64": 104}


def _camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(p.title() for p in rest)


def json_float(v: float):
    """A float as protobuf's JSON writes it: NaN and the infinities as strings; -0.0 kept."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def decimal_bytes(v: decimal.Decimal, scale: int) -> str:
    """The 16-byte little-endian two's complement of the unscaled value, base64 (the literal's form)."""
    unscaled = int(v.scaleb(scale).to_integral_exact())
    return base64.b64encode(unscaled.to_bytes(16, "little", signed=True)).decode()


_PARAMS = re.compile(r"^([a-z_!0-9]+)(?:<(.*)>)?\??$", re.IGNORECASE)


def parse(text: str) -> SType:
    """A concrete type from its YAML / test-case spelling (``decimal<38,2>``, ``list<i32>``, ``u!u8``)."""
    text = text.strip()
    m = _PARAMS.match(text)
    if not m:
        raise ValueError(f"cannot read type {text!r}")
    name, params = m.group(1).lower(), m.group(2)
    name = {"bool": "boolean", "str": "string", "vchar": "varchar", "fchar": "fixedchar", "dec": "decimal",
            "pts": "precision_timestamp", "ptstz": "precision_timestamp_tz", "pt": "precision_time",
            "iyear": "interval_year", "iday": "interval_day"}.get(name, name)
    if name.startswith("u!"):
        return SType(name[2:])
    if name == "list":
        return SType("list", elem=parse(params))
    nums = [int(x) for x in params.split(",")] if params else []
    if name == "decimal":
        return SType("decimal", *(nums or [38, 0]))
    if name in ("varchar", "fixedchar", "precision_timestamp", "precision_timestamp_tz", "precision_time",
                "interval_day"):
        return SType(name, nums[0] if nums else 6)
    return SType(name)
