"""functions_comparison: the comparisons of any type, the NULL and truth-value predicates, the
floating-point class predicates, nullif, coalesce and least / greatest (and their _skip_null forms).

Order: numbers by value (decimals exactly), strings by code point (UTF-8 byte order), booleans
false before true, dates, times and timestamps by time (timestamps with zone by instant),
intervals by their total months / microseconds (the YAML's type classes: "only the total
number ... is significant").

Floating point: fp32 and fp64 are IEEE 754 (the type classes), so `x == y` and `x < y` are IEEE
754's comparisons: NaN is unordered (every comparison false, `!=` true), -0.0 equals 0.0. That
is the model. Every SQL engine (Spark, DuckDB, DataFusion) instead orders NaN above every number
and equal to itself: a documented reading (``SQL_ORDER``), not the model, since nothing in the
YAML says so. least / greatest: IEEE 754-2019 minimum / maximum (NaN if any argument is NaN,
-0.0 below 0.0), with the SQL orders as readings.
"""

import math

from outcomes import NULL, Value
from spec import EngineNote, Reading, Spec, register
from stypes import SType

C = "functions_comparison"

ANY_TYPES = (SType("i8"), SType("i16"), SType("i32"), SType("i64"), SType("fp32"), SType("fp64"),
             SType("decimal", 10, 2), SType("decimal", 38, 10), SType("string"), SType("varchar", 30),
             SType("fixedchar", 5), SType("boolean"), SType("date"), SType("precision_timestamp", 6),
             SType("precision_timestamp_tz", 6), SType("precision_time", 6), SType("interval_year"),
             SType("interval_day", 6))
# the variadic functions: fewer types (each call runs on random picks of every type's edge values)
VARIADIC_TYPES = (SType("i32"), SType("i64"), SType("fp32"), SType("fp64"), SType("decimal", 38, 10), SType("string"),
                  SType("boolean"), SType("date"), SType("precision_timestamp", 6), SType("precision_timestamp_tz", 6),
                  SType("interval_day", 6))


def _nan(x) -> bool:
    return isinstance(x, float) and math.isnan(x)


# ---- three orders: IEEE 754 (the model), SQL's (NaN largest, -0.0 = 0.0), IEEE totalOrder -------------
def ieee_cmp(x, y):
    """-1, 0, 1, or None when unordered (a NaN)."""
    if _nan(x) or _nan(y):
        return None
    return (x > y) - (x < y)


def sql_cmp(x, y):
    """NaN equal to NaN and above every number (Spark, DuckDB, DataFusion, PostgreSQL)."""
    if _nan(x) or _nan(y):
        return _nan(x) - _nan(y)
    return (x > y) - (x < y)


def _total_key(x):
    """IEEE 754 totalOrder: -NaN below -inf, -0.0 below 0.0, NaN above +inf."""
    if isinstance(x, float):
        if _nan(x):
            return (2 if math.copysign(1, x) > 0 else -2, 0.0, True)
        return (0, x, math.copysign(1, x) > 0)
    return (0, x, True)


def _relation(cmp, test):
    def model(call, row):
        c = cmp(row[0], row[1])
        return Value(False if c is None else test(c))
    return model


def _not_equal(cmp):
    def model(call, row):
        c = cmp(row[0], row[1])
        return Value(True if c is None else c != 0)
    return model


TESTS = {"equal": lambda c: c == 0, "lt": lambda c: c < 0, "gt": lambda c: c > 0,
         "lte": lambda c: c <= 0, "gte": lambda c: c >= 0}
SQL_OPS = {"equal": "=", "not_equal": "<>", "lt": "<", "gt": ">", "lte": "<=", "gte": ">="}

SQL_ORDER = "NaN equal to NaN and greater than every other number, -0.0 equal to 0.0 (the SQL engines' order)"
WHY_NAN = ("the YAML defines the comparison as `x < y` / `x == y` on values of its fp32/fp64 types, which the "
           "type classes make IEEE 754 numbers: IEEE 754 compares NaN unordered (every relation false, != true); "
           "the YAML says nothing of a total order with NaN largest, which Spark (SQLOrderingUtil), DuckDB and "
           "DataFusion use")


def _floats(call) -> bool:
    return any(t.is_float for t in call.value_types)


def _binary_sql(op):
    return lambda call: f"{{0}} {op} {{1}}"


for _name, _test in TESTS.items():
    register(Spec(C, _name, _relation(ieee_cmp, _test), any_types=ANY_TYPES,
                  duckdb=_binary_sql(SQL_OPS[_name]), datafusion=_binary_sql(SQL_OPS[_name]),
                  alternatives=[Reading(SQL_ORDER, _relation(sql_cmp, _test), WHY_NAN)]))

register(Spec(C, "not_equal", _not_equal(ieee_cmp), any_types=ANY_TYPES,
              duckdb=_binary_sql("<>"), datafusion=_binary_sql("<>"),
              alternatives=[Reading(SQL_ORDER, _not_equal(sql_cmp), WHY_NAN)]))


