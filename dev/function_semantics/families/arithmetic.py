"""functions_arithmetic: the integer and floating-point scalar functions.

Integers are worked out exactly with Python's integers; floating point exactly with
fractions rounded to the format in the call's rounding mode (IEEE 754's correctly rounded
basic operations), and the other functions with MPFR, correctly rounded in the mode the call
names. With no rounding option the JVM's own functions may be one unit in the last place off
the correctly rounded value, as every engine's libm (the tolerance below).
"""

import math
from fractions import Fraction

import gmpy2

from families.common import DEFAULT_OVERFLOW, choice, int_result, nan, signbit, trunc_div
from floats import mpfr_call, round_fraction
from outcomes import NULL, Error, Undefined, Value
from spec import EngineNote, Reading, Spec, opt, register

A = "functions_arithmetic"
INTS = ("i8", "i16", "i32", "i64")


def _is_int(call) -> bool:
    return call.value_types[0].is_integer


def _single(call) -> bool:
    return call.out.kind == "fp32"


# ---- add, subtract, multiply -------------------------------------------------------------------------
def _fp_sum(x: float, y: float, mode, single) -> float:
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if math.isinf(x) and math.isinf(y):
        return x if x == y else math.nan
    if math.isinf(x) or math.isinf(y):
        return x if math.isinf(x) else y
    q = Fraction(x) + Fraction(y)
    if q == 0:
        both_zero = x == 0 and y == 0
        negative = (signbit(x) and signbit(y)) if both_zero else False
        if mode == "FLOOR" and not (both_zero and not signbit(x) and not signbit(y)):
            negative = True
        return round_fraction(q, mode, single, -1 if negative else 1)
    return round_fraction(q, mode, single)


def _fp_product(x: float, y: float, mode, single) -> float:
    if math.isnan(x) or math.isnan(y):
        return math.nan
    negative = signbit(x) != signbit(y)
    if (math.isinf(x) and y == 0) or (math.isinf(y) and x == 0):
        return math.nan
    if math.isinf(x) or math.isinf(y):
        return -math.inf if negative else math.inf
    q = Fraction(x) * Fraction(y)
    if q == 0:
        return -0.0 if negative else 0.0
    return round_fraction(q, mode, single)


def _binary(int_op, fp_op):
    def model(call, row):
        x, y = row
        if _is_int(call):
            return int_result(call, int_op(x, y))
        return Value(fp_op(x, y, opt(call, "rounding"), _single(call)))
    return model


def _saturate_sql(op, engine):
    wide = "HUGEINT" if engine == "duckdb" else "DECIMAL(38,0)"

    def template(call):
        t = call.out
        if t.is_integer and opt(call, "overflow") == "SATURATE":
            lo, hi = t.int_range()
            exact = f"(CAST({{0}} AS {wide}) {op} CAST({{1}} AS {wide}))"
            return (f"CAST(CASE WHEN {exact} > {hi} THEN {hi} WHEN {exact} < {lo} THEN {lo} ELSE {exact} END "
                    f"AS {t.sql(engine)})")
        if t.is_integer and opt(call, "overflow") == "SILENT" and engine == "duckdb":
            return None
        if t.is_float and opt(call, "rounding", "TIE_TO_EVEN") != "TIE_TO_EVEN":
            return None
        return f"{{0}} {op} {{1}}"
    return template


def _wraps(call, row, exp, got) -> bool:
    """DataFusion's integer + - * wrap around where the YAML's overflow ERROR asks for an error."""
    return call.out.is_integer and isinstance(exp, Error) and exp.kind == "overflow" and isinstance(got, Value)


DATAFUSION_WRAPS = EngineNote("datafusion", _wraps,
                              "overflow ERROR: \"ERROR\" raises on integer overflow; DataFusion 55 wraps around "
                              "(two's complement) instead")


def _duckdb_float_overflow(call, row, exp, got) -> bool:
    return call.out.is_float and isinstance(exp, Value) and isinstance(exp.v, float) and math.isinf(exp.v) \
        and isinstance(got, Error) and all(math.isfinite(v) for v in row if isinstance(v, float))


DUCKDB_FLOAT_OVERFLOW = EngineNote("duckdb", _duckdb_float_overflow,
                                   "floating point results follow IEEE 754 (add(1.5e+308, 1.5e+308) = inf in the spec's "
                                   "cases); DuckDB 1.1.3 raises 'Overflow in … of DOUBLE' when finite operands give an "
                                   "infinity")

for name, iop, fop, sql in (("add", lambda x, y: x + y, _fp_sum, "+"),
                            ("subtract", lambda x, y: x - y, lambda x, y, m, s: _fp_sum(x, -y, m, s), "-"),
                            ("multiply", lambda x, y: x * y, _fp_product, "*")):
    register(Spec(A, name, _binary(iop, fop), duckdb=_saturate_sql(sql, "duckdb"),
                  datafusion=_saturate_sql(sql, "datafusion"),
                  engine_notes=[DATAFUSION_WRAPS, DUCKDB_FLOAT_OVERFLOW]))


