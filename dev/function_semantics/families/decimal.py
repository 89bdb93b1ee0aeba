"""functions_arithmetic_decimal: the scalar functions on decimals.

Result types are the YAML's return programs (catalog.return_type). Values are worked out
exactly with fractions and brought into the result type: a value with more decimal places
than the result scale is rounded to it, ties away from zero (the YAML gives the type but not
how the value gets into it: SQL's decimal arithmetic, Spark's HALF_UP, DuckDB's and
DataFusion's casts all round half away; truncation and ties-to-even are Readings); a value
with more digits than the precision is what the overflow option asks for (ERROR when unset:
the session's ANSI behaviour; SATURATE the largest decimal of the type; SILENT any value).
"""

import decimal
import math
from fractions import Fraction

import gmpy2

from families.common import DEFAULT_OVERFLOW
from families.rounding import round_integer
from floats import round_fraction
from outcomes import NULL, Error, Undefined, Value
from spec import EngineNote, Reading, Spec, opt, register

D = "functions_arithmetic_decimal"
HALF_AWAY = "TIE_AWAY_FROM_ZERO"


def dec(n: int, s: int) -> decimal.Decimal:
    return decimal.Decimal(n).scaleb(-s)


def fit(call, q: Fraction, mode: str = HALF_AWAY, overflow=None):
    """The exact value q in the call's decimal<p,s> result: rounded to s places in ``mode``,
    then the overflow option for a value beyond p digits."""
    t = call.out
    n = round_integer(q * 10 ** t.s, mode)
    limit = 10 ** t.p - 1
    if abs(n) > limit:
        how = overflow or opt(call, "overflow", DEFAULT_OVERFLOW)
        if how == "SATURATE":
            n = limit if n > 0 else -limit
        elif how == "SILENT":
            return Undefined("overflow SILENT: the result is not defined")
        else:
            return Error("overflow", f"{q} exceeds {t}")
    return Value(dec(n, t.s))


def _by_zero(call, op):
    """A zero divisor: the decimal YAML has no on_division_by_zero or on_domain_error option;
    the session's behaviour (ANSI) is an error (Reading ZERO_DIVISOR_NULL): a division by zero
    for divide, a domain error for modulus (functions_arithmetic's modulus: "The
    `on_domain_error` option governs behavior in cases where y is 0")."""
    return Error("division_by_zero" if op == "divide" else "domain")


