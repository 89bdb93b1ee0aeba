"""functions_logarithmic: ln, log10, log2, logb, log1p of i64, fp32, fp64 and decimal x.

The model takes x (and logb's base) exactly (a decimal is its exact value, an i64 its exact
integer) and rounds the logarithm once, correctly, to the result format in the rounding
option's mode (MPFR; rational results such as log10(0.01) = -2 or log_4(8) = 1.5 exactly).
With no rounding option the JVM's libm may be one unit in the last place off (tolerance 1
ulp); a rounding option asks for the correctly rounded value (tolerance 0).

Outside the domain (x < 0, log1p's x < -1, a logb base that is not positive or is 1, and
log_inf(inf)) on_domain_error decides (NAN when unset); the logarithm of zero (log1p's -1)
on_log_zero (MINUS_INFINITY when unset). A NaN argument gives NaN.
"""

import math
from fractions import Fraction

import gmpy2

from floats import mpfr_call, round_fraction
from outcomes import NULL, Error, Value
from spec import EngineNote, Reading, Spec, opt, register

L = "functions_logarithmic"
WIDE = dict(precision=400, emax=1 << 24, emin=-(1 << 24))
_ROUND = {"TIE_TO_EVEN": gmpy2.RoundToNearest, "TIE_AWAY_FROM_ZERO": gmpy2.RoundToNearest,
          "TRUNCATE": gmpy2.RoundToZero, "CEILING": gmpy2.RoundUp, "FLOOR": gmpy2.RoundDown}


def _single(call) -> bool:
    return call.out.kind == "fp32"


def _mp(q: Fraction):
    return gmpy2.mpfr(gmpy2.mpq(q.numerator, q.denominator))


def _round_wide(wide, mode, single) -> float:
    ctx = gmpy2.ieee(32 if single else 64)
    ctx.round = _ROUND[mode or "TIE_TO_EVEN"]
    with gmpy2.context(ctx):
        return float(ctx.plus(wide))


def _exact_log(x: Fraction, base: Fraction) -> Fraction | None:
    """log_base(x) when it is rational (x**q == base**p for small p, q), else None."""
    if x == 1:
        return Fraction(0)
    with gmpy2.context(gmpy2.context(precision=200)):
        approx = gmpy2.log(_mp(x)) / gmpy2.log(_mp(base))
    n, d = approx.as_integer_ratio()
    guess = Fraction(int(n), int(d)).limit_denominator(64)
    p, q = guess.numerator, guess.denominator
    def bits(v: Fraction) -> int:
        return max(v.numerator.bit_length(), v.denominator.bit_length())
    # x**q and base**p have about q·bits(x) and |p|·bits(base) bits: cheap even for 2**-1074 and 0.5.
    if guess == 0 or q * bits(x) + abs(p) * bits(base) > 400_000:
        return None
    if x ** q == base ** p:
        return guess
    return None


def _log_of(q: Fraction, fn: str, mode, single, base: Fraction | None = None) -> float:
    """The correctly rounded logarithm of the positive rational q."""
    b = {"ln": None, "log2": Fraction(2), "log10": Fraction(10)}.get(fn, base)
    if fn == "log1p":
        q = 1 + q
        b = None
    if b is not None:
        exact = _exact_log(q, b)
        if exact is not None:
            return round_fraction(exact, mode, single)
    elif q == 1:
        return 0.0
    with gmpy2.context(gmpy2.context(**WIDE)):
        wide = gmpy2.log(_mp(q)) if b is None else gmpy2.log(_mp(q)) / gmpy2.log(_mp(b))
    return _round_wide(wide, mode, single)


def _choice(value: str, kind: str):
    if value == "NULL":
        return NULL
    if value == "ERROR":
        return Error(kind)
    if value == "MINUS_INFINITY":
        return Value(-math.inf)
    return Value(math.nan)


def _domain(call):
    return _choice(opt(call, "on_domain_error", "NAN"), "domain")


def _log_zero(call):
    return _choice(opt(call, "on_log_zero", "MINUS_INFINITY"), "log_zero")