# ---- divide -----------------------------------------------------------------------------------------------
def _divide(call, row):
    x, y = row
    if _is_int(call):
        if y == 0:
            return choice(opt(call, "on_division_by_zero", DEFAULT_OVERFLOW), "division_by_zero")
        return int_result(call, trunc_div(x, y))
    single = _single(call)
    if math.isnan(x) or math.isnan(y) or (math.isinf(x) and math.isinf(y)):
        return choice(opt(call, "on_domain_error", "NAN"), "domain")
    negative = signbit(x) != signbit(y)
    if y == 0:
        by_zero = opt(call, "on_division_by_zero", DEFAULT_OVERFLOW)
        if by_zero in ("NULL", "ERROR"):
            return choice(by_zero, "division_by_zero")
        if by_zero == "IEEE" and x == 0:
            return nan()
        return Value(-math.inf if negative else math.inf)
    if math.isinf(x):
        return Value(-math.inf if negative else math.inf)
    if math.isinf(y) or x == 0:
        return Value(-0.0 if negative else 0.0)
    return Value(round_fraction(Fraction(x) / Fraction(y), opt(call, "rounding"), single))


def _divide_duckdb(call):
    if _is_int(call):
        # SATURATE: DuckDB has no such division; SILENT: its // raises an overflow error for MIN // -1
        if opt(call, "overflow") in ("SATURATE", "SILENT"):
            return None
        # DuckDB's // is NULL for a zero divisor, as on_division_by_zero NULL asks
        return "{0} // {1}" if opt(call, "on_division_by_zero") == "NULL" else None
    if opt(call, "rounding", "TIE_TO_EVEN") != "TIE_TO_EVEN" or opt(call, "on_domain_error", "NAN") != "NAN":
        return None
    return "{0} / {1}" if opt(call, "on_division_by_zero") == "NULL" else None


def _divide_datafusion(call):
    if _is_int(call):
        return "{0} / {1}" if opt(call, "overflow", "ERROR") == "ERROR" and \
            opt(call, "on_division_by_zero", "ERROR") == "ERROR" else None
    if opt(call, "rounding", "TIE_TO_EVEN") != "TIE_TO_EVEN" or opt(call, "on_domain_error", "NAN") != "NAN":
        return None
    return "{0} / {1}" if opt(call, "on_division_by_zero") in ("IEEE",) else None


def _duckdb_float_by_zero(call, row, exp, got) -> bool:
    return call.out.is_float and row[1] == 0 and isinstance(exp, type(NULL)) and isinstance(got, Value) \
        and math.isinf(got.v)


def _duckdb_zero_by_zero(call, row, exp, got) -> bool:
    return call.out.is_float and row[0] == 0 and row[1] == 0 and isinstance(got, Value) and math.isnan(got.v)


register(Spec(A, "divide", _divide, duckdb=_divide_duckdb, datafusion=_divide_datafusion,
              engine_notes=[DUCKDB_FLOAT_OVERFLOW,
                            EngineNote("duckdb", _duckdb_float_by_zero,
                                       "on_division_by_zero NULL: \"The `on_division_by_zero` option governs behavior in "
                                       "cases where y is 0\"; DuckDB 1.1.3's / of REAL and DOUBLE values gives ±inf for "
                                       "a non-zero x over 0"),
                            EngineNote("duckdb", _duckdb_zero_by_zero,
                                       "on_division_by_zero NULL: \"The `on_division_by_zero` option governs behavior in "
                                       "cases where y is 0\"; DuckDB 1.1.3's / is NULL for a zero divisor but NaN for 0 / 0")]))


# ---- modulus ------------------------------------------------------------------------------------------------
def _modulus(call, row):
    x, y = row
    if y == 0:
        return choice(opt(call, "on_domain_error", DEFAULT_OVERFLOW), None) if opt(call, "on_domain_error") != "NULL" \
            else NULL
    q = trunc_div(x, y) if opt(call, "division_type", "TRUNCATE") == "TRUNCATE" else x // y
    return int_result(call, x - q * y)


MODULUS_MIN = EngineNote("duckdb", lambda c, r, e, g: r[1] == -1 and isinstance(g, Error),
                         "modulus: \"x = y * q + r\" with abs(r) < abs(y): MIN % -1 is 0; DuckDB 1.1.3 raises "
                         "an overflow error for it")

register(Spec(A, "modulus", _modulus, engine_notes=[MODULUS_MIN],
              duckdb=lambda c: "{0} % {1}" if opt(c, "division_type", "TRUNCATE") == "TRUNCATE"
              and opt(c, "on_domain_error") == "NULL" else None,
              datafusion=lambda c: "{0} % {1}" if opt(c, "division_type", "TRUNCATE") == "TRUNCATE"
              and opt(c, "on_domain_error", "ERROR") == "ERROR" else None))


