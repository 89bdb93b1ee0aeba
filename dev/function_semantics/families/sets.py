"""functions_set: index_in(needle, haystack), the 0-based index of the first element equal to
the needle, NULL when none is (or the needle or the list is NULL). NULL elements equal nothing;
floating-point equality is IEEE's (-0.0 equals 0.0) except NaN: with nan_equality NAN_IS_NAN
(the YAML's default) a NaN needle finds the first NaN, with NAN_IS_NOT_NAN it gives NULL.
"""

import math

import values
from outcomes import NULL, Value
from spec import EngineNote, Spec, opt, register
from stypes import SType

S = "functions_set"


def _is_nan(v) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _index_in(call, row):
    needle, haystack = row
    if _is_nan(needle):
        if opt(call, "nan_equality", "NAN_IS_NAN") == "NAN_IS_NOT_NAN":
            return NULL
        hits = [i for i, e in enumerate(haystack) if _is_nan(e)]
    else:
        hits = [i for i, e in enumerate(haystack) if e is not None and not _is_nan(e) and e == needle
                and isinstance(e, bool) == isinstance(needle, bool)]
    return Value(hits[0]) if hits else NULL


def _rows(call, rng, n_random):
    """Needles (edge values) against lists holding them, not holding them, with NULLs and NaNs."""
    t = call.value_types[0]
    edge = values.edges(t)[1:]
    rows = [(None, edge[:3]), (edge[0], None), (None, None), (edge[0], []), (edge[0], [None])]
    for x in edge:
        others = [e for e in edge if not (e == x or (_is_nan(e) and _is_nan(x)))]
        rows.append((x, [None] + others[:3] + [x] + others[3:5] + [x]))     # found after a NULL, twice
        rows.append((x, others[:6]))                                      # not found
        rows.append((x, [x]))
    if t.is_float:   # IEEE equality: -0.0 finds 0.0; NaN finds NaN (NAN_IS_NAN)
        nan = float("nan")
        rows += [(0.0, [-0.0]), (-0.0, [1.0, 0.0]), (nan, [1.0, nan, nan]), (1.0, [nan, 1.0]), (nan, [None, 2.0])]
    for _ in range(n_random):
        hay = [values.random_value(t, rng) for _ in range(rng.randint(0, 6))]
        needle = rng.choice(hay) if hay and rng.random() < 0.6 else values.random_value(t, rng)
        rows.append((needle, hay))
    return rows


def _duck(call):
    if call.value_types[0].is_float and opt(call, "nan_equality") == "NAN_IS_NOT_NAN":
        return None
    return "CASE WHEN {0} IS NULL THEN NULL ELSE list_position({1}, {0}) - 1 END"


def _df(call):
    if call.value_types[0].is_float and opt(call, "nan_equality") == "NAN_IS_NOT_NAN":
        return None
    return "CASE WHEN {0} IS NULL THEN NULL ELSE array_position({1}, {0}) - 1 END"


def _zero_sign(call, row, exp, got) -> bool:
    """DataFusion compares floats by their bits: -0.0 does not find 0.0."""
    needle, hay = row
    return isinstance(needle, float) and hay is not None and any(
        isinstance(e, float) and e == 0 for e in hay) and needle == 0


ANY = (SType("i32"), SType("i64"), SType("fp64"), SType("fp32"), SType("string"), SType("date"),
       SType("decimal", 10, 2), SType("boolean"), SType("precision_timestamp", 6))

register(Spec(S, "index_in", _index_in, rows=_rows, any_types=ANY,
              duckdb=_duck, datafusion=_df,
              engine_notes=[EngineNote("datafusion", _zero_sign,
                                       "\"if `needle` is equal to any element\": DataFusion 55's array_position "
                                       "compares floats bit for bit, so -0.0 and 0.0 differ")]))