def _num(v):
    """An argument as a Fraction, or the float itself when NaN or infinite."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return v
    return Fraction(v)


def _unary(fn: str):
    lowest = -1 if fn == "log1p" else 0

    def model(call, row):
        x = _num(row[0])
        mode, single = opt(call, "rounding"), _single(call)
        if isinstance(x, float):
            if math.isnan(x):
                return Value(math.nan)
            return Value(math.inf) if x > 0 else _domain(call)
        if x < lowest:
            return _domain(call)
        if x == lowest:
            return _log_zero(call)
        if isinstance(row[0], (float, int)):
            # a float or integer argument is exact in 128 bits: MPFR's own function rounds correctly
            f = {"ln": gmpy2.log, "log2": gmpy2.log2, "log10": gmpy2.log10, "log1p": gmpy2.log1p}[fn]
            return Value(mpfr_call(f, [row[0]], mode, single))
        return Value(_log_of(x, fn, mode, single))
    return model


def _logb(base_zero_minus_inf=True):
    def model(call, row):
        x, b = _num(row[0]), _num(row[1])
        mode, single = opt(call, "rounding"), _single(call)
        if (isinstance(x, float) and math.isnan(x)) or (isinstance(b, float) and math.isnan(b)):
            return Value(math.nan)
        if b <= 0 or b == 1 or x < 0:
            return _domain(call)
        if x == 0:
            return _log_zero(call) if base_zero_minus_inf or b > 1 else Value(math.inf)
        if isinstance(b, float):   # base +inf: ln x / inf
            if isinstance(x, float):
                return _domain(call)   # log_inf(inf): no value
            return Value(-0.0 if x < 1 else 0.0)
        if isinstance(x, float):   # x +inf
            return Value(math.inf if b > 1 else -math.inf)
        return Value(_log_of(x, "logb", mode, single, base=b))
    return model


def _logb_one_signed(model):
    """The Reading ZERO_SIGN: log_b(1) with the sign of ln(1) / ln(b)."""
    def alt(call, row):
        out = model(call, row)
        x, b = row[0], row[1]
        if isinstance(out, Value) and out.v == 0 and x is not None and b is not None and float(x) == 1 and \
                0 < float(b) < 1:
            return Value(-0.0)
        return out
    return alt


def _as_fp64(model):
    """The Reading ARGUMENT_AS_FP64: i64 and decimal arguments rounded to fp64 first."""
    def alt(call, row):
        return model(call, tuple(v if v is None or isinstance(v, float) else float(v) for v in row))
    return alt


AS_FP64 = ("ARGUMENT_AS_FP64: an i64 or decimal argument rounded to fp64 before the logarithm",
           "the YAML returns fp64 for i64 and decimal arguments without saying whether the logarithm of the exact "
           "value is rounded once or the argument is first rounded to fp64 (what an fp64 logarithm does); near 1 "
           "the two differ by many ulps (ln(1.0000000001) has 7 correct digits the second way)")


def _edges(call, i, edges):
    """Decimals near 1 too, where rounding the argument to fp64 first loses the logarithm's digits;
    logb's base: a few bases of each kind (inside, at and beyond the domain's edges)."""
    t = call.value_types[i]
    if call.name == "logb" and i == 1:
        def keep(v):
            if v is None or isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
                return True
            f = float(v)
            return f in (0.0, 1.0, -1.0, 2.0, 10.0, 0.5, 3.0, 1e-300, 1e300, 7.0, 100.0) or f == float(edges[-1] or 0)
        return [v for v in edges if keep(v)] + _near_one(t)[:2]
    return edges + [v for v in _near_one(t) if v not in edges]


def _near_one(t):
    if t.kind != "decimal" or t.s == 0:
        return []
    import decimal
    q = decimal.Decimal(1).scaleb(-t.s)
    near = [1 + q, 1 - q, 1 + 7 * q, 1 - 3 * q, decimal.Decimal("1.5"), decimal.Decimal("-0.5")]
    return [v.quantize(q) for v in near if abs(v) < 10 ** (t.p - t.s)]


def _skip(call):
    """Every combination of the three options on i64, fp32, fp64 and one decimal type (two for
    logb); the other decimal types with at most one option (the options act independently)."""
    decimals = [t for t in call.value_types if t.kind == "decimal"]
    if len(call.options) >= 2 and decimals and (decimals[0].p, decimals[0].s) != (38, 10):
        return "every option combination runs on decimal<38,10>"
    return None


def _tolerance(call) -> float:
    """Correctly rounded when the call names a rounding mode; the JVM's libm (1 ulp) otherwise."""
    return 0 if opt(call, "rounding") else 1


# ---- engines -----------------------------------------------------------------------------------------------------
def _engine_sql(fn: str, engine: str):
    def template(call):
        if opt(call, "rounding", "TIE_TO_EVEN") != "TIE_TO_EVEN":
            return None
        if fn == "log1p":
            return None     # neither engine has log1p (ln(1 + x) loses the small x)
        arg = "{0}" if call.value_types[0].kind != "decimal" else "CAST({0} AS DOUBLE)"
        if fn == "logb":
            base = "{1}" if call.value_types[1].kind != "decimal" else "CAST({1} AS DOUBLE)"
            expr = f"log({base}, {arg})"       # both engines take the base first
        else:
            expr = f"{fn}({arg})"
        if call.out.kind == "fp32":
            expr = f"CAST({expr} AS REAL)"
        return expr
    return template


def _duck_errors(call, row, exp, got) -> bool:
    """DuckDB raises for zero and negative arguments whatever the options ask."""
    return isinstance(got, Error) and any(
        (isinstance(v, (int, float)) or hasattr(v, "as_tuple")) and not (isinstance(v, float) and math.isnan(v))
        and v <= 0 for v in row)


