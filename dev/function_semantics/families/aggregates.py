"""The aggregate functions: functions_arithmetic (sum, sum0, avg, min, max, product, std_dev,
variance, corr, mode, median, quantile), functions_arithmetic_decimal (sum, avg, min, max, sum0),
functions_aggregate_generic (count, count(*), any_value), functions_aggregate_approx and
functions_aggregate_decimal_output (count, approx_count_distinct) and unsigned_integers (sum,
min, max).

Every model works on the rows of one group (``[]``: an empty input) and ignores NULL values,
as SQL aggregates do and the YAMLs' cases show (``sum((200000, Null, …))``), except quantile,
whose YAML says a NULL value makes it NULL. Integers and decimals are exact; a floating-point
result is the exact value of the YAML's formula rounded once in the call's rounding mode
(``floats.round_fraction``; square roots correctly rounded from the exact rational).

A sum's order is not the YAML's: a set has none, and every floating-point aggregate declares an
fp64 intermediate (``decomposable: MANY``), so partial sums in any order are allowed. Where no
rounding option is given, ``accept`` takes any answer within the error bound of fp64 partial
sums in some order (Higham's γ(n-1)·Σ|x|) or, for the statistics, of a backward-stable fp64
algorithm; where the call names a rounding mode, the answer must be the exact one rounded in it.
"""

import collections
import decimal
import math
from fractions import Fraction

from families.common import DEFAULT_OVERFLOW, int_result, signbit
from floats import round_fraction
from outcomes import NULL, Error, Null, Undefined, Value, same_value
from plans import Arg
from spec import EngineNote, Reading, Spec, opt, register
from stypes import SType

A = "functions_arithmetic"
D = "functions_arithmetic_decimal"
G = "functions_aggregate_generic"
X = "functions_aggregate_approx"
DO = "functions_aggregate_decimal_output"
U = "unsigned_integers"

UNIT = Fraction(1, 2 ** 53)                # fp64's unit roundoff
MAX64 = 1.7976931348623157e308
TINY = Fraction(1, 2 ** 1074)
WIDE = decimal.Context(prec=400, Emax=999999, Emin=-999999)


# ---- shared pieces ---------------------------------------------------------------------------------------
def values_of(rows, i=0):
    """The non-NULL values of argument ``i``."""
    return [r[i] for r in rows if r[i] is not None]


def single(call) -> bool:
    return call.out.kind == "fp32"


def sqrt_fraction(q: Fraction, mode, single_: bool, negative: bool = False) -> float:
    """sqrt(q) (times -1 when ``negative``) correctly rounded in ``mode``: the root is known to
    1200 bits below the binary point (finer than any binary64 half-unit), inexact roots replaced
    by a point strictly inside the same 2^-1200 interval, which rounds as the root does."""
    if q == 0:
        return -0.0 if negative else 0.0
    k = 1200
    scaled, rem = divmod(q.numerator << (2 * k), q.denominator)
    m = math.isqrt(scaled)
    root = Fraction(m, 1 << k) if m * m == scaled and rem == 0 else Fraction(2 * m + 1, 1 << (k + 1))
    return round_fraction(-root if negative else root, mode, single_)


def fp_round(q: Fraction, call, mode=None) -> float:
    """An exact result rounded to the call's floating output type in the call's rounding mode."""
    return round_fraction(q, mode if mode is not None else opt(call, "rounding"), single(call))


def in_rounded_range(got, lo: Fraction, hi: Fraction, single_: bool) -> bool:
    """Whether ``got`` is the fp64 (then, for fp32, the fp32) rounding of a value in [lo, hi]."""
    if not isinstance(got, Value) or not isinstance(got.v, float) or math.isnan(got.v):
        return False
    a = round_fraction(lo, None, False)
    b = round_fraction(hi, None, False)
    if single_:
        a = round_fraction(Fraction(a), None, True) if math.isfinite(a) else a
        b = round_fraction(Fraction(b), None, True) if math.isfinite(b) else b
    return a <= got.v <= b


def overflow_answer(call, v: float):
    """An fp64 sum that left the finite range (from finite values): what the overflow option asks for.
    Without the option, IEEE 754's infinity (the spec's case sum((1.5e+308, 1.5e+308, 1.5e+308)) = inf)."""
    mode = opt(call, "overflow")
    if mode == "ERROR":
        return Error("overflow")
    if mode == "SATURATE":
        return Value(math.copysign(MAX64, v))
    return Value(v)


def nonfinite(vals):
    """NaN, an infinity, or None: the IEEE value of a sum with NaN or infinite terms."""
    if any(math.isnan(x) for x in vals) or (math.inf in vals and -math.inf in vals):
        return math.nan
    if math.inf in vals:
        return math.inf
    if -math.inf in vals:
        return -math.inf
    return None


def fit(call, groups):
    """Hand-picked groups in the call's value types: for fp32 columns each value rounded to binary32
    (what the column holds), groups with a finite value beyond binary32's range left out."""
    types = call.value_types
    if not any(t.kind == "fp32" for t in types):
        return groups
    from values import f32
    out = []
    for g in groups:
        if any(t.kind == "fp32" and v is not None and math.isfinite(v) and abs(v) > 3.4028234663852886e38
               for r in g for t, v in zip(types, r, strict=True)):
            continue
        out.append([tuple(f32(v) if t.kind == "fp32" and v is not None else v for t, v in zip(types, r, strict=True))
                    for r in g])
    return out


def gamma(n: int) -> Fraction:
    """Higham's γ(n): the relative error bound of n roundings (any summation order of n + 1 terms)."""
    return n * UNIT / (1 - n * UNIT) if n else Fraction(0)


def _duckdb_real_cast(c, r, e, g) -> bool:
    return c.out.kind == "fp32" and isinstance(e, Value) and isinstance(e.v, float) and not math.isfinite(e.v) \
        and isinstance(g, Error)


def _duckdb_statistic_range(c, rows, e, g) -> bool:
    if not isinstance(g, Error):
        return False
    if isinstance(e, Value) and isinstance(e.v, float) and not math.isfinite(e.v):
        return True
    vals = [v for r in rows for v in r if v is not None]
    return any(not math.isfinite(v) for v in vals) or sum(Fraction(v) ** 2 for v in vals) >= Fraction(MAX64)


DUCKDB_STATISTIC_RANGE = EngineNote("duckdb", _duckdb_statistic_range,
                                    "variance, std_dev and corr of fp64 values follow IEEE 754 (NaN for NaN or "
                                    "infinite values, an infinity beyond the finite range); DuckDB 1.1.3 raises "
                                    "'… is out of range!' when its result or a sum of squares is not finite")

DUCKDB_REAL_CAST = EngineNote("duckdb", _duckdb_real_cast,
                              "an fp32 result that is NaN or infinite (IEEE 754 converts both between formats): "
                              "the SQL casts DuckDB's DOUBLE result to REAL, which DuckDB 1.1.3 refuses for NaN and "
                              "the infinities ('Overflow')")

# ---- sum, sum0 ---------------------------------------------------------------------------------------------
def _fp_sum(call, vals, empty):
    if not vals:
        return empty
    special = nonfinite(vals)
    if special is not None:
        return Value(special)
    s = sum(Fraction(x) for x in vals)
    if s == 0:
        return Value(-0.0 if all(x == 0 and signbit(x) for x in vals) else 0.0)
    r = round_fraction(s, None, False)
    return overflow_answer(call, r) if math.isinf(r) else Value(r)


def _decimal_bound(t: SType) -> decimal.Decimal:
    return decimal.Decimal(10 ** t.p - 1).scaleb(-t.s, WIDE)


