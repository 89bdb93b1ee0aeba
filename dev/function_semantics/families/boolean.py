"""functions_boolean: Kleene logic (or, and, and_not, xor, not) and the bool_and / bool_or aggregates.

NULL is "unknown" (the YAML's words): a result is known when every value the unknowns could
take gives the same answer. Every call runs on every combination of TRUE, FALSE and NULL.
"""

import itertools

from outcomes import NULL, Value
from spec import Spec, register

B = "functions_boolean"
TRUTH = (None, True, False)


def _all_rows(call, rng, n_random):
    """Every combination of TRUE, FALSE and NULL for the call's arguments."""
    return list(itertools.product(TRUTH, repeat=len(call.value_types)))


def _kleene(fn):
    """The Kleene value of ``fn`` (a function of booleans): known when every completion of the
    unknowns agrees."""
    def model(call, row):
        unknown = [i for i, v in enumerate(row) if v is None]
        answers = set()
        for fill in itertools.product((True, False), repeat=len(unknown)):
            vals = list(row)
            for i, v in zip(unknown, fill, strict=True):
                vals[i] = v
            answers.add(fn(vals))
        return Value(answers.pop()) if len(answers) == 1 else NULL
    return model


def _or(call, row):
    # or() -> false; or(x) -> x
    return _kleene(lambda v: any(v))(call, row)


def _and(call, row):
    # and() -> true; and(x) -> x
    return _kleene(lambda v: all(v))(call, row)


def _variadic_sql(op, empty):
    def template(call):
        n = len(call.value_types)
        return empty if n == 0 else f" {op} ".join(f"{{{i}}}" for i in range(n))
    return template


register(
    Spec(B, "or", _or, nulls="none", rows=_all_rows, variadic_counts=(0, 1, 2, 3, 4),
         duckdb=_variadic_sql("OR", "false"), datafusion=_variadic_sql("OR", "false")),
    Spec(B, "and", _and, nulls="none", rows=_all_rows, variadic_counts=(0, 1, 2, 3, 4),
         duckdb=_variadic_sql("AND", "true"), datafusion=_variadic_sql("AND", "true")),
    # "an unknown value `and not` true is always false, as is false `and not` an unknown value"
    Spec(B, "and_not", _kleene(lambda v: v[0] and not v[1]), nulls="none", rows=_all_rows,
         duckdb=lambda c: "{0} AND NOT {1}", datafusion=lambda c: "{0} AND NOT {1}"),
    # "When a null is encountered in either input, a null is output."
    Spec(B, "xor", lambda c, r: Value(r[0] != r[1]), rows=_all_rows,
         duckdb=lambda c: "{0} <> {1}", datafusion=lambda c: "{0} <> {1}"),
    Spec(B, "not", lambda c, r: Value(not r[0]), rows=_all_rows,
         duckdb=lambda c: "NOT {0}", datafusion=lambda c: "NOT {0}"),
)


# ---- aggregates ------------------------------------------------------------------------------------
def _bool_and(call, rows):
    """If any value is false, false; empty or only NULLs: NULL; otherwise true."""
    vals = [r[0] for r in rows if r[0] is not None]
    if not vals:
        return NULL
    return Value(all(vals))


def _bool_or(call, rows):
    """If any value is true, true; empty or only NULLs: NULL; otherwise false."""
    vals = [r[0] for r in rows if r[0] is not None]
    if not vals:
        return NULL
    return Value(any(vals))


def _agg_rows(call, rng, n_random):
    """Edge rows (TRUE, FALSE, NULL), then random groups: mostly TRUE, mostly FALSE, mixed."""
    out = [(v,) for v in TRUTH] * 2
    for _ in range(n_random):
        p = rng.choice((0.05, 0.5, 0.95))
        out.append((None if rng.random() < 0.15 else rng.random() < p,))
    return out


register(
    Spec(B, "bool_and", _bool_and, kind="aggregate", rows=_agg_rows,
         duckdb=lambda c: "bool_and({0})", datafusion=lambda c: "bool_and({0})"),
    Spec(B, "bool_or", _bool_or, kind="aggregate", rows=_agg_rows,
         duckdb=lambda c: "bool_or({0})", datafusion=lambda c: "bool_or({0})"),
)