def _distinct(cmp, negate):
    def model(call, row):
        x, y = row
        same = (x is None and y is None) if x is None or y is None else cmp(x, y) == 0
        return Value(same != negate)
    return model


WHY_DISTINCT = ("is_not_distinct_from is 'whether two values are equal', NULLs comparable: for non-NULL values "
                "the answer of equal, which for IEEE 754 NaNs is false; SQL engines' IS NOT DISTINCT FROM "
                "takes NaN as equal to NaN")
register(
    Spec(C, "is_not_distinct_from", _distinct(ieee_cmp, False), nulls="none", any_types=ANY_TYPES,
         duckdb=lambda c: "{0} IS NOT DISTINCT FROM {1}", datafusion=lambda c: "{0} IS NOT DISTINCT FROM {1}",
         alternatives=[Reading(SQL_ORDER, _distinct(sql_cmp, False), WHY_DISTINCT)]),
    Spec(C, "is_distinct_from", _distinct(ieee_cmp, True), nulls="none", any_types=ANY_TYPES,
         duckdb=lambda c: "{0} IS DISTINCT FROM {1}", datafusion=lambda c: "{0} IS DISTINCT FROM {1}",
         alternatives=[Reading(SQL_ORDER, _distinct(sql_cmp, True), WHY_DISTINCT)]),
)


# ---- between: and(gte(expression, low), lte(expression, high)), Kleene ----------------------------------
def _between(cmp):
    def model(call, row):
        x, lo, hi = row

        def rel(a, b, test):
            if a is None or b is None:
                return None
            c = cmp(a, b)
            return False if c is None else test(c)
        ge, le = rel(x, lo, lambda c: c >= 0), rel(x, hi, lambda c: c <= 0)
        if ge is False or le is False:
            return Value(False)
        if ge is None or le is None:
            return NULL
        return Value(True)
    return model


register(Spec(C, "between", _between(ieee_cmp), nulls="none", any_types=ANY_TYPES,
              duckdb=lambda c: "{0} BETWEEN {1} AND {2}", datafusion=lambda c: "{0} BETWEEN {1} AND {2}",
              alternatives=[Reading(SQL_ORDER, _between(sql_cmp), WHY_NAN)]))


# ---- truth values and NULL --------------------------------------------------------------------------------
def _truth(fn):
    return lambda call, row: Value(fn(row[0]))


register(
    Spec(C, "is_true", _truth(lambda x: x is True), nulls="none",
         duckdb=lambda c: "{0} IS TRUE", datafusion=lambda c: "{0} IS TRUE"),
    Spec(C, "is_not_true", _truth(lambda x: x is not True), nulls="none",
         duckdb=lambda c: "{0} IS NOT TRUE", datafusion=lambda c: "{0} IS NOT TRUE"),
    Spec(C, "is_false", _truth(lambda x: x is False), nulls="none",
         duckdb=lambda c: "{0} IS FALSE", datafusion=lambda c: "{0} IS FALSE"),
    Spec(C, "is_not_false", _truth(lambda x: x is not False), nulls="none",
         duckdb=lambda c: "{0} IS NOT FALSE", datafusion=lambda c: "{0} IS NOT FALSE"),
    # "NaN is not null."
    Spec(C, "is_null", _truth(lambda x: x is None), nulls="none", any_types=ANY_TYPES,
         duckdb=lambda c: "{0} IS NULL", datafusion=lambda c: "{0} IS NULL"),
    Spec(C, "is_not_null", _truth(lambda x: x is not None), nulls="none", any_types=ANY_TYPES,
         duckdb=lambda c: "{0} IS NOT NULL", datafusion=lambda c: "{0} IS NOT NULL"),
)

# ---- floating-point classes: "If x is null, null is returned." ----------------------------------------------
register(
    Spec(C, "is_nan", _truth(_nan), duckdb=lambda c: "isnan({0})", datafusion=lambda c: "isnan({0})"),
    Spec(C, "is_finite", _truth(math.isfinite), duckdb=lambda c: "isfinite({0})",
         datafusion=lambda c: "NOT isnan({0}) AND abs({0}) <> CAST('inf' AS DOUBLE)"),
    Spec(C, "is_infinite", _truth(math.isinf), duckdb=lambda c: "isinf({0})",
         datafusion=lambda c: "abs({0}) = CAST('inf' AS DOUBLE)"),
)


# ---- nullif: "If two values are equal, return null. Otherwise, return the first value." ------------------------
def _nullif(cmp):
    def model(call, row):
        x, y = row
        if x is None:
            return NULL
        if y is None:          # equal(x, NULL) is NULL, not true: the first value
            return Value(x)
        return NULL if cmp(x, y) == 0 else Value(x)
    return model


def _df_nullif_zero(call, row, exp, got):
    x, y = row
    return isinstance(x, float) and isinstance(y, float) and x == 0 and y == 0 and isinstance(got, Value)