def _decimal_result(call, exact: decimal.Decimal):
    """An exact decimal in the call's DECIMAL<38,S> output, or what the overflow option asks for."""
    bound = _decimal_bound(call.out)
    if -bound <= exact <= bound:
        return Value(exact)
    mode = opt(call, "overflow", DEFAULT_OVERFLOW)
    if mode == "SATURATE":
        return Value(bound if exact > 0 else -bound)
    if mode == "SILENT":
        return Undefined("overflow SILENT: the result is not defined")
    return Error("overflow")


def sum_model(empty):
    """sum (the sum of no values is NULL) and sum0 (zero; NULLs ignored): exact, in the output type."""
    def model(call, rows):
        vals = values_of(rows)
        t = call.value_types[0]
        if t.is_float:
            return _fp_sum(call, vals, NULL if empty is None else Value(0.0))
        if t.kind == "decimal":
            if not vals:
                return NULL if empty is None else Value(decimal.Decimal(0))
            return _decimal_result(call, sum(vals, decimal.Decimal(0)))
        if not vals:
            return NULL if empty is None else Value(0)
        return int_result(call, sum(vals))
    return model


def fp_sum_accept(call, rows, exp, got) -> bool:
    """A floating sum in another order of fp64 additions: within γ(n-1)·Σ|x| of the exact sum;
    where a partial sum could leave the finite range, an infinity, NaN or the overflow error."""
    t = call.value_types[0]
    if not t.is_float:
        return False
    vals = values_of(rows)
    if len(vals) < 2 or nonfinite(vals) is not None:
        return False
    if not isinstance(exp, Value):
        return False       # the exact sum overflows: the overflow option's answer only
    s = sum(Fraction(x) for x in vals)
    magnitude = sum(abs(Fraction(x)) for x in vals)
    bound = gamma(len(vals) - 1) * magnitude
    if magnitude >= Fraction(MAX64) and partial_overflow_answer(call, got):
        return True
    return in_rounded_range(got, s - bound, s + bound, False)


def partial_overflow_answer(call, got) -> bool:
    """A partial fp64 sum (the YAML's intermediate) that may leave the finite range: under overflow
    ERROR the error; otherwise IEEE 754's infinity (NaN where infinities of both signs meet)."""
    if opt(call, "overflow") == "ERROR":
        return isinstance(got, Error) and got.kind in (None, "overflow")
    return isinstance(got, Value) and isinstance(got.v, float) and not math.isfinite(got.v)


def zero_sum_reading(empty):
    model = sum_model(empty)

    def alt(call, rows):
        out = model(call, rows)
        if isinstance(out, Value) and isinstance(out.v, float) and out.v == 0:
            return Value(0.0)
        return out
    return alt


ZERO_SUM = "a zero floating sum is +0.0 (additions starting from the additive identity +0.0)"
ZERO_SUM_WHY = ("the YAML says only 'Sum a set of values': the sum of values that are all -0.0 is -0.0 in IEEE "
                "754 (the sum of one value is that value); an accumulator starting at +0.0, as Spark's, DuckDB's "
                "and DataFusion's do, gives +0.0")


def _fp_overflow_ieee(empty):
    """Reading: the overflow option concerns integer sums; floating sums always follow IEEE 754."""
    model = sum_model(empty)

    def alt(call, rows):
        if call.value_types[0].is_float and opt(call, "overflow") in ("ERROR", "SATURATE"):
            return _fp_sum(dataclass_without(call, "overflow"), values_of(rows), NULL if empty is None else Value(0.0))
        return model(call, rows)
    return alt


def dataclass_without(call, option):
    import dataclasses
    return dataclasses.replace(call, options={k: v for k, v in call.options.items() if k != option})


FP_OVERFLOW = "overflow concerns integers only: a floating sum overflows to an infinity (IEEE 754)"
FP_OVERFLOW_WHY = ("sum's fp32/fp64 overloads list overflow SILENT/SATURATE/ERROR without saying what overflow is "
                   "for floating point; the primary reading applies IEEE 754's overflow (a finite sum rounding "
                   "beyond the largest finite value) to the option, this one ignores the option for floats")


def _sum_sql(engine, empty):
    def template(call):
        t = call.value_types[0]
        ov = opt(call, "overflow")
        wrap = (lambda e: f"coalesce({e}, 0)") if empty == 0 else (lambda e: e)
        if t.is_float:
            return wrap("sum({0})") if ov not in ("ERROR", "SATURATE") else None
        if t.kind == "decimal":
            if engine == "duckdb" and ov != "SATURATE":
                return f"CAST({wrap('sum({0})')} AS DECIMAL(38,{t.s}))"
            return None
        out = call.out
        if engine == "duckdb":
            exact = "sum(CAST({0} AS HUGEINT))"        # (sum of UHUGEINT is a DOUBLE in DuckDB 1.1.3)
        else:
            if ov == "SILENT" and t.kind not in ("u8", "u16", "u32", "u64"):
                return wrap("sum({0})")          # wraps around: any value is right
            exact = "sum(CAST({0} AS DECIMAL(38,0)))"
        if ov == "SATURATE":
            lo, hi = out.int_range()
            exact = f"CASE WHEN {exact} > {hi} THEN {hi} WHEN {exact} < {lo} THEN {lo} ELSE {exact} END"
        elif ov == "SILENT":
            return None
        return f"CAST({wrap(exact)} AS {out.sql(engine)})"
    return template


def _datafusion_decimal_sum(call, row, exp, got) -> bool:
    return False


SUM_NOTES = [
    EngineNote("duckdb", lambda c, r, e, g: c.value_types[0].is_float and isinstance(e, Value)
               and isinstance(g, Error),
               "sum of fp64: 'Sum a set of values' with IEEE 754 results (the spec's case sum((1.5e+308, 1.5e+308, "
               "1.5e+308)::fp64) = inf); DuckDB 1.1.3 raises 'Overflow in SUM of DOUBLE' instead of an infinity"),
    EngineNote("duckdb", lambda c, r, e, g: c.value_types[0].kind == "decimal" and isinstance(e, Error)
               and isinstance(g, Value),
               "sum of decimals: DECIMAL<38,S>, a sum beyond 38 digits an overflow (the spec's case sum((99999999999999999999"
               "999999999999999999, 1, 1, 1, 1, 99999999999999999999999999999999999999)::dec<38, 0>) [overflow:ERROR] = "
               "<!ERROR>); DuckDB 1.1.3 keeps a 39-digit sum in its 128-bit DECIMAL(38,S) without an error"),
    EngineNote("duckdb", lambda c, r, e, g: c.value_types[0].kind == "decimal" and isinstance(e, Value)
               and isinstance(g, Error),
               "sum of decimals: the sum of the set, which fits DECIMAL<38,S>; DuckDB 1.1.3 raises when a partial "
               "sum leaves its 128-bit integer"),
]

for _ext in (A, D, U):
    register(Spec(_ext, "sum", sum_model(None), kind="aggregate", nulls="none", accept=fp_sum_accept,
                  duckdb=_sum_sql("duckdb", None), datafusion=_sum_sql("datafusion", None),
                  alternatives=[Reading(ZERO_SUM, zero_sum_reading(None), ZERO_SUM_WHY),
                                Reading(FP_OVERFLOW, _fp_overflow_ieee(None), FP_OVERFLOW_WHY)],
                  engine_notes=SUM_NOTES,
                  extra_groups=lambda call: _sum_groups(call)))
    if _ext == U:
        continue
    register(Spec(_ext, "sum0", sum_model(0), kind="aggregate", nulls="none", accept=fp_sum_accept,
                  duckdb=_sum_sql("duckdb", 0), datafusion=_sum_sql("datafusion", 0),
                  alternatives=[Reading(ZERO_SUM, zero_sum_reading(0), ZERO_SUM_WHY),
                                Reading(FP_OVERFLOW, _fp_overflow_ieee(0), FP_OVERFLOW_WHY)],
                  engine_notes=SUM_NOTES,
                  extra_groups=lambda call: _sum_groups(call)))