# ---- unary ----------------------------------------------------------------------------------------------------
def _unary(int_op, fp_op):
    def model(call, row):
        (x,) = row
        return int_result(call, int_op(x)) if _is_int(call) else Value(fp_op(x))
    return model


def _unary_sql(fn):
    def template(call):
        if call.out.is_integer and opt(call, "overflow") in ("SATURATE", "SILENT"):
            return None
        return fn
    return template


register(Spec(A, "negate", _unary(lambda x: -x, lambda x: -x), duckdb=_unary_sql("-{0}"),
              datafusion=_unary_sql("-{0}"), engine_notes=[DATAFUSION_WRAPS]),
         Spec(A, "abs", _unary(abs, abs), duckdb=_unary_sql("abs({0})"), datafusion=_unary_sql("abs({0})")))


def _sign(call, row):
    (x,) = row
    if _is_int(call):
        return Value((x > 0) - (x < 0))
    if math.isnan(x) or x == 0:
        return Value(x)
    return Value(1.0 if x > 0 else -1.0)


register(Spec(A, "sign", _sign, duckdb=lambda c: "sign({0})" if c.out.is_integer else None,
              datafusion=lambda c: "signum({0})" if c.out.is_float else None,
              engine_notes=[EngineNote("datafusion", lambda c, r, e, g: r[0] == 0 and signbit(r[0]),
                                       "sign: \"Possible return values are [-1.0, -0.0, 0.0, 1.0, NaN]\": sign(-0.0) "
                                       "is -0.0; DataFusion 55's signum gives 0.0")]))


# ---- power, factorial ---------------------------------------------------------------------------------------------
def _power(call, row):
    x, y = row
    if _is_int(call):
        if y < 0:
            return Error("domain")
        # |x| >= 2 to a power of 70 or more is beyond i64 either way: keep its sign (the parity of y).
        return int_result(call, x ** y) if abs(x) < 2 or y < 70 else int_result(call, x ** (70 + y % 2))
    return Value(mpfr_call(lambda a, b: a ** b, [x, y], None, _single(call)))


def _power_truncated(call, row):
    x, y = row
    if y >= 0:
        return _power(call, row)
    return Value(1 if x == 1 else ((-1) ** (-y) if x == -1 else 0)) if x != 0 else Error("division_by_zero")


register(Spec(A, "power", _power, tolerance=lambda c: 0 if c.out.is_integer else 1,
              engine_notes=[DUCKDB_FLOAT_OVERFLOW],
              engine_tolerance=lambda c: 0 if c.out.is_integer else 1,
              duckdb=lambda c: f"CAST(pow({{0}}, {{1}}) AS {c.out.sql('duckdb')})" if c.out.is_float else None,
              datafusion=lambda c: f"CAST(power({{0}}, {{1}}) AS {c.out.sql('datafusion')})" if c.out.is_float else None,
              alternatives=[Reading("an integer to a negative power truncated toward zero, as integer division does",
                                    _power_truncated,
                                    "the YAML defines power(x, y) for i64 without saying what a negative exponent "
                                    "gives: ours is a domain error (the result is no integer)")]))


def _factorial(call, row):
    (n,) = row
    if n < 0:
        return Error("domain")
    if n > 25:
        return int_result(call, 1 << 200)
    return int_result(call, math.factorial(n))


register(Spec(A, "factorial", _factorial))


# ---- bitwise and shifts ----------------------------------------------------------------------------------------------
def _wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}

register(
    Spec(A, "bitwise_and", lambda c, r: Value(r[0] & r[1]), duckdb=lambda c: "{0} & {1}", datafusion=lambda c: "{0} & {1}"),
    Spec(A, "bitwise_or", lambda c, r: Value(r[0] | r[1]), duckdb=lambda c: "{0} | {1}", datafusion=lambda c: "{0} | {1}"),
    Spec(A, "bitwise_xor", lambda c, r: Value(r[0] ^ r[1]), duckdb=lambda c: "xor({0}, {1})",
         datafusion=lambda c: "{0} # {1}"),
    Spec(A, "bitwise_not", lambda c, r: Value(~r[0]), duckdb=lambda c: "~{0}", datafusion=lambda c: "~{0}"),
)


def _shift(kind):
    def model(call, row):
        x, n = row
        bits = BITS[call.out.kind]
        if not 0 <= n < bits:
            return Undefined("a shift by a negative count or by the width or more is not defined by the YAML")
        if kind == "left":
            return Value(_wrap(x << n, bits))
        if kind == "right":
            return Value(x >> n)
        return Value(_wrap((x & ((1 << bits) - 1)) >> n, bits))
    return model


