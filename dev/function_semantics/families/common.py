"""Pieces the family modules share: integer results under the overflow option, IEEE values."""

import math

from outcomes import NULL, Error, Outcome, Undefined, Value
from plans import Call
from spec import opt

# The differential session runs Spark 4's default, spark.sql.ansi.enabled=true: an option a
# plan leaves open takes the session's behaviour (docs/functions.md), ERROR for overflow and
# division by zero.
DEFAULT_OVERFLOW = "ERROR"


def int_result(call: Call, r: int, t=None) -> Outcome:
    """An exact integer result in the call's output type, or what the overflow option asks for."""
    lo, hi = (t or call.out).int_range()
    if lo <= r <= hi:
        return Value(r)
    mode = opt(call, "overflow", DEFAULT_OVERFLOW)
    if mode == "SATURATE":
        return Value(min(max(r, lo), hi))
    if mode == "SILENT":
        return Undefined("overflow SILENT: the result is not defined")
    return Error("overflow")


def trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y >= 0) else -q


def nan() -> Outcome:
    return Value(math.nan)


def signbit(x: float) -> bool:
    return math.copysign(1.0, x) < 0


def choice(option_value: str, error_kind: str) -> Outcome:
    """NAN / NULL / ERROR of an on_* option."""
    if option_value == "NULL":
        return NULL
    if option_value == "ERROR":
        return Error(error_kind)
    return Value(math.nan)
