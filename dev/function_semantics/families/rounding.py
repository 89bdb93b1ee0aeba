"""functions_rounding and functions_rounding_decimal: ceil, floor, and round(x, s) with every
value of the rounding option, for integer, floating-point and decimal x, the scale s a column,
a literal beside a column x, and a literal in the all-literal plans; negative and huge s too.

The model rounds the exact value of x (a float's binary value: 2.675 is 2.67499999999999982…)
to s decimal places in the option's mode (default TIE_TO_EVEN, the first value the YAML
lists, as for functions_arithmetic's options), then takes the nearest value of the result
type; a zero result keeps the sign of x (IEEE 754's roundToIntegral). Reading x as its
shortest decimal string (2.675) is the documented other reading (``SHORTEST``).
"""

import decimal
import math
import struct
from fractions import Fraction

from families.common import signbit
from floats import round_fraction
from outcomes import NULL, Error, Value, ulps
from plans import Arg, Call
from spec import EngineNote, Reading, Spec, opt, register

R = "functions_rounding"
RD = "functions_rounding_decimal"

MODES = ("TIE_TO_EVEN", "TIE_AWAY_FROM_ZERO", "TRUNCATE", "CEILING", "FLOOR", "AWAY_FROM_ZERO", "TIE_DOWN",
         "TIE_UP", "TIE_TOWARDS_ZERO", "TIE_TO_ODD")
# The rounding option left open: "if omitted, the consumer is free to choose any supported
# behavior" (FunctionOption); the session's is SQL's round, ties away from zero (docs/functions.md).
DEFAULT_MODE = "TIE_AWAY_FROM_ZERO"


def round_integer(q: Fraction, mode: str) -> int:
    """``q`` rounded to an integer in one of the YAML's ten rounding modes."""
    fl = q.numerator // q.denominator
    rem = q - fl
    if rem == 0:
        return fl
    ce = fl + 1
    toward_zero, away = (fl, ce) if q > 0 else (ce, fl)
    if mode == "TRUNCATE":
        return toward_zero
    if mode == "CEILING":
        return ce
    if mode == "FLOOR":
        return fl
    if mode == "AWAY_FROM_ZERO":
        return away
    if rem != Fraction(1, 2):
        return fl if rem < Fraction(1, 2) else ce
    return {"TIE_TO_EVEN": fl if fl % 2 == 0 else ce, "TIE_TO_ODD": fl if fl % 2 else ce,
            "TIE_AWAY_FROM_ZERO": away, "TIE_TOWARDS_ZERO": toward_zero, "TIE_DOWN": fl, "TIE_UP": ce}[mode]


def round_places(q: Fraction, s: int, mode: str):
    """``q`` rounded to ``s`` decimal places: a Fraction, or ``("huge", sign)`` when s is so
    negative that the result is a non-zero multiple of 10**-s beyond any type."""
    if q == 0:
        return Fraction(0)
    if s < -400:   # |q| < 10**310: q * 10**s lies strictly between -1/2 and 1/2
        n = round_integer(Fraction(1 if q > 0 else -1, 10 ** 10), mode)
        return Fraction(0) if n == 0 else ("huge", n)
    scale = Fraction(10) ** s
    return Fraction(round_integer(q * scale, mode)) / scale


def _mode(call) -> str:
    return opt(call, "rounding", DEFAULT_MODE)


def _args(call, row):
    """The value arguments in order: row values, and literal arguments' fixed values."""
    it = iter(row)
    return [a.value if a.literal else next(it) for a in call.args if a.enum is None and a.lam is None]


def _too_large(call, why: str):
    """A result its type cannot hold: the YAML has no overflow option for round; the
    session's behaviour (ANSI) is an error. (Reading NULL_ON_OVERFLOW: the YAML's
    nullable return type.)"""
    return Error("overflow", why)


# ---- x read exactly or as its shortest decimal --------------------------------------------------------
def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def shortest(x: float, single: bool) -> Fraction:
    """The shortest decimal that reads back as x (in binary32 for ``single``)."""
    if not single:
        return Fraction(decimal.Decimal(repr(x)))
    for digits in range(1, 10):
        text = f"{x:.{digits}g}"
        if _f32(float(text)) == x:
            return Fraction(decimal.Decimal(text))
    return Fraction(x)