register(Spec(C, "nullif", _nullif(ieee_cmp), nulls="none", any_types=ANY_TYPES,
              duckdb=lambda c: "nullif({0}, {1})", datafusion=lambda c: "nullif({0}, {1})",
              alternatives=[Reading(SQL_ORDER, _nullif(sql_cmp), WHY_NAN)],
              engine_notes=[EngineNote("datafusion", _df_nullif_zero,
                                       "nullif: \"If two values are equal, return null\" (and equal(-0.0, 0.0) is "
                                       "true, also in DataFusion's =); DataFusion 55's nullif compares -0.0 and 0.0 "
                                       "as distinct and returns the first value")]))


# ---- coalesce ---------------------------------------------------------------------------------------------------
def _coalesce(call, row):
    for v in row:
        if v is not None:
            return Value(v)
    return NULL


def _args_sql(fn):
    return lambda call: f"{fn}(" + ", ".join(f"{{{i}}}" for i in range(len(call.value_types))) + ")"


register(Spec(C, "coalesce", _coalesce, nulls="none", any_types=VARIADIC_TYPES, variadic_counts=(2, 3, 4),
              duckdb=_args_sql("coalesce"), datafusion=_args_sql("coalesce")))


# ---- least / greatest -----------------------------------------------------------------------------------------------
def _ieee_extreme(vals, smallest):
    """IEEE 754-2019 minimum / maximum: NaN if any is NaN; -0.0 below 0.0."""
    if any(_nan(v) for v in vals):
        return next(v for v in vals if _nan(v))
    key = _total_key
    return min(vals, key=key) if smallest else max(vals, key=key)


def _sql_extreme(vals, smallest):
    """NaN largest, -0.0 equal to 0.0: the first of the equal extremes."""
    key = (lambda v: (_nan(v), 0.0 if _nan(v) else v)) if any(isinstance(v, float) for v in vals) else (lambda v: v)
    return min(vals, key=key) if smallest else max(vals, key=key)


def _total_extreme(vals, smallest):
    return min(vals, key=_total_key) if smallest else max(vals, key=_total_key)


def _extreme(pick, smallest, skip_null):
    def model(call, row):
        vals = [v for v in row if v is not None]
        if not vals or (not skip_null and len(vals) < len(row)):
            return NULL
        return Value(pick(vals, smallest))
    return model


WHY_EXTREME = ("'returns the smallest (largest) one' needs an order of the values; for IEEE 754 numbers with a NaN "
               "there is none: IEEE 754-2019's minimum/maximum (NaN if any is NaN, -0.0 below 0.0) is the model; "
               "SQL engines take NaN as the largest number and -0.0 as 0.0 (either zero may come back), "
               "or IEEE's totalOrder (-0.0 below 0.0, NaN largest)")


def _extreme_sql(fn, skip_null):
    def template(call):
        n = len(call.value_types)
        args = ", ".join(f"{{{i}}}" for i in range(n))
        if skip_null:
            return f"{fn}({args})"
        nulls = " OR ".join(f"{{{i}}} IS NULL" for i in range(n))
        return f"CASE WHEN {nulls} THEN NULL ELSE {fn}({args}) END"
    return template


def _duckdb_real_zero(call, row, exp, got):
    return call.out.kind == "fp32" and isinstance(got, Value) and got.v == 0 and math.copysign(1, got.v) > 0 \
        and any(isinstance(v, float) and v == 0 and math.copysign(1, v) < 0 for v in row)


def _duckdb_real_null(call, row, exp, got):
    return call.out.kind in ("fp32", "interval_day", "interval_year") and got == NULL and any(v is None for v in row)


DUCKDB_REAL_ZERO = EngineNote("duckdb", _duckdb_real_zero,
                              "least/greatest \"returns the smallest (largest) one\" of the arguments: DuckDB 1.1.3's "
                              "least/greatest of REAL give 0.0 where that argument is -0.0")
DUCKDB_REAL_NULL = EngineNote("duckdb", _duckdb_real_null,
                              "greatest_skip_null \"will return null only if all arguments evaluate to null\": DuckDB "
                              "1.1.3's greatest of REAL or INTERVAL values returns NULL when an argument is NULL (its least skips "
                              "it)")

for _name, _smallest, _skip in (("least", True, False), ("greatest", False, False),
                                ("least_skip_null", True, True), ("greatest_skip_null", False, True)):
    _fn = "least" if _smallest else "greatest"
    register(Spec(C, _name, _extreme(_ieee_extreme, _smallest, _skip), nulls="mirror" if not _skip else "none",
                  any_types=VARIADIC_TYPES, variadic_counts=(2, 3, 4),
                  duckdb=_extreme_sql(_fn, _skip), datafusion=_extreme_sql(_fn, _skip),
                  alternatives=[Reading(SQL_ORDER + "; the first of equal extremes", _extreme(_sql_extreme, _smallest, _skip),
                                        WHY_EXTREME),
                                Reading("IEEE 754 totalOrder (-NaN below -inf, -0.0 below 0.0, NaN above +inf)",
                                        _extreme(_total_extreme, _smallest, _skip), WHY_EXTREME)],
                  engine_notes=[DUCKDB_REAL_ZERO, DUCKDB_REAL_NULL]))