def _sum_groups(call):
    """Hand-checkable groups: an exact sum that fits although a partial sum in row order does not."""
    t = call.value_types[0]
    if t.kind == "i64":
        big = 2 ** 63 - 1
        return [[(big,), (1,), (-1,)], [(big,), (big,), (-big,)], [(-big - 1,), (-1,), (1,)],
                [(big,), (1,)], [(4611686018427387904,), (4611686018427387904,), (-1,)]]
    if t.kind == "decimal" and t.p == 38:
        big = _decimal_bound(t)
        one = decimal.Decimal(1).scaleb(-t.s)
        return [[(big,), (one,), (-one,)], [(big,), (big,), (-big,)], [(big,), (one,)]]
    if t.is_float:
        return fit(call, [[(1e308,), (1e308,), (-1e308,)], [(-0.0,)], [(-0.0,), (-0.0,)],
                          [(1.5e308,), (1.5e308,), (1.5e308,)], [(1.0,), (1e100,), (-1e100,)],
                          [(3.4028234663852886e38,)] * 3, [(1.0,), (1e30,), (-1e30,)]])
    return []


# ---- avg ---------------------------------------------------------------------------------------------------------
def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _decimal_mean(call, vals, rounding):
    """The mean of decimals at the output scale S, rounded as ``rounding`` (a decimal module constant)."""
    s = call.out.s
    total = sum(vals, decimal.Decimal(0))
    q = Fraction(total) / len(vals)
    scaled = q * 10 ** s
    lo = math.floor(scaled)
    rest = scaled - lo
    if rounding == decimal.ROUND_DOWN:
        n = math.trunc(scaled)
    elif rest == Fraction(1, 2):
        n = (lo + 1 if scaled > 0 else lo) if rounding == decimal.ROUND_HALF_UP else (lo if lo % 2 == 0 else lo + 1)
    else:
        n = lo + 1 if rest > Fraction(1, 2) else lo
    return _decimal_result(call, decimal.Decimal(n).scaleb(-s, WIDE))


def avg_model(call, rows, rounding=decimal.ROUND_HALF_UP):
    vals = values_of(rows)
    if not vals:
        return NULL
    t = call.value_types[0]
    if t.is_float:
        special = nonfinite(vals)
        if special is not None:
            return Value(special if not single(call) or math.isnan(special) else special)
        s = sum(Fraction(x) for x in vals)
        if s == 0:
            return Value(-0.0 if all(x == 0 and signbit(x) for x in vals) else 0.0)
        return Value(fp_round(s / len(vals), call, "TIE_TO_EVEN"))
    if t.kind == "decimal":
        return _decimal_mean(call, vals, rounding)
    # "For integral types, this truncates partial values."
    return int_result(call, _trunc_div(sum(vals), len(vals)))


def avg_accept(call, rows, exp, got) -> bool:
    """The mean of an fp64 sum in another order (γ(n-1)·Σ|x|) divided by n, then rounded to the output."""
    t = call.value_types[0]
    if not t.is_float:
        return False
    vals = values_of(rows)
    if len(vals) < 2 or nonfinite(vals) is not None:
        return False
    n = len(vals)
    s = sum(Fraction(x) for x in vals)
    magnitude = sum(abs(Fraction(x)) for x in vals)
    bound = gamma(n - 1) * magnitude
    if magnitude >= Fraction(MAX64) and partial_overflow_answer(call, got):
        return True
    lo = Fraction(round_fraction(s - bound, None, False)) if abs(s - bound) < Fraction(MAX64) else s - bound
    hi = Fraction(round_fraction(s + bound, None, False)) if abs(s + bound) < Fraction(MAX64) else s + bound
    return in_rounded_range(got, lo / n, hi / n, single(call))


def _avg_intermediate(call, rows):
    """Reading: the sum kept in the YAML's intermediate STRUCT<i64,i64>, where the overflow option applies."""
    vals = values_of(rows)
    t = call.value_types[0]
    if not vals or not t.is_integer:
        return avg_model(call, rows)
    total = sum(vals)
    lo, hi = SType("i64").int_range()
    if lo <= total <= hi:
        return avg_model(call, rows)
    mode = opt(call, "overflow", DEFAULT_OVERFLOW)
    if mode == "SILENT":
        return Undefined("the intermediate i64 sum overflows")
    if mode == "SATURATE":
        return Value(_trunc_div(min(max(total, lo), hi), len(vals)))
    return Error("overflow")


def _avg_decimal_reading(rounding):
    return lambda call, rows: avg_model(call, rows, rounding) if call.value_types[0].kind == "decimal" \
        else avg_model(call, rows)


def _avg_sql(engine):
    def template(call):
        t = call.value_types[0]
        if t.is_float:
            return "avg({0})" if t.kind == "fp64" else "CAST(avg({0}) AS REAL)"
        if t.kind == "decimal":
            return None
        if opt(call, "overflow") in ("SILENT", "SATURATE"):
            return None
        if engine == "duckdb":
            return f"CAST(sum(CAST({{0}} AS HUGEINT)) // count({{0}}) AS {call.out.sql(engine)})"
        return None
    return template


def _avg_groups(call):
    t = call.value_types[0]
    if t.kind == "i64":
        big = 2 ** 63 - 1
        # the YAML: integral averages truncate: (2^62 + 1 + 2^62 + 2) / 2 = 2^62 + 1.5 -> 2^62 + 1
        return [[(4611686018427387905,), (4611686018427387906,)], [(big,)], [(-big - 1,)], [(big,), (big - 1,)],
                [(-big - 1,), (-big,)], [(big,), (1,), (-1,)], [(-7,), (-2,)], [(9007199254740993,)],
                [(big,), (big,)], [(-big - 1,), (-big - 1,)]]
    if t.kind == "i32":
        return [[(2147483647,), (2147483646,)], [(-7,), (-2,)], [(-2147483648,), (-2147483647,)]]
    if t.kind == "decimal":
        big = _decimal_bound(t)
        q = decimal.Decimal(1).scaleb(-t.s)
        return [[(big,)], [(big,), (big,)], [(-big,), (-big,)], [(q,), (decimal.Decimal(0),)],
                [(-q,), (decimal.Decimal(0),)], [(q,), (q,), (decimal.Decimal(0),)],
                [(q,), (decimal.Decimal(0),), (decimal.Decimal(0),)]]
    if t.is_float:
        return fit(call, [[(MAX64,), (MAX64,)], [(1e308,), (-1e308,), (1.0,)], [(3.4028234663852886e38,)] * 2])
    return []


def _avg_fp_ieee(call, rows):
    """Reading: overflow concerns integers; a floating mean of a sum that overflows fp64 (in row order)
    is IEEE 754's infinity (or NaN) divided by the count."""
    vals = values_of(rows)
    if call.value_types[0].is_float and vals and nonfinite(vals) is None and \
            sum(abs(Fraction(x)) for x in vals) >= Fraction(MAX64):
        total = 0.0
        for x in vals:
            total += x
        if not math.isfinite(total):
            return Value(total / len(vals))
    return avg_model(call, rows)


AVG_DECIMAL_WHY = ("functions_arithmetic_decimal's avg says only 'Average a set of values' and returns "
                   "DECIMAL<38,S>: the YAML does not say how a mean between two decimals of scale S is rounded. "
                   "The primary reading rounds to nearest, halves away from zero (SQL's and every engine's decimal "
                   "rounding), since the sibling YAML names truncation for integral types only")