DUCK_ERRORS = EngineNote("duckdb", _duck_errors,
                         "on_domain_error: [NAN, NULL, ERROR], on_log_zero: [NAN, ERROR, MINUS_INFINITY]: DuckDB 1.1.3 "
                         "raises 'cannot take logarithm of zero / a negative number' whatever the option asks")


def _df_domain(call, row, exp, got) -> bool:
    """DataFusion: NaN outside the domain, -inf at zero, whatever the options ask."""
    return hasattr(got, "v") and isinstance(got.v, float) and (math.isnan(got.v) or got.v == -math.inf) and \
        (isinstance(exp, Error) or exp is NULL or (hasattr(exp, "v") and isinstance(exp.v, float)
                                                   and (math.isnan(exp.v) or math.isinf(exp.v))))


DF_DOMAIN = EngineNote("datafusion", _df_domain,
                       "on_domain_error: [NAN, NULL, ERROR], on_log_zero: [NAN, ERROR, MINUS_INFINITY]: DataFusion 55 "
                       "gives IEEE's NaN and -inf whatever the option asks")


def _engine_base_rules(call, row, exp, got) -> bool:
    """logb through ln x / ln b: a base of 1, 0 or below, or infinite gives IEEE's quotient."""
    if call.name != "logb":
        return False
    b = row[1]
    return b is not None and (float(b) <= 0 or float(b) == 1 or math.isinf(float(b)) or float(row[0]) == 0
                              or math.isinf(float(row[0])))


def _engine_wide_i64(call, row, exp, got) -> bool:
    """An i64 or decimal argument converted to DOUBLE before the logarithm (rounded first)."""
    if not (hasattr(exp, "v") and hasattr(got, "v") and isinstance(got.v, float)):
        return False
    vals = [float(v) for v in row]
    if call.name == "logb":
        alt = mpfr_call(lambda a, b: gmpy2.log(a) / gmpy2.log(b), vals, None, False, composite=True)
    else:
        f = {"ln": gmpy2.log, "log2": gmpy2.log2, "log10": gmpy2.log10}[call.name]
        alt = mpfr_call(f, vals, None, False)
    from outcomes import ulps
    return math.isfinite(alt) and math.isfinite(got.v) and ulps(alt, got.v, False) <= 1


ROUNDED_ARG = "an i64 or decimal x is taken exactly; the engine converts it to DOUBLE first (rounded) and takes the logarithm of that"
BASE_NOTE = ("logb(x, b) => log_{b} (x) (a base that is not positive or is 1 is outside the domain): the engine "
             "divides ln x by ln b and gives IEEE's quotient")

for _fn in ("ln", "log10", "log2", "log1p"):
    register(Spec(L, _fn, _unary(_fn), tolerance=_tolerance, engine_tolerance=lambda c: 1,
                  duckdb=_engine_sql(_fn, "duckdb"),
                  datafusion=_engine_sql(_fn, "datafusion"), edges=_edges, skip_call=_skip,
                  alternatives=[Reading(AS_FP64[0], _as_fp64(_unary(_fn)), AS_FP64[1])],
                  engine_notes=[DUCK_ERRORS, DF_DOMAIN, EngineNote("duckdb", _engine_wide_i64, ROUNDED_ARG),
                                EngineNote("datafusion", _engine_wide_i64, ROUNDED_ARG)]))

# the engines divide ln x by ln b in binary64 (three roundings, none of them asked for): 4 ulps
register(Spec(L, "logb", _logb(), tolerance=_tolerance, engine_tolerance=lambda c: 4, duckdb=_engine_sql("logb", "duckdb"),
              datafusion=_engine_sql("logb", "datafusion"), edges=_edges, skip_call=_skip,
              alternatives=[Reading(AS_FP64[0], _as_fp64(_logb()), AS_FP64[1]),
                            Reading("LOG_ZERO_LIMIT: log_b(0) for a base below 1 is +infinity",
                                    _logb(base_zero_minus_inf=False),
                                    "on_log_zero MINUS_INFINITY names -infinity, the limit of log_b(x) at 0 for a "
                                    "base above 1; for a base between 0 and 1 the limit is +infinity"),
                            Reading("ZERO_SIGN: log_b(1) is ln(1) / ln(b), -0.0 for a base below 1",
                                    _logb_one_signed(_logb()),
                                    "log_b(1) is exactly zero; the YAML (and IEEE 754, which has no logb(x, b)) gives "
                                    "no sign to that zero: the model writes +0.0, ours the sign of IEEE's quotient "
                                    "ln(1) / ln(b), -0.0 for 0 < b < 1")],
              engine_notes=[DUCK_ERRORS, DF_DOMAIN, EngineNote("duckdb", _engine_base_rules, BASE_NOTE),
                            EngineNote("datafusion", _engine_base_rules, BASE_NOTE),
                            EngineNote("duckdb", _engine_wide_i64, ROUNDED_ARG),
                            EngineNote("datafusion", _engine_wide_i64, ROUNDED_ARG)]))
