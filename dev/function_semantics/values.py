"""Argument values: the edge values of every type, and seeded random ones.

Edge values are the ones where engines part ways: NULL, zero and -0.0, NaN, the infinities,
each integer type's MIN and MAX and their neighbours, the largest and smallest decimals of a
precision, leap days and month ends, daylight-saving edges, empty and non-ASCII text and
regular-expression metacharacters.
"""

import decimal
import random
import struct

from stypes import SType

DAY_US = 86_400_000_000


def f32(x: float) -> float:
    """x rounded to the nearest float32 (the value an fp32 column holds)."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def _days(y: int, m: int, d: int) -> int:
    import datetime
    return (datetime.date(y, m, d) - datetime.date(1970, 1, 1)).days


def _micros(y, m, d, hh=0, mm=0, ss=0, us=0) -> int:
    return _days(y, m, d) * DAY_US + ((hh * 60 + mm) * 60 + ss) * 1_000_000 + us


FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 0.1, -2.5, 1.5, 10.0, 1e-300, -1e-300, 5e-324,
               2.2250738585072014e-308, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308,
               float("inf"), float("-inf"), float("nan"), 9007199254740993.0, 4.35, 2.675, 1e-7]
FLOAT32_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 0.1, -2.5, 1.5, 10.0, 1e-40, -1e-40, 1.401298464324817e-45,
                 1.1754943508222875e-38, 3.4028234663852886e38, -3.4028234663852886e38, 1e30, -1e30,
                 float("inf"), float("-inf"), float("nan"), 16777217.0, 2.675]

TEXT_EDGES = ["", " ", "a", "A", "abc", "ABC", "aBc", "  padded  ", "x\ty\nz", "ß", "straße", "İstanbul", "ǅ",
              "éé", "e\u0301", "日本語", "😀", "a😀b", ".*+?^$()[]{}|\\", "a.b", "a%b_c", "100%", "\\", "'", '"',
              "Ω", "ﬁ", "ΣΑΣ", "ab" * 20]

DATE_EDGES = [0, -1, _days(2000, 2, 29), _days(1900, 2, 28), _days(2024, 2, 29), _days(2023, 12, 31),
              _days(2024, 1, 1), _days(2021, 1, 3), _days(2020, 12, 31), _days(1, 1, 1), _days(9999, 12, 31),
              _days(1969, 12, 31), _days(2023, 3, 26), _days(2023, 10, 29), _days(2024, 3, 10), _days(1582, 10, 15),
              _days(2020, 1, 31), _days(2020, 4, 30), _days(2021, 2, 28)]

TIMESTAMP_EDGES = [0, -1, 1, _micros(2000, 2, 29, 12, 30, 15, 123456), _micros(2024, 2, 29, 23, 59, 59, 999999),
                   _micros(2023, 12, 31, 23, 59, 59), _micros(2024, 1, 1), _micros(1969, 12, 31, 23, 59, 59, 999999),
                   _micros(2023, 3, 26, 1, 0, 0), _micros(2023, 3, 26, 1, 59, 59, 999999),
                   _micros(2023, 10, 29, 0, 59, 59), _micros(2023, 10, 29, 1, 0, 0),
                   _micros(2024, 3, 10, 7, 0, 0), _micros(2024, 11, 3, 6, 0, 0), _micros(1, 1, 1),
                   _micros(9999, 12, 31, 23, 59, 59, 999999), _micros(2021, 1, 3, 12), _micros(1900, 1, 1, 0, 0, 1)]

TIME_EDGES = [0, 1, DAY_US - 1, 12 * 3_600_000_000, 3_723_004_005, 45_296_789_012]


def decimal_edges(t: SType) -> list[decimal.Decimal]:
    p, s = t.p, t.s
    q = decimal.Decimal(1).scaleb(-s)
    largest = decimal.Decimal(10 ** p - 1).scaleb(-s)
    out = [decimal.Decimal(0), q, -q, largest, -largest, decimal.Decimal(1) if p > s else q,
           (decimal.Decimal(5) * q).quantize(q) if p > 1 else q]
    if p > s:
        out += [decimal.Decimal(-1), decimal.Decimal(10 ** (p - s - 1)), decimal.Decimal(2)]
    if s > 0:
        out += [decimal.Decimal("0.5").quantize(q) if s >= 1 else q, decimal.Decimal("-0.5").quantize(q)]
    return [x for x in dict.fromkeys(out) if abs(x) <= largest]


def edges(t: SType) -> list:
    """The edge values of ``t``, NULL first."""
    k = t.kind
    if t.is_integer or k in ("u8", "u16", "u32", "u64"):
        lo, hi = t.int_range()
        vals = [0, 1, -1, 2, -2, 3, 7, 10, 100, lo, lo + 1, hi, hi - 1, hi // 2, lo // 2, -7, -10]
        return [None] + [v for v in dict.fromkeys(vals) if lo <= v <= hi]
    if k == "fp64":
        return [None] + FLOAT_EDGES
    if k == "fp32":
        return [None] + [f32(x) for x in FLOAT32_EDGES]
    if k == "boolean":
        return [None, True, False]
    if t.is_text:
        vals = TEXT_EDGES if k != "fixedchar" else list(dict.fromkeys(x.ljust(t.p)[:t.p] for x in TEXT_EDGES))
        if k == "varchar":
            vals = [x for x in vals if len(x) <= t.p]
        return [None] + vals
    if k == "decimal":
        return [None] + decimal_edges(t)
    if k == "date":
        return [None] + DATE_EDGES
    if k in ("precision_timestamp", "precision_timestamp_tz"):
        return [None] + TIMESTAMP_EDGES
    if k == "precision_time":
        return [None] + TIME_EDGES
    if k == "interval_year":
        return [None, 0, 1, -1, 12, -12, 13, 119, -25, 1200]
    if k == "interval_day":
        return [None, 0, 1, -1, DAY_US, -DAY_US, DAY_US + 1_000_000, 36 * 3_600_000_000, -90 * DAY_US, 123_456_789]
    if k == "list":
        inner = [x for x in edges(t.elem)[:6]]
        return [None, [], [inner[1]] if len(inner) > 1 else [], inner[1:], [None], inner[:4]]
    raise ValueError(f"no edge values for {t}")


def random_value(t: SType, rng: random.Random):
    """A random value of ``t``: mostly ordinary, sometimes large; NULL one time in ten."""
    if rng.random() < 0.1:
        return None
    k = t.kind
    if t.is_integer or k in ("u8", "u16", "u32", "u64"):
        lo, hi = t.int_range()
        if rng.random() < 0.7:
            return max(lo, min(hi, rng.randint(-1000, 1000)))
        return rng.randint(lo, hi)
    if k == "fp64":
        r = rng.random()
        if r < 0.5:
            return round(rng.uniform(-1000, 1000), rng.randint(0, 6))
        if r < 0.8:
            return rng.uniform(-4, 4)
        return struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
    if k == "fp32":
        if rng.random() < 0.8:
            return f32(rng.uniform(-1000, 1000))
        return struct.unpack("f", struct.pack("I", rng.getrandbits(32)))[0]
    if k == "boolean":
        return rng.random() < 0.5
    if t.is_text:
        alphabet = "abcABC xyz.*_%éß日😀0123"
        n = t.p if k == "fixedchar" else rng.randint(0, min(t.p or 12, 12))
        return "".join(rng.choice(alphabet) for _ in range(n))
    if k == "decimal":
        digits = rng.randint(1, t.p)
        unscaled = rng.randint(-(10 ** digits - 1), 10 ** digits - 1)
        return decimal.Decimal(unscaled).scaleb(-t.s)
    if k == "date":
        return rng.randint(-30000, 40000)
    if k in ("precision_timestamp", "precision_timestamp_tz"):
        return rng.randint(-2_000_000_000, 4_000_000_000) * 1_000_000 + rng.randint(0, 999_999)
    if k == "precision_time":
        return rng.randint(0, DAY_US - 1)
    if k == "interval_year":
        return rng.randint(-2400, 2400)
    if k == "interval_day":
        return rng.randint(-400 * DAY_US, 400 * DAY_US)
    if k == "list":
        return [random_value(t.elem, rng) for _ in range(rng.randint(0, 5))]
    raise ValueError(f"no random values for {t}")