for _ext in (A, D):
    register(Spec(_ext, "avg", avg_model, kind="aggregate", nulls="none", accept=avg_accept,
                  duckdb=_avg_sql("duckdb"), datafusion=_avg_sql("datafusion"), extra_groups=_avg_groups,
                  alternatives=[
                      Reading(FP_OVERFLOW, _avg_fp_ieee, FP_OVERFLOW_WHY.replace("sum's", "avg's")),
                      Reading("the sum kept in the YAML's intermediate i64 (STRUCT<i64,i64>): an overflow of it is "
                              "the overflow option's", _avg_intermediate,
                              "avg declares intermediate STRUCT<i64,i64> (sum, count): a sum leaving i64 can be read "
                              "as the overflow the option governs, although the mean itself always fits"),
                      Reading("a decimal mean truncated toward zero (as integral averages)",
                              _avg_decimal_reading(decimal.ROUND_DOWN), AVG_DECIMAL_WHY),
                      Reading("a decimal mean rounded half to even", _avg_decimal_reading(decimal.ROUND_HALF_EVEN),
                              AVG_DECIMAL_WHY)],
                  engine_notes=[EngineNote("duckdb", lambda c, r, e, g: c.value_types[0].is_float and isinstance(g, Error),
                                           "avg: 'Average a set of values' in IEEE 754 (an infinity where the sum "
                                           "overflows); DuckDB 1.1.3 raises 'Overflow in SUM of DOUBLE'")]))


# ---- min, max ------------------------------------------------------------------------------------------------------
def extreme(is_min, nan_rule):
    """min / max. Floats: ``nan_rule`` 'propagate' (IEEE 754-2019 minimum/maximum: NaN if any NaN),
    'total' (SQL's order: NaN above every number), 'ignore' (minimumNumber: NaN only if all NaN)."""
    def model(call, rows):
        vals = values_of(rows)
        if not vals:
            return NULL
        t = call.value_types[0]
        if not t.is_float:
            return Value(min(vals) if is_min else max(vals))
        nans = [x for x in vals if math.isnan(x)]
        nums = [x for x in vals if not math.isnan(x)]
        if nans and (nan_rule == "propagate" or not nums or (nan_rule == "total" and not is_min)):
            return Value(math.nan)
        return Value(min(nums, key=lambda x: (x, not signbit(x))) if is_min else
                     max(nums, key=lambda x: (x, not signbit(x))))
    return model


def zero_either(call, rows, exp, got) -> bool:
    """-0.0 and 0.0 compare equal: with both in the group, either is the extreme."""
    if not (isinstance(exp, Value) and isinstance(got, Value) and isinstance(exp.v, float) and isinstance(got.v, float)):
        return False
    zeros = {signbit(x) for x in values_of(rows) if x == 0}
    return exp.v == 0 and got.v == 0 and zeros == {True, False}


NAN_WHY = ("'Min a set of values' / 'Max a set of values': NaN is unordered, so a set holding NaN has no IEEE "
           "comparison minimum. IEEE 754-2019 offers minimum/maximum (NaN propagates; the primary reading), "
           "minimumNumber/maximumNumber (NaN ignored), and totalOrder, where NaN is above +inf (SQL engines')")

DATAFUSION_NAN = EngineNote("datafusion", lambda c, r, e, g: c.value_types[0].is_float and any(
    x is not None and math.isnan(x) for x, in r) and isinstance(g, Value) and not math.isnan(g.v),
    "min/max: 'Min a set of values' / 'Max a set of values' (no reading of NaN gives a value that is not the "
    "set's extreme); DataFusion 55's min/max of a float group holding NaN return another value of the group")



def _datafusion_infinite_extreme(c, rows, e, g) -> bool:
    """An infinite extreme that DataFusion 55 reports as the largest finite value of its sign."""
    return c.value_types[0].is_float and isinstance(e, Value) and isinstance(e.v, float) and math.isinf(e.v) \
        and isinstance(g, Value) and isinstance(g.v, float) and math.isfinite(g.v) \
        and abs(g.v) in (MAX64, 3.4028234663852886e38) and math.copysign(1, g.v) == math.copysign(1, e.v)


DATAFUSION_INFINITY = EngineNote("datafusion", _datafusion_infinite_extreme,
                                 "min: 'Min a set of values.' / max: 'Max a set of values.' (an infinity is a value "
                                 "of fp32/fp64, so a set of infinities has that infinity as its extreme); DataFusion "
                                 "55 gives ±MAX (the largest finite value) for a group of ±inf")

for _ext in (A, D, U):
    for _name, _is_min in (("min", True), ("max", False)):
        register(Spec(_ext, _name, extreme(_is_min, "propagate"), kind="aggregate", nulls="none", accept=zero_either,
                      engine_notes=[DATAFUSION_NAN, DATAFUSION_INFINITY],
                      duckdb=(lambda f: lambda c: f"{f}({{0}})")(_name),
                      datafusion=(lambda f: lambda c: f"{f}({{0}})")(_name),
                      alternatives=[Reading("NaN above every number (total order)", extreme(_is_min, "total"), NAN_WHY),
                                    Reading("NaN ignored (minimumNumber / maximumNumber)", extreme(_is_min, "ignore"),
                                            NAN_WHY)]))


# ---- product -------------------------------------------------------------------------------------------------------
def product_model(call, rows):
    vals = values_of(rows)
    t = call.value_types[0]
    if not vals:
        return Value(1.0 if t.is_float else 1)   # "Returns 1 for empty input."
    if not t.is_float:
        p = 1
        for x in vals:
            p *= x
        return int_result(call, p)
    if any(math.isnan(x) for x in vals):
        return Value(math.nan)
    negative = sum(1 for x in vals if signbit(x)) % 2 == 1
    if any(math.isinf(x) for x in vals):
        if any(x == 0 for x in vals):
            return Value(math.nan)
        return Value(-math.inf if negative else math.inf)
    p = Fraction(1)
    for x in vals:
        p *= Fraction(x)
    if p == 0:
        return Value(-0.0 if negative else 0.0)
    return Value(fp_round(p, call))


def product_accept(call, rows, exp, got) -> bool:
    """fp products multiplied in another order: each product rounded (relative error (1+2u)^(n-1) - 1);
    where a partial product could leave the exponent range, any infinity or zero."""
    if not call.value_types[0].is_float or not isinstance(exp, Value) or not isinstance(got, Value):
        return False
    vals = values_of(rows)
    if len(vals) < 2 or any(not math.isfinite(x) or x == 0 for x in vals):
        return False
    logs = [math.log2(abs(x)) for x in vals]
    if sum(v for v in logs if v > 0) > 1023 or sum(v for v in logs if v < 0) < -1021:
        return isinstance(got.v, float)     # a partial product may overflow or underflow: any fp value
    p = Fraction(1)
    for x in vals:
        p *= Fraction(x)
    rel = (1 + 2 * UNIT) ** (len(vals) - 1) - 1
    lo, hi = sorted([p * (1 - rel), p * (1 + rel)])
    return in_rounded_range(got, lo, hi, single(call))


register(Spec(A, "product", product_model, kind="aggregate", nulls="none", accept=product_accept,
              duckdb=lambda c: ("product({0})" if c.out.kind == "fp64" else "CAST(product({0}) AS REAL)")
              if c.out.is_float and opt(c, "rounding", "TIE_TO_EVEN") == "TIE_TO_EVEN" else None,
              engine_notes=[DUCKDB_REAL_CAST, EngineNote("duckdb", lambda c, r, e, g: isinstance(g, Null) and all(
                  v[0] is None for v in r) and len(r) > 0,
                  "product: 'Returns 1 for empty input' (NULLs ignored, as for the other aggregates, leave none); "
                  "DuckDB gives NULL for a group of NULLs")]))


