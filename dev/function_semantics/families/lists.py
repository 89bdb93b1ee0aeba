"""functions_list: cardinality, sort (every direction), and the functions taking a lambda,
transform, filter, any_match and all_match.

A lambda argument (func<any1 -> …>) is an Expression.Lambda whose body calls functions of
other extensions (multiply, gt, lt, equal, is_null, not) on the lambda's parameter
(a lambda_parameter_reference); the model evaluates the same body per element with those
functions' own semantics (NULL in, NULL out; i32 overflow an error, the session's ANSI
behaviour). any_match / all_match are the Kleene OR / AND of the predicate over the
elements (false / true for an empty list); filter keeps the elements whose predicate is true.

sort: elements in the direction's order, NULLs first or last; NaN after every number (the
SQL engines' and Spark's order; the YAML only says elements "must be orderable"); -0.0 and
0.0 compare equal, so either order of the two is accepted. With no direction option the
consumer may pick any (FunctionOption: "the consumer is free to choose any supported
behavior"): any of the four orders is accepted.
"""

import math

import values
from outcomes import NULL, Error, Value, same_value
from plans import Arg, Call, Lambda
from spec import EngineNote, Spec, opt, register
from stypes import SType

LST = "functions_list"
I32, I64, FP64, STR, BOOL = SType("i32"), SType("i64"), SType("fp64"), SType("string"), SType("boolean")
DIRECTIONS = ("ASC_NULLS_FIRST", "ASC_NULLS_LAST", "DESC_NULLS_FIRST", "DESC_NULLS_LAST")


class _Fail(Exception):
    def __init__(self, kind):
        self.kind = kind


def _is_nan(v) -> bool:
    return isinstance(v, float) and math.isnan(v)


# ---- lambda bodies: the plan's tree and its Python value --------------------------------------------------
def _call(ext, name, arg_types, out, *args):
    sig = f"{name}:{'_'.join(t.short() if t is not None else 'any' for t in arg_types)}"
    return ("call", ext, sig, out, tuple(args))


X = ("param", 0)


def _lit(t, v):
    return ("lit", t, v)


def _eval(node, x):
    """The value of a lambda body for the parameter value x (None is NULL); _Fail for an error."""
    if node[0] == "param":
        return x
    if node[0] == "lit":
        return node[2]
    _, ext, sig, out, args = node
    name = sig.split(":")[0]
    vals = [_eval(a, x) for a in args]
    if name == "is_null":
        return vals[0] is None
    if name == "is_not_null":
        return vals[0] is not None
    if any(v is None for v in vals):
        return None
    if name == "multiply":
        r = vals[0] * vals[1]
        if out.is_integer:
            lo, hi = out.int_range()
            if not lo <= r <= hi:
                raise _Fail("overflow")
        return r
    if name == "not":
        return not vals[0]
    a, b = vals
    if _is_nan(a) or _is_nan(b):
        return False       # IEEE: NaN is unordered and equal to nothing
    return {"gt": a > b, "lt": a < b, "equal": a == b}[name]


def _lambdas(elem: SType, purpose: str):
    """The lambdas tried for lists of ``elem``: transformers, or predicates (boolean?)."""
    C, A, B = "functions_comparison", "functions_arithmetic", "functions_boolean"
    k = elem.kind
    out = []
    if purpose == "transform":
        if k in ("i32", "i64"):
            out.append(Lambda((elem,), elem, _call(A, "multiply", (elem, elem), elem, X, _lit(elem, 2)), "x -> x * 2"))
        if k == "fp64":
            out.append(Lambda((elem,), elem, _call(A, "multiply", (elem, elem), elem, X, _lit(elem, 2.0)), "x -> x * 2.0"))
        if k == "boolean":
            out.append(Lambda((elem,), BOOL, _call(B, "not", (elem,), BOOL, X), "x -> not x"))
        out.append(Lambda((elem,), BOOL, _call(C, "is_null", (None,), BOOL, X), "x -> x is null"))
        return out
    zero = {"i32": 2, "i64": 2, "fp64": 0.0, "string": "abc"}.get(k)
    if k in ("i32", "i64"):
        out.append(Lambda((elem,), BOOL, _call(C, "gt", (elem, elem), BOOL, X, _lit(elem, zero)), f"x -> x > {zero}"))
    if k == "fp64":
        out.append(Lambda((elem,), BOOL, _call(C, "lt", (elem, elem), BOOL, X, _lit(elem, zero)), "x -> x < 0.0"))
    if k == "string":
        out.append(Lambda((elem,), BOOL, _call(C, "equal", (elem, elem), BOOL, X, _lit(elem, zero)),
                          "x -> x = 'abc'"))
    if k == "boolean":
        out.append(Lambda((elem,), BOOL, X, "x -> x"))
    out.append(Lambda((elem,), BOOL, _call(C, "is_not_null", (None,), BOOL, X), "x -> x is not null"))
    return out


