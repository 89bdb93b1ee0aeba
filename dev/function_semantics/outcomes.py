"""What one call gives, and when two outcomes agree.

A model (the YAML's words worked out in Python) and each engine give one outcome per call:
a value, NULL, an error of a kind, or, from our reader only, a refusal (the plan converted
to an error naming an unsupported function, option or type) or a foreign error (anything
that is not one of our errors or an error an ERROR option asks for).
"""

import dataclasses
import decimal
import math
import struct

ERROR_KINDS = ("overflow", "division_by_zero", "domain", "log_zero", "invalid", "size")


class Outcome:
    label = "?"

    def short(self) -> str:
        return self.label


@dataclasses.dataclass(frozen=True)
class Value(Outcome):
    v: object
    label = "value"

    def short(self) -> str:
        return render(self.v)


@dataclasses.dataclass(frozen=True)
class Null(Outcome):
    label = "NULL"


NULL = Null()


@dataclasses.dataclass(frozen=True)
class Error(Outcome):
    """An error while the query runs; ``kind`` None matches any kind (engines' errors)."""

    kind: str | None = None
    detail: str = ""
    label = "error"

    def short(self) -> str:
        return f"<error {self.kind or ''}>".replace(" >", ">")


@dataclasses.dataclass(frozen=True)
class Refused(Outcome):
    condition: str
    detail: str = ""
    label = "refused"

    def short(self) -> str:
        return f"<refused {self.condition}>"


@dataclasses.dataclass(frozen=True)
class Foreign(Outcome):
    detail: str
    label = "foreign"

    def short(self) -> str:
        return f"<foreign error: {self.detail[:160]}>"


@dataclasses.dataclass(frozen=True)
class Undefined(Outcome):
    """The YAML leaves the value open (overflow SILENT): any value or NULL, never an error."""

    why: str = ""
    label = "undefined"

    def short(self) -> str:
        return "<any value>"


def render(v) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if v == 0:
            return "-0.0" if math.copysign(1, v) < 0 else "0.0"
        return repr(v)
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join("NULL" if x is None else render(x) for x in v) + "]"
    return str(v)


def ulps(a: float, b: float, single: bool) -> float:
    """How many units in the last place of ``a``'s format lie between a and b."""
    if single:
        if max(abs(a), abs(b)) > 3.4028234663852886e38:
            return math.inf
        ia = struct.unpack("<i", struct.pack("<f", a))[0]
        ib = struct.unpack("<i", struct.pack("<f", b))[0]
        ia = ia if ia >= 0 else -(ia & 0x7FFFFFFF)
        ib = ib if ib >= 0 else -(ib & 0x7FFFFFFF)
    else:
        ia = struct.unpack("<q", struct.pack("<d", a))[0]
        ib = struct.unpack("<q", struct.pack("<d", b))[0]
        ia = ia if ia >= 0 else -(ia & 0x7FFFFFFFFFFFFFFF)
        ib = ib if ib >= 0 else -(ib & 0x7FFFFFFFFFFFFFFF)
    return abs(ia - ib)


def same_value(expected, actual, tolerance_ulps: float = 0, single: bool = False) -> bool:
    """Values equal: floats bit for bit (NaN equals NaN, -0.0 is not 0.0) unless a tolerance in
    ulps is given; decimals by value; lists element by element."""
    if expected is None or actual is None:
        return expected is None and actual is None
    if isinstance(expected, float) or isinstance(actual, float):
        if not isinstance(expected, (int, float)) or not isinstance(actual, (int, float)) \
                or isinstance(expected, bool) or isinstance(actual, bool):
            return False
        e, a = float(expected), float(actual)
        if math.isnan(e) or math.isnan(a):
            return math.isnan(e) and math.isnan(a)
        if math.isinf(e) or math.isinf(a) or tolerance_ulps == 0:
            return e == a and math.copysign(1, e) == math.copysign(1, a)
        return ulps(e, a, single) <= tolerance_ulps
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            same_value(x, y, tolerance_ulps, single) for x, y in zip(expected, actual, strict=True))
    if isinstance(expected, decimal.Decimal) or isinstance(actual, decimal.Decimal):
        try:
            return decimal.Decimal(expected) == decimal.Decimal(actual)
        except (TypeError, decimal.InvalidOperation):
            return False
    if isinstance(expected, bool) != isinstance(actual, bool):
        return False
    return expected == actual


def agrees(expected: Outcome, actual: Outcome, tolerance_ulps: float = 0, single: bool = False) -> bool:
    """Whether ``actual`` is an answer ``expected`` allows."""
    if isinstance(expected, Undefined):
        return isinstance(actual, (Value, Null))
    if isinstance(expected, Error):
        return isinstance(actual, Error) and (expected.kind is None or actual.kind is None or expected.kind == actual.kind)
    if isinstance(expected, Null):
        return isinstance(actual, Null)
    if isinstance(expected, Value):
        return isinstance(actual, Value) and same_value(expected.v, actual.v, tolerance_ulps, single)
    return type(expected) is type(actual) and expected == actual