# ---- variance, std_dev, corr ------------------------------------------------------------------------------------------
def _distribution(call) -> str:
    for a in call.args:
        if a.enum is not None:
            return a.enum
    return opt(call, "distribution", "SAMPLE")


def _moments(vals):
    n = len(vals)
    xs = [Fraction(x) for x in vals]
    mean = sum(xs) / n
    return n, sum((x - mean) ** 2 for x in xs)


def statistic(root, distribution=None):
    """variance (root False) or std_dev (True): the exact value of the values' (exactly known)
    deviations, rounded once in the call's rounding mode; SAMPLE of one value is NULL (the YAML's cases)."""
    def model(call, rows):
        vals = values_of(rows)
        dist = distribution or _distribution(call)
        n = len(vals)
        if n == 0 or (dist == "SAMPLE" and n == 1):
            return NULL
        if any(not math.isfinite(x) for x in vals):
            return Value(math.nan)
        _, m2 = _moments(vals)
        v = m2 / (n - 1 if dist == "SAMPLE" else n)
        return Value(sqrt_fraction(v, opt(call, "rounding"), single(call)) if root else fp_round(v, call))
    return model


def statistic_accept(root):
    """No rounding option: any fp64 algorithm's answer within 4(n+3)u·Σx² of the exact sum of squared
    deviations (the bound of Welford's and the two-pass method), rounded to the output."""
    def accept(call, rows, exp, got):
        if opt(call, "rounding") or not isinstance(exp, Value) or not isinstance(got, Value):
            return False
        vals = values_of(rows)
        if not vals or any(not math.isfinite(x) for x in vals):
            return False
        n, m2 = _moments(vals)
        d = n - 1 if _distribution(call) == "SAMPLE" else n
        sq = sum(Fraction(x) ** 2 for x in vals)
        err = 4 * (n + 3) * UNIT * sq + 4 * n * TINY
        if sq >= Fraction(MAX64) and isinstance(got.v, float) and not math.isfinite(got.v):
            return True
        lo, hi = max(m2 - err, Fraction(0)) / d, (m2 + err) / d
        if root:
            lo = Fraction(sqrt_fraction(lo, "FLOOR", False)) if lo < Fraction(MAX64) ** 2 else lo
            hi = Fraction(sqrt_fraction(hi, "CEILING", False)) if hi < Fraction(MAX64) ** 2 else hi
        return in_rounded_range(got, lo, hi, single(call))
    return accept


def _statistic_sql(fn):
    def template(call):
        if opt(call, "rounding", "TIE_TO_EVEN") != "TIE_TO_EVEN":
            return None
        name = f"{fn}_{'samp' if _distribution(call) == 'SAMPLE' else 'pop'}"
        return f"{name}({{0}})" if call.out.kind == "fp64" else f"CAST({name}(CAST({{0}} AS DOUBLE)) AS REAL)"
    return template


def _statistic_groups(call):
    """The spec's cases' data sets (docs/function-tests.md lists the cases whose answers are wrong),
    and values whose deviations are small beside them (where fp64 algorithms lose digits)."""
    return fit(call, [[(x,) for x in g] for g in (
        (1.0, 2.0, 3.0, 4.0, 5.0), (5.0, 5.0, 5.0, 5.0), (42.0,), (-5.0, -3.0, -1.0, 1.0, 3.0, 5.0),
        (-10.0, -5.0, 0.0, 5.0, 10.0), (1.5, 2.5, 3.5, 4.5, 5.5), (0.1, 0.2, 0.3, 0.4, 0.5),
        (1000.0, 2000.0, 3000.0, 4000.0, 5000.0), (0.001, 0.002, 0.003, 0.004, 0.005), (1.1, 2.2, 3.3, 4.4, 5.5),
        (10.0, 20.0), (0.0, 100.0, 50.0, 25.0, 75.0), (-2.0, -1.0, 0.0, 1.0, 2.0), (10.0, 20.0, 30.0),
        (1e8 + 1, 1e8 + 2, 1e8 + 4), (1e15 + 1, 1e15 + 2, 1e15 + 3, 1e15 + 5), (1e300, -1e300), (1e-300, 3e-300),
        (1e30, -1e30), (1e-30, 3e-30), (16777216.0, 16777218.0, 16777222.0))])


DISTRIBUTION_WHY = ("std_dev/variance take distribution as an option without a default: an unset option is SAMPLE "
                    "in the primary reading (SQL's stddev/variance), POPULATION in this one")
STAT_ROUNDING_NOTE = ("the rounding option is IEEE 754's rounding mode: the result is the exact value rounded once "
                      "in it; no engine computes variance or std_dev correctly rounded")

for _name, _root, _fn in (("variance", False, "var"), ("std_dev", True, "stddev")):
    register(Spec(A, _name, statistic(_root), kind="aggregate", nulls="none", accept=statistic_accept(_root),
                  duckdb=_statistic_sql(_fn), datafusion=_statistic_sql(_fn), extra_groups=_statistic_groups,
                  alternatives=[Reading("distribution unset: POPULATION",
                                        (lambda r: lambda call, rows: statistic(r, "POPULATION")(call, rows)
                                         if not any(a.enum for a in call.args) and opt(call, "distribution") is None
                                         else statistic(r)(call, rows))(_root), DISTRIBUTION_WHY)],
                  engine_notes=[DUCKDB_REAL_CAST, DUCKDB_STATISTIC_RANGE] + [EngineNote(e, (lambda r: lambda c, rows, e_, g: opt(c, "rounding") == "TIE_TO_EVEN"
                                                and statistic_accept(r)(dataclass_without(c, "rounding"), rows, e_, g))(
                                               _root), STAT_ROUNDING_NOTE) for e in ("duckdb", "datafusion")]))


def _pairs(rows):
    return [(x, y) for x, y in rows if x is not None and y is not None]


def corr_model(call, rows, undefined_null=False):
    """Pearson's r = Sxy / sqrt(Sxx·Syy) of the pairs without a NULL, exactly, rounded once; an
    undefined r (fewer than two pairs, a constant column: 0/0) is NaN as IEEE 754 divides."""
    pairs = _pairs(rows)
    if not pairs:
        return NULL     # "If there is no input, null is returned."
    if undefined_null and (len({_mode_key(x) for x, _ in pairs}) == 1 or len({_mode_key(y) for _, y in pairs}) == 1):
        return NULL
    if any(not math.isfinite(v) for p in pairs for v in p):
        return Value(math.nan)
    n = len(pairs)
    xs = [Fraction(x) for x, _ in pairs]
    ys = [Fraction(y) for _, y in pairs]
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return NULL if undefined_null else Value(math.nan)
    return Value(sqrt_fraction(sxy * sxy / (sxx * syy), opt(call, "rounding"), single(call), negative=sxy < 0))


def corr_accept(call, rows, exp, got) -> bool:
    if opt(call, "rounding") or not isinstance(exp, Value) or not isinstance(got, Value) \
            or not isinstance(exp.v, float) or math.isnan(exp.v):
        return False
    pairs = _pairs(rows)
    n = len(pairs)
    xs = [Fraction(x) for x, _ in pairs]
    ys = [Fraction(y) for _, y in pairs]
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    qx = sum(x * x for x in xs)
    qy = sum(y * y for y in ys)
    if qx >= Fraction(MAX64) or qy >= Fraction(MAX64):
        return isinstance(got.v, float) and not math.isfinite(got.v)   # fp64 squares overflow: NaN or infinity
    cond = float(qx / sxx) + float(qy / syy) + math.sqrt(float(qx / sxx) * float(qy / syy))
    err = Fraction(4 * (n + 3) * cond) * UNIT
    r = Fraction(exp.v)
    return in_rounded_range(got, max(r - err - UNIT, Fraction(-1)), min(r + err + UNIT, Fraction(1)), single(call))