def _lambda_variants(purpose):
    def variants(call: Call, full: bool):
        elem = call.value_types[0].elem
        out = []
        for lam in _lambdas(elem, purpose):
            args = [Arg(lam=lam) if a.type is None and a.enum is None else a for a in call.args]
            if purpose == "transform":
                result = SType("list", elem=lam.out)
            elif purpose == "filter":
                result = call.out
            else:
                result = BOOL
            out.append(Call(call.ext, call.name, call.kind, args, result, dict(call.options)))
        return out
    return variants


def _lam(call) -> Lambda:
    return next(a.lam for a in call.args if a.lam is not None)


def _evaluated(call, xs):
    body = _lam(call).body
    return [_eval(body, x) for x in xs]


def _guard(fn):
    def model(call, row):
        try:
            return fn(call, row[0])
        except _Fail as f:
            return Error(f.kind)
    return model


def _transform(call, xs):
    return Value(_evaluated(call, xs))


def _filter(call, xs):
    return Value([x for x, p in zip(xs, _evaluated(call, xs), strict=True) if p is True])


def _any_match(call, xs):
    ps = _evaluated(call, xs)
    return Value(True) if True in ps else NULL if None in ps else Value(False)


def _all_match(call, xs):
    ps = _evaluated(call, xs)
    return Value(False) if False in ps else NULL if None in ps else Value(True)


# ---- rows ---------------------------------------------------------------------------------------------------------
def _list_rows(call, rng, n_random):
    t = call.value_types[0]
    e = t.elem
    edge = values.edges(e)[1:]
    rows = [(None,), ([],), ([None],), ([None, None],), (edge[:4],), (edge,), (list(reversed(edge)),),
            ([edge[0], None, edge[1 % len(edge)]],), ([None] + edge[::2] + [None] + edge[1::2],)]
    for _ in range(n_random):
        n = rng.randint(0, 8)
        pool = edge + [values.random_value(e, rng) for _ in range(3)]
        rows.append(([rng.choice(pool) if rng.random() < 0.8 else None for _ in range(n)],))
    return rows


# ---- engines: DuckDB's lambdas ----------------------------------------------------------------------------------------
def _duck_body(node) -> str:
    if node[0] == "param":
        return "x"
    if node[0] == "lit":
        t, v = node[1], node[2]
        if t.kind == "string":
            return "'" + v.replace("'", "''") + "'"
        return f"CAST({v!r} AS {t.sql('duckdb')})"
    _, ext, sig, out, args = node
    name = sig.split(":")[0]
    a = [_duck_body(x) for x in args]
    if name == "is_null":
        return f"({a[0]} IS NULL)"
    if name == "is_not_null":
        return f"({a[0]} IS NOT NULL)"
    if name == "not":
        return f"(NOT {a[0]})"
    op = {"multiply": "*", "gt": ">", "lt": "<", "equal": "="}[name]
    return f"({a[0]} {op} {a[1]})"


def _duck_lambda(kind):
    def template(call):
        p = _duck_body(_lam(call).body)
        if kind == "transform":
            return f"list_transform({{0}}, x -> {p})"
        if kind == "filter":
            return f"list_filter({{0}}, x -> {p} IS TRUE)"
        hit, other = ("", "true") if kind == "any_match" else ("NOT ", "false")
        first = "true" if kind == "any_match" else "false"
        return (f"CASE WHEN {{0}} IS NULL THEN NULL WHEN len(list_filter({{0}}, x -> {hit}{p})) > 0 THEN {first} "
                f"WHEN len(list_filter({{0}}, x -> ({p}) IS NULL)) > 0 THEN NULL ELSE {'false' if first == 'true' else 'true'} END")
    return template