def _round_float(call, x: float, s: int, reading) -> float:
    single = call.out.kind == "fp32"
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    if s > 1100:   # every float's exact expansion has fewer decimal places
        return x
    r = round_places(reading(x, single), s, _mode(call))
    if isinstance(r, tuple):
        return math.copysign(math.inf, r[1])
    return round_fraction(r, None, single, -1 if signbit(x) else 1)


def _round_model(reading=lambda x, single: Fraction(x), null_on_overflow=False):
    def model(call, row):
        x, s = _args(call, row)
        if x is None or s is None:
            return NULL
        t = call.out
        mode = _mode(call)
        if t.is_float:
            return Value(_round_float(call, x, s, reading))
        if t.is_integer:
            if s >= 0:
                return Value(x)
            r = round_places(Fraction(x), s, mode)
            lo, hi = t.int_range()
            if isinstance(r, tuple) or not lo <= r <= hi:
                return NULL if null_on_overflow else _too_large(call, "the rounded integer exceeds its type")
            return Value(int(r))
        # decimal<P,S> -> decimal<min(P+1,38), S>
        if s >= t.s:
            return Value(x)
        r = round_places(Fraction(x), s, mode)
        if isinstance(r, tuple) or abs(r) * 10 ** t.s > 10 ** t.p - 1:
            return NULL if null_on_overflow else _too_large(call, "the rounded decimal exceeds its precision")
        return Value(decimal.Decimal(r.numerator * 10 ** t.s // r.denominator).scaleb(-t.s))
    return model


S_EDGES = [None, 0, 1, 2, 3, -1, -2, -3, 5, 10, 17, 20, 38, -5, -10, -20, -38, 308, 400, -308, -400,
           2147483647, -2147483648]


def _x_edges(t, edges):
    extra = []
    if t.is_float:
        extra = [2.5, -2.5, 0.125, -0.125, 1.005, 0.285, 8793.5, -8793.5, 125.0, -125.0, 0.35, 1234.5678, 15.0,
                 -0.4, 2.0000007152457373]
        if t.kind == "fp32":
            extra = [_f32(v) for v in extra]
    elif t.is_integer:
        lo, hi = t.int_range()
        extra = [v for v in (5, 15, 25, -5, -15, -25, 125, -125, 8793, 8750, -8750, 50, -50, 2 ** 53 + 1, -(2 ** 53) - 3)
                 if lo <= v <= hi]
    elif t.kind == "decimal":
        q = decimal.Decimal(1).scaleb(-t.s)
        if t.s >= 2:
            extra = [decimal.Decimal("2.25"), decimal.Decimal("-2.25"), decimal.Decimal("2.35"), decimal.Decimal("0.05"),
                     decimal.Decimal("-0.05"), decimal.Decimal("2.75"), decimal.Decimal("-2.75")]
        if t.p - t.s >= 5:
            extra += [decimal.Decimal("8793.5").quantize(q) if t.s else decimal.Decimal(8793),
                      decimal.Decimal(8750), decimal.Decimal(-8750), decimal.Decimal(150), decimal.Decimal(-250)]
        largest = decimal.Decimal(10 ** t.p - 1).scaleb(-t.s)
        extra = [v for v in extra if abs(v) <= largest]
    return edges + [v for v in extra if v not in edges]


def _round_rows(call, rng, n_random):
    """s a literal: every edge value of x, and random ones. s a column: Spark's round takes a
    constant scale only, so the column plan is expected to fail as a whole (and is split row by
    row): each edge x with two scales, each edge scale with some x, and a few random pairs."""
    import values
    xt = call.value_types[0]
    xs = _x_edges(xt, values.edges(xt))
    if len(call.value_types) == 1:
        return [(x,) for x in xs] + [(values.random_value(xt, rng),) for _ in range(n_random)]
    pairs = [(x, s) for x in xs[1:] for s in (2, -1)]
    if n_random < 20:   # the CI run: fewer rows, the column plan is split row by row when it fails
        pairs = rng.sample(pairs, 12)
    rows = pairs + [(xs[1 + i % (len(xs) - 1)], s) for i, s in enumerate(S_EDGES)]
    rows += [(None, 2)] + [(values.random_value(xt, rng), rng.choice(S_EDGES[1:20])) for _ in range(n_random // 2)]
    return rows


def _s_literals(full: bool):
    return (2, 0, -1, -2, 1) if full else (1, -1)


def _round_variants(call: Call, full: bool):
    """The call as it is (x and s columns), and with s a literal beside a column x."""
    out = [call]
    for v in _s_literals(full):
        args = list(call.args)
        args[1] = Arg(type=args[1].type, literal=True, value=v)
        out.append(Call(call.ext, call.name, call.kind, args, call.out, dict(call.options)))
    return out


# ---- engines ------------------------------------------------------------------------------------------------
def _duck_round(call) -> str | None:
    if opt(call, "rounding", "TIE_AWAY_FROM_ZERO") != "TIE_AWAY_FROM_ZERO":
        return None
    s = "{1}" if not call.args[1].literal else str(call.args[1].value)
    return f"CAST(round({{0}}, {s}) AS {call.out.sql('duckdb')})"


def _df_round(call) -> str | None:
    if opt(call, "rounding", "TIE_AWAY_FROM_ZERO") != "TIE_AWAY_FROM_ZERO":
        return None
    s = "{1}" if not call.args[1].literal else str(call.args[1].value)
    if call.out.kind == "fp32":
        return f"CAST(round(CAST({{0}} AS DOUBLE), {s}) AS REAL)"
    return f"CAST(round({{0}}, {s}) AS {call.out.sql('datafusion')})"


def _float_extreme(call, row, exp, got) -> bool:
    """x * 10^s (or x / 10^-s) outside binary64's finite range: the engine's product overflows."""
    if not call.out.is_float:
        return False
    x, s = _args(call, row)
    if x is None or s is None or math.isnan(x) or math.isinf(x) or x == 0:
        return s is not None and abs(s) >= 300
    return abs(s) >= 290 or math.log10(abs(x)) + s > 307


FLOAT_EXTREME = ("\"Rounding the value `x` to `s` decimal places\" for any s: the engine scales x by 10^s in binary64, "
                 "which overflows (NaN, an infinity, 0 or x itself instead of x rounded)")


def _duck_wide_scale(call, row, exp, got) -> bool:
    """DuckDB's integer round computes 10^|s| as an integer: |s| >= 19 overflows."""
    x, s = _args(call, row)
    return call.out.is_integer and s is not None and abs(s) >= 19 and isinstance(got, Error)


def _int_as_float(call, row, exp, got) -> bool:
    """An integer x rounded through a double: digits beyond 2^53 are lost."""
    x, s = _args(call, row)
    return call.out.is_integer and x is not None and abs(x) > 2 ** 53 and (hasattr(got, "v") or isinstance(got, Error))


def _duck_infinity(call, row, exp, got) -> bool:
    x, s = _args(call, row)
    return call.out.is_float and x is not None and not math.isfinite(x) and hasattr(got, "v") and got.v == 0


def _duck_unchecked_decimal(call, row, exp, got) -> bool:
    return call.out.kind == "decimal" and isinstance(exp, Error) and hasattr(got, "v") and \
        abs(got.v) > 10 ** (call.out.p - call.out.s) - 1


def _duck_decimal_column_scale(call, row, exp, got) -> bool:
    return call.out.kind == "decimal" and not call.args[1].literal and isinstance(got, Error)


def _float_identity_off(call, row, exp, got) -> bool:
    """round of an fp64 whose exact answer is x itself, which the engine gives within 2 ulps."""
    return (call.out.is_float and isinstance(exp, Value) and isinstance(got, Value) and isinstance(row[0], float)
            and exp.v == row[0] and math.isfinite(exp.v) and isinstance(got.v, float) and ulps(exp.v, got.v, False) <= 2)


def _duck_decimal_beyond_digits(call, row, exp, got) -> bool:
    t = call.value_types[0]
    if t.kind != "decimal" or not isinstance(got, Value) or got.v != 0:
        return False
    scale = next((a.value for a in call.args[1:] if a.literal), row[1] if len(row) > 1 else None)
    return scale is not None and scale < 0 and -scale >= t.p - t.s


ROUND_NOTES = [
    EngineNote("duckdb", _float_extreme, FLOAT_EXTREME),
    EngineNote("datafusion", _float_extreme, FLOAT_EXTREME),
    EngineNote("duckdb", _duck_decimal_column_scale,
               "\"Rounding the value `x` to `s` decimal places\" for any i32 s: DuckDB 1.1.3 rounds a decimal only to a "
               "constant s (\"ROUND(DECIMAL, INTEGER) with non-constant precision is not supported\")"),
    EngineNote("duckdb", _int_as_float,
               "round of an i64 returns i64: DuckDB rounds integers through DOUBLE (digits beyond 2^53 lost; "
               "9223372036854775807 becomes 2^63, beyond BIGINT)"),
    EngineNote("duckdb", _duck_infinity,
               "\"Rounding the value `x`\": an infinity or NaN rounds to itself; DuckDB 1.1.3 gives 0.0 for ±inf and NaN "
               "with s < 0"),
    EngineNote("datafusion", _int_as_float,
               "round of an i64 returns i64: DataFusion rounds integers through DOUBLE (digits beyond 2^53 lost)"),
    EngineNote("duckdb", _duck_wide_scale,
               "\"When `s` is a positive number, nothing will happen since `x` is an integer value\": DuckDB 1.1.3's "
               "integer round raises overflow for |s| >= 19 (10^|s| beyond its integer)"),
    *[EngineNote(_engine, _float_identity_off,
                 "\"Rounding the value `x` to `s` decimal places\": an fp64 x with no digits below 10^-s is itself; "
                 f"{_name} multiplies by 10^s and divides back, an ulp or two off for large x")
      for _engine, _name in (("duckdb", "DuckDB 1.1.3"), ("datafusion", "DataFusion 55"))],
    EngineNote("duckdb", _duck_decimal_beyond_digits,
               "\"Rounding the value `x` to `s` decimal places\" for s < 0: DuckDB 1.1.3 gives 0 when -s reaches the "
               "decimal's integer digits (99.9 to -2 places is 100.0), and 0 for NULL"),
    EngineNote("duckdb", _duck_unchecked_decimal,
               "return decimal?<min(P + 1, 38), S>: at P = 38 DuckDB 1.1.3 returns the rounded 39-digit value in "
               "DECIMAL(38, S) unchecked (10^38 from 99…9)"),
]


def _round_spec(ext):
    return Spec(ext, "round", _round_model(), rows=_round_rows, variants=_round_variants,
                decimals=((10, 2), (38, 10), (5, 0), (38, 0), (3, 1)),
                duckdb=_duck_round, datafusion=_df_round,
                alternatives=[
                    Reading("SHORTEST: a float x read as its shortest decimal string (2.675, not 2.67499999…)",
                            _round_model(reading=shortest),
                            "the YAML says \"rounding the value `x` to `s` decimal places\" without saying whether a "
                            "float's value is its exact binary value or the decimal it prints as; Spark's round "
                            "(BigDecimal(Double.toString(x))) reads the shortest decimal"),
                    Reading("NULL_ON_OVERFLOW: a rounded value the result type cannot hold is NULL",
                            _round_model(null_on_overflow=True),
                            "round has no overflow option; its return type is nullable (i8?, decimal?<P+1,S>) with "
                            "DECLARED_OUTPUT nullability for non-null arguments, which only such a value explains"),
                ],
                engine_notes=ROUND_NOTES)


register(_round_spec(R), _round_spec(RD))


# ---- ceil, floor ----------------------------------------------------------------------------------------------------
def _integral(direction):
    def model(call, row):
        (x,) = row
        t = call.out
        if t.is_float:
            if math.isnan(x) or math.isinf(x):
                return Value(x)
            r = math.ceil(x) if direction == "ceil" else math.floor(x)
            return Value(math.copysign(float(r), x) if r == 0 else float(r))
        q = Fraction(x)
        r = math.ceil(q) if direction == "ceil" else math.floor(q)
        if abs(r) > 10 ** t.p - 1:
            return Error("overflow")
        return Value(decimal.Decimal(r))
    return model


def _df_keeps_type(call, row, exp, got) -> bool:
    return call.out.kind == "decimal" and isinstance(exp, Value) and isinstance(got, Error) and \
        abs(exp.v) > 10 ** (call.value_types[0].p - call.value_types[0].s) - 1


DF_KEEPS_TYPE = EngineNote("datafusion", _df_keeps_type,
                           "return: decimal<min(P - S + 1, 38), 0> (one more integer digit): DataFusion 55's ceil and "
                           "floor keep the argument's decimal<P,S>, which cannot hold the next integer above the "
                           "largest value")

for _dir in ("ceil", "floor"):
    for _ext in (R, RD):
        register(Spec(_ext, _dir, _integral(_dir), duckdb=(lambda d: lambda c: f"{d}({{0}})")(_dir),
                      datafusion=(lambda d: lambda c: f"CAST({d}({{0}}) AS {c.out.sql('datafusion')})")(_dir),
                      engine_notes=[DF_KEEPS_TYPE]))