def _shift_edges(call, i, edges):
    return edges if i == 0 else [None, 0, 1, 2, 7, 31, 63, 64, 32, -1, 100]


for _name, _kind, _sql in (("shift_left", "left", "{0} << {1}"), ("shift_right", "right", "{0} >> {1}"),
                           ("shift_right_unsigned", "unsigned", None)):
    register(Spec(A, _name, _shift(_kind), edges=_shift_edges,
                  engine_notes=[EngineNote("duckdb", lambda c, r, e, g: c.name == "shift_left" and isinstance(g, Error),
                                           "shift_left: \"The vacant (least-significant) bits are filled with zeros\" "
                                           "and the bits shifted out are dropped; DuckDB 1.1.3 raises an out-of-range "
                                           "error when a set bit is shifted out (or the count is negative or too big)")],
                  duckdb=(lambda s: (lambda c: s))(_sql), datafusion=(lambda s: (lambda c: s))(_sql)))


# ---- floating-point functions --------------------------------------------------------------------------------------------
def _floating(fn, composite=False):
    def model(call, row):
        args = list(row)
        r = mpfr_call(fn, args, opt(call, "rounding"), _single(call), composite)
        if math.isnan(r) and not any(isinstance(a, float) and math.isnan(a) for a in args):
            return choice(opt(call, "on_domain_error", "NAN"), "domain")
        return Value(r)
    return model


def _libm_tolerance(call) -> float:
    """Correctly rounded when the call names a rounding mode; the JVM's libm (1 ulp) otherwise."""
    return 0 if opt(call, "rounding") else 1


def _radians(x):
    return gmpy2.mpfr(x) * gmpy2.const_pi() / 180


def _degrees(x):
    return gmpy2.mpfr(x) * 180 / gmpy2.const_pi()


def _nearest_sql(fn, engine):
    """The engine's function where it means the same (nearest rounding, NaN outside the domain),
    its result brought to the call's type (DuckDB computes fp32 functions in double)."""
    def template(call):
        if opt(call, "rounding", "TIE_TO_EVEN") != "TIE_TO_EVEN" or opt(call, "on_domain_error", "NAN") != "NAN":
            return None
        return f"CAST({fn} AS {call.out.sql(engine)})"
    return template


def _domain_error(call, row, exp, got) -> bool:
    return isinstance(exp, Value) and isinstance(exp.v, float) and math.isnan(exp.v) and isinstance(got, Error) \
        and not any(isinstance(v, float) and math.isnan(v) for v in row)


DOMAIN_NOTES = [EngineNote(engine, _domain_error,
                           "on_domain_error NAN (the YAML's first value; IEEE 754's answer, as for asin(2) or cos(inf)): "
                           f"{name} raises an error for an argument outside the function's domain")
                for engine, name in (("duckdb", "DuckDB 1.1.3"), ("datafusion", "DataFusion 55"))]


for _name, _fn, _duck, _df in (
        ("sqrt", gmpy2.sqrt, "sqrt({0})", "sqrt({0})"), ("exp", gmpy2.exp, "exp({0})", "exp({0})"),
        ("sin", gmpy2.sin, "sin({0})", "sin({0})"), ("cos", gmpy2.cos, "cos({0})", "cos({0})"),
        ("tan", gmpy2.tan, "tan({0})", "tan({0})"), ("sinh", gmpy2.sinh, None, "sinh({0})"),
        ("cosh", gmpy2.cosh, None, "cosh({0})"), ("tanh", gmpy2.tanh, None, "tanh({0})"),
        ("asin", gmpy2.asin, "asin({0})", "asin({0})"), ("acos", gmpy2.acos, "acos({0})", "acos({0})"),
        ("atan", gmpy2.atan, "atan({0})", "atan({0})"), ("asinh", gmpy2.asinh, None, "asinh({0})"),
        ("acosh", gmpy2.acosh, None, "acosh({0})"), ("atanh", gmpy2.atanh, None, "atanh({0})"),
        ("atan2", gmpy2.atan2, "atan2({0}, {1})", "atan2({0}, {1})"),
        ("radians", _radians, "radians({0})", "radians({0})"), ("degrees", _degrees, "degrees({0})", "degrees({0})")):
    register(Spec(A, _name, _floating(_fn, _name in ("radians", "degrees")), tolerance=_libm_tolerance,
                  # DataFusion's atanh (0.5·log1p(2x/(1-x))) is 2 ulps off near ±1
                  engine_tolerance=(lambda c: 4) if _name == "atanh" else (lambda c: 1),
                  engine_notes=DOMAIN_NOTES + [DUCKDB_FLOAT_OVERFLOW],
                  duckdb=_nearest_sql(_duck, "duckdb") if _duck else None,
                  datafusion=_nearest_sql(_df, "datafusion") if _df else None))