def _duck_nan(call, row, exp, got) -> bool:
    """DuckDB orders NaN above every number and equal to itself: NaN > 0 is true, NaN = NaN too."""
    return row[0] is not None and any(_is_nan(v) for v in row[0])


DUCK_NAN = EngineNote("duckdb", _duck_nan, "the lambda body's functions_comparison gt/lt/equal follow IEEE "
                                           "(NaN compares false); DuckDB orders NaN above every number")

LAMBDA_ANY = (I32, I64, FP64, STR, BOOL)
for _name, _model in (("transform", _transform), ("filter", _filter), ("any_match", _any_match),
                      ("all_match", _all_match)):
    register(Spec(LST, _name, _guard(_model), any_types=LAMBDA_ANY, rows=_list_rows,
                  variants=_lambda_variants(_name),
                  duckdb=_duck_lambda(_name), engine_notes=[DUCK_NAN]))


# ---- cardinality ------------------------------------------------------------------------------------------------------
register(Spec(LST, "cardinality", lambda c, r: Value(len(r[0])), rows=_list_rows,
              duckdb=lambda c: "CAST(len({0}) AS BIGINT)", datafusion=lambda c: "CAST(cardinality({0}) AS BIGINT)",
              engine_notes=[EngineNote("datafusion", lambda c, r, e, g: r[0] == [] and g is NULL,
                                       "\"Returns the number of elements in the list\": DataFusion 55's cardinality "
                                       "of an empty list is NULL")]))


# ---- sort ---------------------------------------------------------------------------------------------------------------
def _key(v):
    """Ascending order: numbers (NaN last), strings by code point, booleans false first."""
    if isinstance(v, float) and math.isnan(v):
        return (1, 0)
    return (0, v)


def _sorted(xs, direction):
    present = [x for x in xs if x is not None]
    nulls = [None] * (len(xs) - len(present))
    desc = direction.startswith("DESC")
    present = sorted(present, key=_key, reverse=desc)
    return nulls + present if direction.endswith("NULLS_FIRST") else present + nulls


def _sort(call, row):
    return Value(_sorted(row[0], opt(call, "direction", "ASC_NULLS_FIRST")))


def _same_order(a, b) -> bool:
    """Lists equal, -0.0 and 0.0 interchangeable (they compare equal, so either order is sorted)."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if isinstance(x, float) and isinstance(y, float) and x == 0 and y == 0:
            continue
        if not same_value(x, y):
            return False
    return True


def _norm(v) -> str:
    import decimal
    from fractions import Fraction
    if isinstance(v, decimal.Decimal):
        return str(Fraction(v))
    return repr(v)


def _sort_accept(call, row, exp, got) -> bool:
    if not (isinstance(exp, Value) and isinstance(got, Value) and isinstance(got.v, list)):
        return False
    if sorted(map(_norm, got.v)) != sorted(map(_norm, row[0])):   # the same elements, signs of zeros included
        return False
    directions = [opt(call, "direction")] if opt(call, "direction") else DIRECTIONS
    return any(_same_order(_sorted(row[0], d), got.v) for d in directions)


def _sort_sql(fn):
    def template(call):
        d = opt(call, "direction", "ASC_NULLS_FIRST")
        order, nulls = d.split("_", 1)
        return f"{fn}({{0}}, '{order}', '{nulls.replace('_', ' ')}')"
    return template


register(Spec(LST, "sort", _sort, rows=_list_rows, accept=_sort_accept,
              any_types=(I32, I64, FP64, SType("fp32"), STR, SType("date"), SType("decimal", 10, 2), BOOL,
                         SType("precision_timestamp", 6)),
              duckdb=_sort_sql("list_sort"), datafusion=_sort_sql("array_sort"),
              engine_notes=[EngineNote("duckdb", lambda c, r, e, g: isinstance(g, Value) and r[0] is not None and any(
                  isinstance(v, float) and v == 0 and math.copysign(1, v) < 0 for v in r[0]),
                  "sort keeps the elements: DuckDB 1.1.3 reads -0.0 as 0.0")]))