def _ill_conditioned(c, rows, e, g) -> bool:
    """A group whose values' mean is large beside their spread (Σx² / Sxx beyond 2^20): one-pass
    sums of squares lose the spread there."""
    pairs = [p for p in _pairs(rows) if all(math.isfinite(v) for v in p)]
    if len(pairs) < 2 or not isinstance(g, (Value, Null)):
        return False
    for k in (0, 1):
        xs = [Fraction(p[k]) for p in pairs]
        m = sum(xs) / len(xs)
        sxx = sum((x - m) ** 2 for x in xs)
        if sxx and sum(x * x for x in xs) / sxx > 2 ** 20:
            return True
    return False


DATAFUSION_CORR = EngineNote("datafusion", _ill_conditioned,
                             "corr: Pearson's correlation coefficient (|r| <= 1); DataFusion 55's corr of values "
                             "whose mean is large beside their spread loses the spread (r = 1.06 for x = 1e8 + "
                             "(1, 2, 4), y = (1, 2, 3)), a one-pass formula")


def _datafusion_corr_nan(c, rows, e, g) -> bool:
    return isinstance(g, Null) and any(math.isnan(v) for p in _pairs(rows) for v in p)


def _beyond_one(c, rows, e, g) -> bool:
    from outcomes import ulps
    return isinstance(e, Value) and isinstance(g, Value) and isinstance(g.v, float) and abs(g.v) > 1 \
        and ulps(math.copysign(1.0, g.v), g.v, single(c)) <= 4 and abs(e.v) > 0.999


DATAFUSION_CORR_NOTES = [
    EngineNote("datafusion", _datafusion_corr_nan,
               "corr of pairs holding NaN: NaN (IEEE 754; the YAML makes only an empty input NULL); DataFusion 55 "
               "gives NULL"),
    EngineNote("datafusion", _beyond_one,
               "corr: Pearson's correlation coefficient, never beyond ±1; DataFusion 55 gives ±1.0000000000000002 "
               "for perfectly correlated pairs (rounding in its formula)"),
]


def _corr_groups(call):
    return fit(call, [[(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)], [(1.0, 3.0), (2.0, 2.0), (3.0, 1.0)], [(1.0, 1.0)],
            [(1.0, 5.0), (2.0, 5.0), (3.0, 5.0)], [(1.0, 2.0), (2.0, 1.0), (3.0, 4.0), (4.0, 3.0)],
            [(1.0, None), (2.0, 3.0), (None, 1.0), (4.0, 5.0), (5.0, 4.0)],
            [(1e8 + 1, 1.0), (1e8 + 2, 2.0), (1e8 + 4, 3.0)], [(0.1, 0.2), (0.2, 0.1), (0.3, 0.7)],
            [(16777216.0, 1.0), (16777218.0, 2.0), (16777222.0, 3.0)], [(math.inf, 1.0), (math.inf, 2.0)]])


register(Spec(A, "corr", corr_model, kind="aggregate", nulls="none", accept=corr_accept, extra_groups=_corr_groups,
              # DuckDB's covariance over the two standard deviations: an ulp or two off (even past ±1)
              engine_tolerance=lambda c: 2,
              duckdb=lambda c: (("corr({0}, {1})" if c.out.kind == "fp64" else "CAST(corr({0}, {1}) AS REAL)")
                                if opt(c, "rounding", "TIE_TO_EVEN") == "TIE_TO_EVEN" else None),
              datafusion=lambda c: (("corr({0}, {1})" if c.out.kind == "fp64" else "CAST(corr({0}, {1}) AS REAL)")
                                    if opt(c, "rounding", "TIE_TO_EVEN") == "TIE_TO_EVEN" else None),
              alternatives=[Reading("an undefined correlation (one pair, a constant column) is NULL",
                                    lambda call, rows: corr_model(call, rows, undefined_null=True),
                                    "the YAML says NULL only for no input; with one pair or a constant column "
                                    "Pearson's r is 0/0, NaN in IEEE 754, NULL in SQL's CORR")],
              engine_notes=[DUCKDB_REAL_CAST, DUCKDB_STATISTIC_RANGE, DATAFUSION_CORR, *DATAFUSION_CORR_NOTES] + [
                  EngineNote(e, lambda c, r, e_, g: opt(c, "rounding") == "TIE_TO_EVEN"
                             and corr_accept(dataclass_without(c, "rounding"), r, e_, g), STAT_ROUNDING_NOTE)
                  for e in ("duckdb", "datafusion")]))


# ---- mode ---------------------------------------------------------------------------------------------------------------
def _mode_key(x):
    """Values are equal as numbers: -0.0 is 0.0, every NaN one value (SQL's GROUP BY)."""
    if isinstance(x, float):
        return "nan" if math.isnan(x) else (x + 0.0)
    return x


def _modes(rows):
    vals = values_of(rows)
    counts = collections.Counter(_mode_key(x) for x in vals)
    top = max(counts.values()) if counts else 0
    return [x for x in vals if counts[_mode_key(x)] == top]


def mode_model(call, rows):
    modes = _modes(rows)
    return Value(modes[0]) if modes else NULL     # "If there is no input, null is returned."


def mode_accept(call, rows, exp, got) -> bool:
    """Any of the most frequent values is the mode."""
    return isinstance(got, Value) and any(same_value(m, got.v) for m in _modes(rows))


register(Spec(A, "mode", mode_model, kind="aggregate", nulls="none", accept=mode_accept,
              duckdb=lambda c: "mode({0})",
              extra_groups=lambda c: [[(3,), (1,), (3,), (2,), (1,), (3,)], [(0,), (None,), (None,), (5,), (5,)]]
              if c.value_types[0].is_integer else [[(0.0,), (-0.0,), (1.0,)], [(math.nan,), (math.nan,), (2.0,)]]))


# ---- median ---------------------------------------------------------------------------------------------------------------
def _total_key(x):
    """IEEE 754 totalOrder: -NaN < -inf < … < -0.0 < 0.0 < … < inf < NaN (NaN taken as positive)."""
    if isinstance(x, float):
        return (1, 0.0) if math.isnan(x) else (0, x, not signbit(x))
    return (0, x)


def _middles(vals):
    s = sorted(vals, key=_total_key)
    n = len(s)
    return s[(n - 1) // 2], s[n // 2]


def _round_int(q: Fraction, mode) -> int:
    lo = math.floor(q)
    rest = q - lo
    if rest == 0:
        return lo
    mode = mode or "TIE_TO_EVEN"
    if mode == "TRUNCATE":
        return math.trunc(q)
    if mode == "CEILING":
        return lo + 1
    if mode == "FLOOR":
        return lo
    if rest != Fraction(1, 2):
        return lo + 1 if rest > Fraction(1, 2) else lo
    if mode == "TIE_AWAY_FROM_ZERO":
        return lo + 1 if q > 0 else lo
    return lo if lo % 2 == 0 else lo + 1


def _fp_midpoint(a: float, b: float, call) -> float:
    if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b) and a != b):
        return math.nan
    if math.isinf(a) or math.isinf(b):
        return a if math.isinf(a) else b
    q = (Fraction(a) + Fraction(b)) / 2
    if q == 0:
        return -0.0 if signbit(a) and signbit(b) else 0.0
    return fp_round(q, call)