def _binary(op, mode=HALF_AWAY, zero_null=False):
    def model(call, row):
        x, y = (Fraction(v) for v in row)
        if op in ("divide", "modulus") and y == 0:
            return NULL if zero_null else _by_zero(call, op)
        if op == "add":
            q = x + y
        elif op == "subtract":
            q = x - y
        elif op == "multiply":
            q = x * y
        elif op == "divide":
            q = x / y
        else:   # modulus: the remainder of truncated division (sign of x), as functions_arithmetic's default
            quotient = x / y
            q = x - y * (quotient.numerator // quotient.denominator if quotient >= 0
                         else -((-quotient.numerator) // quotient.denominator))
        return fit(call, q, mode)
    return model


def _readings(op):
    out = []
    if op in ("add", "subtract", "multiply", "divide"):
        out += [Reading("TRUNCATE: digits beyond the result scale dropped", _binary(op, "TRUNCATE"),
                        "the YAML's return program gives the result type only; how a value with more places "
                        "reaches the reduced scale is not said (Java's BigDecimal and Arrow's decimal division "
                        "truncate)"),
                Reading("TIE_TO_EVEN: ties to the even digit", _binary(op, "TIE_TO_EVEN"),
                        "the YAML's return program gives the result type only; IEEE 754 decimal arithmetic rounds "
                        "ties to even")]
    if op in ("divide", "modulus"):
        out.append(Reading("ZERO_DIVISOR_NULL: a zero divisor gives NULL", _binary(op, zero_null=True),
                           "the decimal YAML has no on_division_by_zero (or on_domain_error) option, so what a zero "
                           "divisor gives is not said: NULL is SQL's legacy answer (Spark with overflow SILENT, "
                           "DuckDB)"))
    return out


# ---- engines ----------------------------------------------------------------------------------------------------
def _sql(op):
    def template(engine):
        def t(call):
            if opt(call, "overflow") in ("SATURATE", "SILENT"):
                return None
            if op == "divide" and engine == "duckdb":
                return None    # DuckDB divides decimals in DOUBLE
            out = call.out.sql(engine)
            return f"CAST(({{0}} {op_sql[op]} {{1}}) AS {out})"
        return t
    return template


op_sql = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "modulus": "%"}


def _engine_overflow_early(call, row, exp, got) -> bool:
    """The engine's own intermediate type (at most 38 digits at the larger scale) overflows
    where the YAML's result type, with its scale reduced, holds the value."""
    return isinstance(exp, Value) and getattr(got, "kind", "x") in (None, "overflow") and not hasattr(got, "v")


def _engine_scale_first(call, row, exp, got) -> bool:
    """The engine's quotient is the exact one truncated at fewer places than the YAML's result
    scale (DataFusion 55: decimal<p1,s1> / decimal<p2,s2> at scale s1 + 4, truncated), which
    the cast to the YAML's type pads with zeros."""
    if call.name != "divide" or not (isinstance(exp, Value) and hasattr(got, "v")
                                     and isinstance(got.v, decimal.Decimal)):
        return False
    q = Fraction(row[0]) / Fraction(row[1])
    for k in range(call.out.s + 1):
        n = q * 10 ** k
        t = n.numerator // n.denominator if n >= 0 else -((-n.numerator) // n.denominator)
        if Fraction(t, 10 ** k) == Fraction(got.v):
            return True
    return False


def _null_by_zero(call, row, exp, got) -> bool:
    return isinstance(exp, Error) and exp.kind in ("division_by_zero", "domain") and got is NULL


def _zero_divisor_error(call, row, exp, got) -> bool:
    return isinstance(exp, Error) and exp.kind in ("division_by_zero", "domain") and isinstance(got, Error)


def _unchecked(call, row, exp, got) -> bool:
    """A 39-digit result in a DECIMAL(38, s) column: the engine does not check the precision."""
    return isinstance(exp, Error) and exp.kind == "overflow" and hasattr(got, "v") and \
        abs(got.v) > 10 ** (call.out.p - call.out.s) - 1


OVERFLOW_NOTE = ("return: \"init_prec > 38 ? scale_after_borrow : init_scale\" (the scale reduced so the integer "
                 "digits fit 38): the engine computes at its own type, at most 38 digits at the full scale, and "
                 "overflows first")
for _op in ("add", "subtract", "multiply", "divide", "modulus"):
    register(Spec(D, _op, _binary(_op), duckdb=_sql(_op)("duckdb"), datafusion=_sql(_op)("datafusion"),
                  alternatives=_readings(_op),
                  engine_notes=[EngineNote("duckdb", _engine_overflow_early, OVERFLOW_NOTE),
                                EngineNote("datafusion", _engine_overflow_early, OVERFLOW_NOTE),
                                EngineNote("datafusion", _engine_scale_first,
                                           "divide: the result is DECIMAL<prec, scale> of the YAML's program "
                                           "(scale max(6, S1 + P2 + 1), reduced above 38 digits): DataFusion 55 "
                                           "divides at scale S1 + 4 and truncates"),
                                EngineNote("duckdb", _null_by_zero,
                                           "the decimal YAML has no on_division_by_zero option (the session "
                                           "errors); DuckDB's % by zero is NULL"),
                                EngineNote("datafusion", _zero_divisor_error,
                                           "a zero divisor is an error (the session's ANSI behaviour): DataFusion "
                                           "55's error for it reads as an overflow"),
                                EngineNote("datafusion", _unchecked,
                                           "the result is DECIMAL<prec, scale> of the YAML's program, at most 38 "
                                           "digits (overflow ERROR): DataFusion 55 returns a 39-digit value in its "
                                           "DECIMAL(38, s) unchecked")]))


# ---- negate, abs ------------------------------------------------------------------------------------------------
register(Spec(D, "negate", lambda c, r: fit(c, -Fraction(r[0])), duckdb=lambda c: "-{0}", datafusion=lambda c: "-{0}"),
         Spec(D, "abs", lambda c, r: fit(c, abs(Fraction(r[0]))), duckdb=lambda c: "abs({0})",
              datafusion=lambda c: "abs({0})"))


# ---- bitwise ------------------------------------------------------------------------------------------------
def _bitwise(fn):
    def model(call, row):
        x, y = (int(v) for v in row)
        return fit(call, Fraction(fn(x, y)), overflow="ERROR")
    return model


def _bit_edges(call, i, edges):
    t = call.value_types[i]
    big = 10 ** t.p - 1
    extra = [-2, 127, -127, 255, 65535, -65536, big - 1, -big + 1, 2 ** 63 - 1, -(2 ** 63), 2 ** 64, 2 ** 100 + 12345,
             -(2 ** 120)]
    return edges + [decimal.Decimal(v) for v in extra if abs(v) <= big and decimal.Decimal(v) not in edges]


def _duck_bitwise(op):
    def t(call):
        a, b = "CAST({0} AS HUGEINT)", "CAST({1} AS HUGEINT)"
        return f"CAST({a} {op} {b} AS {call.out.sql('duckdb')})" if op != "xor" else \
            f"CAST(xor({a}, {b}) AS {call.out.sql('duckdb')})"
    return t


for _name, _fn, _op in (("bitwise_and", lambda a, b: a & b, "&"), ("bitwise_or", lambda a, b: a | b, "|"),
                        ("bitwise_xor", lambda a, b: a ^ b, "xor")):
    register(Spec(D, _name, _bitwise(_fn), edges=_bit_edges, duckdb=_duck_bitwise(_op)))


# ---- sqrt, factorial, power ------------------------------------------------------------------------------------
def _mp(q: Fraction):
    return gmpy2.mpfr(gmpy2.mpq(q.numerator, q.denominator))


WIDE = dict(precision=400, emax=1 << 24, emin=-(1 << 24))


def _to_double(wide, mode=None) -> float:
    ctx = gmpy2.ieee(64)
    ctx.round = {None: gmpy2.RoundToNearest, "TRUNCATE": gmpy2.RoundToZero, "CEILING": gmpy2.RoundUp,
                 "FLOOR": gmpy2.RoundDown}.get(mode, gmpy2.RoundToNearest)
    with gmpy2.context(ctx):
        return float(ctx.plus(wide))


def _sqrt(call, row):
    q = Fraction(row[0])
    if q < 0:
        return Error("domain", "sqrt of a negative decimal")
    root = gmpy2.isqrt(q.numerator) if q.denominator == 1 else None
    if q.denominator == 1 and root * root == q.numerator:
        return Value(round_fraction(Fraction(int(root)), None, False))
    with gmpy2.context(gmpy2.context(**WIDE)):
        wide = gmpy2.sqrt(_mp(q))
    return Value(_to_double(wide))


def _libm(call) -> float:
    return 1


register(Spec(D, "sqrt", _sqrt, tolerance=_libm, duckdb=lambda c: "sqrt({0})", datafusion=lambda c: "sqrt({0})",
              engine_notes=[EngineNote("datafusion", lambda c, r, e, g: isinstance(e, Error) and hasattr(g, "v"),
                                       "\"sqrt of negative values will raise an error\": DataFusion gives NaN"),
                            EngineNote("duckdb", lambda c, r, e, g: isinstance(e, Error) and isinstance(g, Error),
                                       "\"sqrt of negative values will raise an error\": DuckDB 1.1.3 does, an "
                                       "out-of-range error ('cannot take square root of a negative number')")]))


def _factorial(call, row):
    n = Fraction(row[0])
    if n < 0:
        return Error("domain", "factorial of a negative number")
    if n > 40:
        return Error("overflow")
    return fit(call, Fraction(math.factorial(int(n))), overflow="ERROR")


register(Spec(D, "factorial", _factorial,
              edges=lambda c, i, e: e + [decimal.Decimal(v) for v in (3, 5, 12, 20, 21, 25, 33, 34, 35, 99, -3)
                                         if abs(v) < 10 ** c.value_types[0].p and decimal.Decimal(v) not in e]))


def _exact_power(x: Fraction, y: Fraction):
    """x**y when it is rational (and not astronomically large), else None."""
    if y.denominator > 64 or abs(y.numerator) > 4000:
        return None
    q = y.denominator
    if x < 0 and q % 2 == 0:
        return None
    num, den = abs(x.numerator), x.denominator
    rn, ok1 = gmpy2.iroot(num, q)
    rd, ok2 = gmpy2.iroot(den, q)
    if not (ok1 and ok2):
        return None
    base = Fraction(int(rn), int(rd)) * (-1 if x < 0 else 1)
    if base == 0:
        return None
    if abs(y.numerator) * max(base.numerator.bit_length(), base.denominator.bit_length()) > 20000:
        return None
    return base ** y.numerator


def _power(inputs_as_doubles=False):
    def model(call, row):
        if inputs_as_doubles:
            x, y = (Fraction(float(v)) for v in row)
        else:
            x, y = (Fraction(v) for v in row)
        if x == 0:
            if y == 0:
                return Value(1.0)
            return Value(0.0 if y > 0 else math.inf)
        integral_y = y.denominator == 1
        if x < 0 and not integral_y:
            how = opt(call, "complex_number_result", "NAN")
            return Value(math.nan) if how == "NAN" else Error("domain", "a complex power")
        exact = _exact_power(x, y)
        if exact is not None:
            r = round_fraction(exact, None, False)
        else:
            with gmpy2.context(gmpy2.context(**WIDE)):
                magnitude = _mp(abs(x)) ** _mp(y)
                wide = -magnitude if (x < 0 and y.numerator % 2) else magnitude
            r = _to_double(wide)
        if math.isinf(r):
            how = opt(call, "overflow")
            if how == "ERROR":
                return Error("overflow")
            if how == "SATURATE":
                return Value(math.copysign(1.7976931348623157e308, r))
            if how == "SILENT":
                return Undefined("overflow SILENT")
        return Value(r)
    return model


def _datafusion_power_of_rounded_base(call, row, exp, got) -> bool:
    if not (isinstance(exp, Value) and isinstance(got, Value) and isinstance(got.v, float) and row[1] is not None):
        return False
    e = float(exp.v)
    return math.isfinite(e) and e != 0 and abs(got.v - e) <= (abs(float(row[1])) + 2) * 2.0 ** -52 * abs(e)


register(Spec(D, "power", _power(), tolerance=_libm,
              duckdb=lambda c: "pow({0}, {1})" if not c.options else None,
              datafusion=lambda c: "power(CAST({0} AS DOUBLE), CAST({1} AS DOUBLE))" if not c.options else None,
              engine_notes=[EngineNote("datafusion", _datafusion_power_of_rounded_base,
                                       "power(x, y) of decimals returns fp64: DataFusion 55 casts the decimal x to "
                                       "DOUBLE (an ulp off the nearest double) and its pow multiplies that error by y"),
                            EngineNote("datafusion", lambda c, r, e, g: isinstance(g, Error) and r[0] == 0 and r[1] < 0,
                                       "power(0, y) for y < 0 is +inf (IEEE pow; the spec's test power(-16, 1001) = "
                                       "-inf keeps floating exceptions as values): DataFusion 55 raises")],
              alternatives=[Reading("ARGUMENTS_AS_FP64: x and y converted to fp64 first, then power",
                                    _power(inputs_as_doubles=True),
                                    "the YAML returns fp64 for decimal x and y without saying whether the power of "
                                    "the exact decimals is rounded once or the decimals are rounded to fp64 first "
                                    "(what an fp64 pow does); the two differ by many ulps when y is large")]))