def median_model(call, rows):
    """EXACT: the middle value, or the two middle values' mean rounded in the rounding option's mode
    (integers: "how the median should be rounded if it ends up midway"; floats: the IEEE mode). The
    order is IEEE 754's totalOrder (NaN above +inf). APPROXIMATE: see median_accept."""
    vals = values_of(rows)
    if not vals:
        return NULL      # "Returns null if applied to zero records."
    a, b = _middles(vals)
    if call.value_types[0].is_float:
        return Value(_fp_midpoint(a, b, call))
    return Value(_round_int((Fraction(a) + Fraction(b)) / 2, opt(call, "rounding")))


def median_accept(call, rows, exp, got) -> bool:
    """APPROXIMATE: any value between the two middle values (the YAML gives no error bound; an
    approximate median is expected to lie between its neighbours' ranks); EXACT integers with no
    rounding option: the mean rounded either way (the YAML gives no default)."""
    if not isinstance(got, Value) or not isinstance(exp, Value):
        return False
    vals = values_of(rows)
    a, b = _middles(vals)
    precision = next(x.enum for x in call.args if x.enum is not None)
    t = call.value_types[0]
    if precision == "APPROXIMATE":
        if t.is_float and (math.isnan(got.v) or math.isnan(a) or math.isnan(b)):
            return math.isnan(got.v) and (math.isnan(a) or math.isnan(b))
        return _total_key(a) <= _total_key(got.v) <= _total_key(b)
    if not t.is_float and opt(call, "rounding") is None:
        q = (Fraction(a) + Fraction(b)) / 2
        return got.v in (math.floor(q), math.ceil(q))
    return False


def _approximate_notes():
    def duck(c, rows, e, g):
        """DuckDB's approx_quantile of i64: a middle value rounded to double (t-digest)."""
        if c.value_types[0].kind != "i64" or not isinstance(g, Value):
            return False
        a, b = _middles(values_of(rows))
        return any(float(v) == float(g.v) for v in (a, b))

    def datafusion(c, rows, e, g):
        vals = values_of(rows)
        return c.value_types[0].is_float and any(math.isinf(x) for x in vals) and isinstance(g, Value) \
            and math.isnan(g.v)
    return [EngineNote("duckdb", duck, "median APPROXIMATE of i64: a value between the middle values, an i64; "
                                       "DuckDB 1.1.3's approx_quantile keeps its t-digest in double: a middle value "
                                       "beyond 2^53 comes back rounded to a double"),
            EngineNote("datafusion", datafusion, "median APPROXIMATE: a value between the middle values (of four "
                                                 "-inf: -inf); DataFusion 55's approx_median of infinities is NaN "
                                                 "(t-digest centroids inf - inf)")]


def _median_sql(engine):
    rounders = {"TIE_TO_EVEN": "round_even({}, 0)" if engine == "duckdb" else None,
                "TIE_AWAY_FROM_ZERO": "round({}, 0)", "TRUNCATE": "trunc({})", "CEILING": "ceil({})",
                "FLOOR": "floor({})"}

    def template(call):
        precision = next(x.enum for x in call.args if x.enum is not None)
        t = call.value_types[0]
        if precision == "APPROXIMATE":
            return "approx_quantile({0}, 0.5)" if engine == "duckdb" and not t.is_float else \
                ("approx_median({0})" if engine == "datafusion" else None)
        if t.is_float:
            return ("median({0})" if t.kind == "fp64" else "CAST(median(CAST({0} AS DOUBLE)) AS REAL)") \
                if opt(call, "rounding", "TIE_TO_EVEN") == "TIE_TO_EVEN" else None
        if t.kind == "i64":
            return None
        r = rounders.get(opt(call, "rounding", "TIE_TO_EVEN"))
        return f"CAST({r.format('median(CAST({0} AS DOUBLE))')} AS {call.out.sql(engine)})" if r else None
    return template


def _median_groups(call):
    t = call.value_types[0]
    if t.is_float:
        return fit(call, [[(1.0,), (2.0,)], [(-MAX64,), (MAX64,)], [(5e-324,), (5e-324,)], [(1.0,), (math.nan,)],
                          [(-math.inf,), (math.inf,)], [(0.1,), (0.2,)], [(1.0,), (2.0 ** -60,)],
                          [(-3.4028234663852886e38,), (3.4028234663852886e38,)], [(1.401298464324817e-45,)] * 2])
    lo, hi = t.int_range()
    return [[(1,), (2,)], [(-1,), (-2,)], [(2,), (3,)], [(-2,), (-3,)], [(lo,), (hi,)], [(hi,), (hi - 1,)],
            [(lo,), (lo + 1,)], [(1,), (2,), (3,), (4,)]]


def _nan_lowest_median(c, rows, e, g) -> bool:
    """DuckDB's median: NaN sorted below every number."""
    vals = values_of(rows)
    if not c.value_types[0].is_float or not any(math.isnan(x) for x in vals) or not isinstance(g, Value):
        return False
    s = sorted(vals, key=lambda x: (0, 0.0) if math.isnan(x) else (1, x, not signbit(x)))
    a, b = s[(len(s) - 1) // 2], s[len(s) // 2]
    return same_value(_fp_midpoint(a, b, c), g.v)


register(Spec(A, "median", median_model, kind="aggregate", nulls="none", accept=median_accept,
              extra_groups=_median_groups, duckdb=_median_sql("duckdb"), datafusion=_median_sql("datafusion"),
              engine_notes=[EngineNote("duckdb", _nan_lowest_median,
                                       "median: the YAML does not order NaN (the primary reading takes IEEE 754's "
                                       "totalOrder, NaN above +inf, as Spark, and DuckDB's own min/max, do); "
                                       "DuckDB 1.1.3's median sorts NaN below every number"), DUCKDB_REAL_CAST,
                            *_approximate_notes(),
                            EngineNote("datafusion", lambda c, r, e, g: isinstance(e, Value) and isinstance(g, Value)
                                       and isinstance(e.v, float) and math.isfinite(e.v) and isinstance(g.v, float)
                                       and math.isinf(g.v),
                                       "median: 'Calculate the median for a set of values' (of MAX and MAX: MAX, the "
                                       "mean of the middle values, which always lies between them); DataFusion 55 "
                                       "adds the two middle values first, which overflows to infinity"),
                            EngineNote("duckdb", lambda c, r, e, g: isinstance(e, Value) and isinstance(g, Value)
                                       and isinstance(e.v, float) and abs(e.v) < 2.2250738585072014e-308
                                       and isinstance(g.v, float) and g.v == 0,
                                       "median: the mean of the two middle values rounded once (of 5e-324 and "
                                       "5e-324: 5e-324); DuckDB 1.1.3 halves each first (0.5·a + 0.5·b), which "
                                       "rounds the halves of the smallest subnormals to zero")]))


# ---- quantile --------------------------------------------------------------------------------------------------------------
QUANTILE_TYPES = (SType("i64"), SType("fp64"), SType("i32"), SType("decimal", 10, 2))


def quantile_model(call, rows):
    """The values (in the input's order: the YAML's quantile is ordered; the rows come sorted) over n
    equally-sized bins: boundary k at position k(m-1)/n, interpolated linearly between the two nearest
    values and rounded as the rounding option says; NEITHER k = 1..n-1, MINIMUM 0..n-1, MAXIMUM
    1..n, BOTH 0..n. NULL when n is NULL or below one, or a value is NULL."""
    boundaries = call.args[0].enum
    n = call.args[2].value
    vals = [r[0] for r in rows]
    if n is None or n < 1 or any(v is None for v in vals) or not vals:
        return NULL
    ks = {"NEITHER": range(1, n), "MINIMUM": range(0, n), "MAXIMUM": range(1, n + 1), "BOTH": range(0, n + 1)}[boundaries]
    m = len(vals)
    t = call.value_types[0]
    out = []
    for k in ks:
        pos = Fraction(k * (m - 1), n)
        lo = math.floor(pos)
        a, b = vals[lo], vals[min(lo + 1, m - 1)]
        frac = pos - lo
        if frac == 0:
            out.append(a)
            continue
        if t.is_float:
            if not (math.isfinite(a) and math.isfinite(b)):
                # between an infinity and a finite value: that infinity; between opposite infinities: NaN
                inf = [v for v in (a, b) if not math.isfinite(v)]
                out.append(math.nan if any(math.isnan(v) for v in (a, b)) or (len(inf) == 2 and a != b) else inf[0])
                continue
            out.append(fp_round(Fraction(a) + frac * (Fraction(b) - Fraction(a)), call))
        elif t.kind == "decimal":
            q = (Fraction(a) + frac * (Fraction(b) - Fraction(a))) * 10 ** t.s
            out.append(decimal.Decimal(_round_int(q, opt(call, "rounding"))).scaleb(-t.s))
        else:
            out.append(_round_int(Fraction(a) + frac * (Fraction(b) - Fraction(a)), opt(call, "rounding")))
    return Value(out)


def _quantile_variants(call, full):
    ns = (1, 2, 3, 4, None, 0) if full else (1, 3, None)
    out = []
    for n in ns:
        args = list(call.args)
        args[2] = Arg(type=args[2].type, literal=True, value=n)
        out.append(type(call)(call.ext, call.name, call.kind, args, call.out, call.options, call.frame))
    return out


def _quantile_rows(call, rng, n_random):
    """Sorted values (the YAML's quantile takes the input's order): each group a sorted run."""
    import values as values_mod
    t = call.value_types[0]
    vals = [v for v in values_mod.edges(t) if v is not None and not (isinstance(v, float) and math.isnan(v))]
    rand = [values_mod.random_value(t, rng) for _ in range(n_random)]
    rand = [v for v in rand if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return [(v,) for v in sorted(vals + rand)]   # one sorted run: every group (a slice of it) is sorted


def _quantile_close(c, rows, e, g) -> bool:
    """DuckDB's quantile_cont: each boundary an interpolation between the same two values, at a
    position computed in double (k/n rounded, times m - 1)."""
    if not (isinstance(e, Value) and isinstance(g, Value) and isinstance(g.v, list) and len(e.v) == len(g.v)):
        return False
    vals = [r[0] for r in rows]
    n, m = c.args[2].value, len(vals)
    ks = {"NEITHER": range(1, n), "MINIMUM": range(0, n), "MAXIMUM": range(1, n + 1), "BOTH": range(0, n + 1)}[
        c.args[0].enum]
    for k, want, got in zip(ks, e.v, g.v, strict=True):
        lo = math.floor(Fraction(k * (m - 1), n))
        a, b = vals[lo], vals[min(lo + 1, m - 1)]
        if same_value(want, got) or (isinstance(got, float) and got == 0 and isinstance(want, float)
                                     and abs(want) < 2.2250738585072014e-308):
            continue          # (0.5·a + 0.5·b rounds halves of the smallest subnormals to zero)
        if not (isinstance(got, float) and math.isfinite(a) and math.isfinite(b) and min(a, b) <= got <= max(a, b)
                and abs(Fraction(got) - Fraction(want)) <= abs(Fraction(b) - Fraction(a)) * Fraction(1, 2 ** 48)
                + abs(Fraction(want)) * Fraction(1, 2 ** 50)):
            return False
    return True


def _quantile_duckdb(call):
    n = call.args[2].value
    if call.value_types[0].kind != "fp64" or n is None or n < 1 or opt(call, "rounding", "TIE_TO_EVEN") != "TIE_TO_EVEN":
        return None
    ks = {"NEITHER": range(1, n), "MINIMUM": range(0, n), "MAXIMUM": range(1, n + 1), "BOTH": range(0, n + 1)}[
        call.args[0].enum]
    if not ks:
        return None
    return "quantile_cont({0}, [" + ", ".join(repr(k / n) for k in ks) + "])"


register(Spec(A, "quantile", quantile_model, kind="aggregate", nulls="none", any_types=QUANTILE_TYPES,
              variants=_quantile_variants, rows=_quantile_rows, duckdb=_quantile_duckdb,
              engine_notes=[EngineNote("duckdb", _quantile_close,
                                       "quantile's boundaries at k/n of the values in the input's order, interpolated "
                                       "once and rounded; DuckDB's quantile_cont sorts and interpolates in double "
                                       "(lo + d·(hi - lo))")]))


# ---- count, any_value, approx_count_distinct ------------------------------------------------------------------------------
def count_model(call, rows):
    n = len(rows) if not call.value_types else len(values_of(rows))
    return Value(decimal.Decimal(n) if call.out.kind == "decimal" else n)


def _count_sql(call):
    inner = "count({0})" if call.value_types else "count(*)"
    return inner if call.out.kind != "decimal" else f"CAST({inner} AS DECIMAL(38,0))"


for _ext in (G, DO):
    register(Spec(_ext, "count", count_model, kind="aggregate", nulls="none", duckdb=_count_sql, datafusion=_count_sql))


def any_value_model(call, rows):
    vals = values_of(rows)
    if opt(call, "ignore_nulls") == "TRUE" or not rows:
        return Value(vals[0]) if vals else NULL
    return Value(rows[0][0]) if rows[0][0] is not None else NULL


def any_value_accept(call, rows, exp, got) -> bool:
    """Any value of the group; NULL too where the group has one and ignore_nulls is not TRUE."""
    vals = values_of(rows)
    if isinstance(got, Null):
        return not vals or (opt(call, "ignore_nulls") != "TRUE" and len(vals) < len(rows))
    return isinstance(got, Value) and any(same_value(v, got.v) for v in vals)


register(Spec(G, "any_value", any_value_model, kind="aggregate", nulls="none", accept=any_value_accept,
              duckdb=lambda c: "any_value({0})" if opt(c, "ignore_nulls") == "TRUE" else "first({0})",
              datafusion=lambda c: "first_value({0}) IGNORE NULLS" if opt(c, "ignore_nulls") == "TRUE"
              else "first_value({0})"))


def _distinct_key(x):
    if isinstance(x, float):
        return "nan" if math.isnan(x) else x + 0.0
    return x


def approx_model(call, rows):
    n = len({_distinct_key(v) for v in values_of(rows)})
    return Value(decimal.Decimal(n) if call.out.kind == "decimal" else n)


def approx_accept(call, rows, exp, got) -> bool:
    """Within three relative standard errors (3 × 5%, Spark's HyperLogLog++ default) of the exact
    count of distinct non-NULL values, -0.0 and 0.0 counted apart or together; 0 exactly for none."""
    if not isinstance(got, Value):
        return False
    vals = values_of(rows)
    exact = len({_distinct_key(v) for v in vals})
    apart = len({(repr(v) if isinstance(v, float) else v) for v in vals})
    if exact == 0:
        return got.v == 0
    return any(abs(int(got.v) - d) <= math.ceil(0.15 * d) for d in (exact, apart))


def _approx_sql(fn):
    return lambda c: f"{fn}({{0}})" if c.out.kind != "decimal" else f"CAST({fn}({{0}}) AS DECIMAL(38,0))"


for _ext in (X, DO):
    register(Spec(_ext, "approx_count_distinct", approx_model, kind="aggregate", nulls="none", accept=approx_accept,
                  duckdb=_approx_sql("approx_count_distinct"), datafusion=_approx_sql("approx_distinct")))
